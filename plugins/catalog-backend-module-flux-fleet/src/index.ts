/**
 * Catalog module that turns the structure of the Flux fleet (clusters, instances, shards, reconcilers, sources)
 * into catalog entities, so catalog filters and search find them.
 *
 * @packageDocumentation
 */
export { catalogModuleFluxFleet as default } from './module';
export {
  FluxFleetEntityProvider,
  type FluxFleetEntityProviderDeps,
} from './providers/FluxFleetEntityProvider';
