import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { FluxFleetClient, fluxFleetApiRef } from './api';
import { rootRouteRef } from './routes';

/**
 * The Flux Fleet frontend plugin for the legacy frontend system.
 *
 * @public
 */
export const fluxFleetPlugin = createPlugin({
  id: 'flux-fleet',
  apis: [
    createApiFactory({
      api: fluxFleetApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new FluxFleetClient({ discoveryApi, fetchApi }),
    }),
  ],
  routes: { root: rootRouteRef },
});

/**
 * Card for an entity page: per cluster, the Flux instance and shard, reconcile state and tenancy boundary.
 *
 * @public
 */
export const EntityFluxFleetCard = fluxFleetPlugin.provide(
  createComponentExtension({
    name: 'EntityFluxFleetCard',
    component: {
      lazy: () =>
        import('./components/EntityFluxFleetCard').then(
          m => m.EntityFluxFleetCard,
        ),
    },
  }),
);

/**
 * The fleet page for platform teams.
 *
 * @public
 */
export const FluxFleetPage = fluxFleetPlugin.provide(
  createRoutableExtension({
    name: 'FluxFleetPage',
    component: () =>
      import('./components/FluxFleetPage').then(m => m.FluxFleetPage),
    mountPoint: rootRouteRef,
  }),
);
