import { SearchResultListItemBlueprint } from '@backstage/plugin-search-react/alpha';
import { isFluxFleetSearchResult } from '../lib/fluxFleetEntity';
import { FluxFleetIcon } from './FluxFleetIcon';

/** Search results of Flux Fleet's catalog entities, with their cluster, instance, shard, tenant and namespace. */
export const fluxFleetSearchResultListItem = SearchResultListItemBlueprint.make(
  {
    params: {
      icon: <FluxFleetIcon />,
      predicate: isFluxFleetSearchResult,
      component: () =>
        import('../components/FluxFleetSearchResultListItem').then(
          m => m.FluxFleetSearchResultListItem,
        ),
    },
  },
);
