/**
 * Search backend module that adds Flux Fleet's fields to the catalog collator's documents:
 * `backend.add(import('@flux-fleet/plugin-catalog-backend-module-flux-fleet/search'))`.
 *
 * @packageDocumentation
 */
export { searchModuleFluxFleetCatalogCollator as default } from './module';
export { fluxFleetCollatorEntityTransformer } from './fluxFleetCollatorEntityTransformer';
