/**
 * A Kubernetes API server that serves simulated Flux fleets, with a deterministic fleet generator and the ground
 * truth of what it generated (docs/rules.md).
 *
 * @packageDocumentation
 */
export { startFleetSim, generateFleet } from './fleetSim';
export { generateTls } from './tls/certificates';
export type { GeneratedTls } from './tls/certificates';
export type { FleetSim, SimCluster } from './fleetSim';
export { PRESETS, resolveOptions } from './options';
export type { FleetSimOptions } from './options';
export type { Faults } from './sim/faults';
export type { RequestCounts } from './server/requestCounter';
export type { EventLoopLoad } from './server/eventLoopLoad';
export type {
  GroundTruth,
  TruthFinding,
  TruthMalformed,
  TruthObject,
  TruthController,
  OwnerStatus,
  Enforcement,
} from './truth/groundTruth';
export type { TargetGroup } from './capacity/scrapeTargets';
export type { PodMetricsFault } from './sim/faults';
export { FLUX_RELEASES, servedFluxVersions } from './api/fluxReleases';
export type { FluxRelease, FluxComponent } from './api/fluxReleases';
