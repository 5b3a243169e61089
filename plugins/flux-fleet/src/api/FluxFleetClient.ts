import { CompoundEntityRef } from '@backstage/catalog-model';
import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import { ClusterHealth, EntityView } from '@flux-fleet/plugin-flux-fleet-common';
import { FluxFleetApi } from './FluxFleetApi';

/** The {@link FluxFleetApi} over HTTP, with the signed-in user's Backstage credentials. */
export class FluxFleetClient implements FluxFleetApi {
  constructor(
    private readonly options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi },
  ) {}

  async getEntityView(entity: CompoundEntityRef): Promise<EntityView> {
    const path = [entity.kind, entity.namespace, entity.name]
      .map(encodeURIComponent)
      .join('/');
    return this.get<EntityView>(`/entity/${path}`);
  }

  async getClusters(): Promise<ClusterHealth[]> {
    return (await this.get<{ items: ClusterHealth[] }>('/clusters')).items;
  }

  private async get<T>(path: string): Promise<T> {
    const baseUrl = await this.options.discoveryApi.getBaseUrl('flux-fleet');
    const response = await this.options.fetchApi.fetch(`${baseUrl}${path}`);
    if (!response.ok) {
      throw await ResponseError.fromResponse(response);
    }
    return (await response.json()) as T;
  }
}
