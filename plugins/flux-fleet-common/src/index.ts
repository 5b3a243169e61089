/**
 * Flux Fleet's vocabulary, data model and pure Flux derivations, shared by the backend, the catalog module and
 * the frontend. No I/O here.
 *
 * @packageDocumentation
 */
export * from './vocabulary';
export * from './types';
export * from './permissions';
export * from './api';
export * from './fluxOperatorTypes';
export * from './labelSelector';
export * from './clusterSync';
export * from './clusterEnvironment';
export * from './entitySelectorLimits';
export * from './duration';
export { compareText, compareShardNames } from './order';
export { ValuePool, defaultValuePool, textHash } from './valuePool';
export * from './controller';
export * from './record';
export * from './normalize';
export * from './metadataOnly';
export * from './revision';
export * from './state';
export * from './references';
export * from './owner';
export * from './tenancy';
export * from './serviceLink';
export * from './load';
export * from './dependencyCycles';
export * from './findings';
export * from './analysis';
export * from './entityNames';
export * from './fluxCli';
export * from './revisionLink';
export * from './revisionComparison';
export * from './capacity/measurement';
export * from './capacity/thresholds';
export * from './capacity/format';
export * from './capacity/workload';
export * from './capacity/cleanMeasurement';
export * from './capacity/assess';
export * from './capacity/advice';
export * from './capacity/instance';
export * from './capacity/shardGroups';
export * from './capacity/placement';
export * from './capacity/oversize';
export * from './capacity/shardControllers';
export * from './capacity/planOutput';
export * from './capacity/shardingPlan';
export * from './capacity/cluster';
export * from './capacity/exposition';
export * from './capacity/metricMath';
export * from './capacity/metricMathScrapes';
export * from './capacity/metricMathQuantity';
export * from './fluxReleases';
export * from './fluxApiVersions';
export * from './fluxVersion';
export * from './apiVersionFacts';
export * from './upgradeReadiness';
export * from './fleetVersions';
