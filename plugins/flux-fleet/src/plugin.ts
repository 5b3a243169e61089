import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { createSearchResultListItemExtension } from '@backstage/plugin-search-react';
import { FluxFleetClient, fluxFleetApiRef } from './api';
import { isFluxFleetSearchResult } from './lib/fluxFleetEntity';
import { entityContentRouteRef, rootRouteRef } from './routes';

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
  routes: { root: rootRouteRef, entityContent: entityContentRouteRef },
});

/**
 * Card for an entity page: per cluster where the entity deploys, the Flux instance and shard that reconcile it,
 * its reconcile state and its tenancy boundary. Show it where `isFluxFleetEntity` holds.
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
 * Card for a Group entity page: the team's Flux objects across the fleet (through the tenant → group mapping and
 * the Components it owns) and their states, failing first. Show it on Group pages.
 *
 * @public
 */
export const EntityFluxFleetGroupCard = fluxFleetPlugin.provide(
  createComponentExtension({
    name: 'EntityFluxFleetGroupCard',
    component: {
      lazy: () =>
        import('./components/EntityFluxFleetGroupCard').then(
          m => m.EntityFluxFleetGroupCard,
        ),
    },
  }),
);

/**
 * Tab for an entity page: every Flux object of the entity across clusters, with a detail view per object.
 *
 * @public
 */
export const EntityFluxFleetContent = fluxFleetPlugin.provide(
  createRoutableExtension({
    name: 'EntityFluxFleetContent',
    component: () =>
      import('./components/EntityFluxFleetContent').then(
        m => m.EntityFluxFleetContent,
      ),
    mountPoint: entityContentRouteRef,
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

/**
 * Search result item for Flux Fleet's catalog entities (clusters, instances, shards, Kustomizations,
 * HelmReleases), with their cluster, instance, shard, tenant and namespace as chips.
 *
 * @public
 */
export const FluxFleetSearchResultListItem = fluxFleetPlugin.provide(
  createSearchResultListItemExtension({
    name: 'FluxFleetSearchResultListItem',
    component: () =>
      import('./components/FluxFleetSearchResultListItem').then(
        m => m.FluxFleetSearchResultListItem,
      ),
    predicate: isFluxFleetSearchResult,
  }),
);
