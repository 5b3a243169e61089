import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import { fleetIndexServiceRef } from '@flux-fleet/plugin-flux-fleet-node';
import { FluxFleetEntityProvider } from './providers/FluxFleetEntityProvider';

/**
 * Registers the Flux Fleet entity provider with the catalog.
 *
 * @public
 */
export const catalogModuleFluxFleet = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'flux-fleet',
  register(env) {
    env.registerInit({
      deps: {
        catalog: catalogProcessingExtensionPoint,
        logger: coreServices.logger,
        fleetIndex: fleetIndexServiceRef,
      },
      async init({ catalog, logger, fleetIndex }) {
        catalog.addEntityProvider(
          new FluxFleetEntityProvider({ fleetIndex, logger }),
        );
      },
    });
  },
});
