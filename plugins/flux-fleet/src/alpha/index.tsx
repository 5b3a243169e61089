import { createFrontendPlugin } from '@backstage/frontend-plugin-api';
import { entityFluxFleetCard } from './entityFluxFleetCard';
import { entityFluxFleetContent } from './entityFluxFleetContent';
import { entityFluxFleetGroupCard } from './entityFluxFleetGroupCard';
import { fluxFleetApi } from './fluxFleetApi';
import { fleetPageRouteRef, fluxFleetPage } from './fluxFleetPage';
import { fluxFleetSearchResultListItem } from './fluxFleetSearchResultListItem';

/**
 * The Flux Fleet plugin for the new frontend system: its API, the entity card and "Flux" tab, the ownership card on Group pages, the fleet page at
 * `/flux-fleet` (with its navigation item), and the search result item of its catalog entities.
 *
 * @alpha
 */
export default createFrontendPlugin({
  pluginId: 'flux-fleet',
  info: { packageJson: () => import('../../package.json') },
  extensions: [
    fluxFleetApi,
    entityFluxFleetCard,
    entityFluxFleetContent,
    entityFluxFleetGroupCard,
    fluxFleetPage,
    fluxFleetSearchResultListItem,
  ],
  routes: { root: fleetPageRouteRef },
});

export {
  entityFluxFleetCard,
  entityFluxFleetContent,
  entityFluxFleetGroupCard,
  fluxFleetApi,
  fluxFleetPage,
  fluxFleetSearchResultListItem,
};
