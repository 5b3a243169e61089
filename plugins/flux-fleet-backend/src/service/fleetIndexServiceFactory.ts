import {
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import { fleetIndexServiceRef } from '@flux-fleet/plugin-flux-fleet-node';
import { FleetIndex } from './FleetIndex';

/** Creates the root-scoped fleet index shared by the Flux Fleet plugin and the catalog module. */
export const fleetIndexServiceFactory = createServiceFactory({
  service: fleetIndexServiceRef,
  deps: { config: coreServices.rootConfig },
  factory({ config }) {
    const names =
      config
        .getOptionalConfigArray('fluxFleet.clusters')
        ?.map(c => c.getString('name')) ?? [];
    return new FleetIndex(names);
  },
});
