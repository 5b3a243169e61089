import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { fleetIndexServiceRef } from '@flux-fleet/plugin-flux-fleet-node';
import { createRouter } from './router';

/**
 * The Flux Fleet backend plugin.
 *
 * @public
 */
export const fluxFleetPlugin = createBackendPlugin({
  pluginId: 'flux-fleet',
  register(env) {
    env.registerInit({
      deps: {
        httpAuth: coreServices.httpAuth,
        httpRouter: coreServices.httpRouter,
        fleetIndex: fleetIndexServiceRef,
        catalog: catalogServiceRef,
      },
      async init({ httpAuth, httpRouter, fleetIndex, catalog }) {
        httpRouter.use(await createRouter({ httpAuth, fleetIndex, catalog }));
      },
    });
  },
});
