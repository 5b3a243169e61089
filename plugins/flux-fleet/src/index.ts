/**
 * Flux Fleet frontend plugin: each service's Flux objects across clusters (owning instance and shard, reconcile
 * state, tenancy boundary) and the fleet page for platform teams. Legacy frontend system exports; the new
 * frontend system lives in `./alpha`.
 *
 * @packageDocumentation
 */
export { fluxFleetPlugin, EntityFluxFleetCard, FluxFleetPage } from './plugin';
export { fluxFleetApiRef, FluxFleetClient } from './api';
export type { FluxFleetApi } from './api';
