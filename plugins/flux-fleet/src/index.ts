/**
 * Flux Fleet frontend plugin: each service's Flux objects across clusters (owning instance and shard, reconcile
 * state, tenancy boundary) and the fleet page for platform teams. Legacy frontend system exports; the new
 * frontend system lives in `./alpha`.
 *
 * @packageDocumentation
 */
export {
  fluxFleetPlugin,
  EntityFluxFleetCard,
  EntityFluxFleetContent,
  EntityFluxFleetGroupCard,
  FluxFleetPage,
  FluxFleetSearchResultListItem,
} from './plugin';
export { fluxFleetApiRef, FluxFleetClient } from './api';
export type { FluxFleetApi } from './api';
export type { FluxFleetSearchResultListItemProps } from './components/FluxFleetSearchResultListItem';
export {
  isFluxFleetEntity,
  isFluxFleetSearchResult,
  FLUX_FLEET_RESOURCE_TYPES,
} from './lib/fluxFleetEntity';
