import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import {
  catalogProcessingExtensionPoint,
  catalogServiceRef,
} from '@backstage/plugin-catalog-node';
import { fleetIndexServiceRef } from '@flux-fleet/plugin-flux-fleet-node';
import { FluxFleetEntityProvider } from './providers/FluxFleetEntityProvider';

/**
 * Registers one Flux Fleet entity provider per provider id configured under `catalog.providers.fluxFleet` (one
 * with the defaults when nothing is configured). Needs the fleet index of `@flux-fleet/plugin-flux-fleet-backend`.
 *
 * @public
 */
export const catalogModuleFluxFleet = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'flux-fleet',
  register(env) {
    env.registerInit({
      deps: {
        catalogProcessing: catalogProcessingExtensionPoint,
        catalog: catalogServiceRef,
        auth: coreServices.auth,
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        scheduler: coreServices.scheduler,
        lifecycle: coreServices.lifecycle,
        fleetIndex: fleetIndexServiceRef,
      },
      async init({
        catalogProcessing,
        catalog,
        auth,
        config,
        logger,
        scheduler,
        lifecycle,
        fleetIndex,
      }) {
        const providers = FluxFleetEntityProvider.fromConfig(config, {
          fleetIndex,
          catalog,
          auth,
          logger,
          scheduler,
        });
        catalogProcessing.addEntityProvider(providers);
        lifecycle.addShutdownHook(() => providers.forEach(p => p.dispose()));
      },
    });
  },
});
