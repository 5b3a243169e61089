import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import catalogGraphPlugin from '@backstage/plugin-catalog-graph/alpha';
import orgPlugin from '@backstage/plugin-org/alpha';
import searchPlugin from '@backstage/plugin-search/alpha';
import signalsPlugin from '@backstage/plugin-signals/alpha';
import userSettingsPlugin from '@backstage/plugin-user-settings/alpha';
import fluxFleetPlugin from '@flux-fleet/plugin-flux-fleet/alpha';
import { navModule } from './modules/nav';

export default createApp({
  features: [
    // Before the catalog: the search page renders a result with the first item extension whose predicate matches,
    // and Flux Fleet's item (for its own catalog entities) is more specific than the catalog's (every entity).
    fluxFleetPlugin,
    catalogPlugin,
    catalogGraphPlugin,
    orgPlugin,
    searchPlugin,
    signalsPlugin,
    userSettingsPlugin,
    navModule,
  ],
});
