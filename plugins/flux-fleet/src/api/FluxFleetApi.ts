import { createApiRef } from '@backstage/core-plugin-api';
import { CompoundEntityRef } from '@backstage/catalog-model';
import { ClusterHealth, EntityView } from '@flux-fleet/plugin-flux-fleet-common';

/** Reads the Flux Fleet backend (`/api/flux-fleet`). */
export interface FluxFleetApi {
  /** The Flux objects of a catalog entity across clusters. */
  getEntityView(entity: CompoundEntityRef): Promise<EntityView>;
  /** Every configured cluster with its health. */
  getClusters(): Promise<ClusterHealth[]>;
}

/** The API reference of {@link FluxFleetApi}. */
export const fluxFleetApiRef = createApiRef<FluxFleetApi>({
  id: 'plugin.flux-fleet.api',
});
