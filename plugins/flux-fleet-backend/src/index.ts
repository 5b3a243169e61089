/**
 * Flux Fleet backend: watches Flux objects on every configured cluster, keeps a fleet-wide index with owner,
 * reconcile state and tenancy boundary, and serves it under `/api/flux-fleet`.
 *
 * @packageDocumentation
 */
export { fluxFleetPlugin } from './plugin';
export { fleetIndexServiceFactory } from './index/fleetIndexServiceFactory';
export { default } from './feature';
export {
  fluxObjectConditions,
  createFluxObjectConditionalDecision,
} from './permissions/conditionExports';
