/**
 * The shapes of the capacity routes (`GET /api/flux-fleet/capacity`, `GET /api/flux-fleet/capacity/plan`), rules
 * §12 and §13. Re-exported by `api.ts`; kept in their own file so that each stays readable.
 */
import type { FluxObjectRef } from './types';
import type { ControllerComponent } from './vocabulary';

/** Where a controller's utilisation comes from: its metrics, or the interval estimate of rules §9. */
export type CapacitySource = 'metrics' | 'estimate';

/**
 * Where one figure comes from: `measured` (read from the controller's metrics), `configured` (read from its
 * Deployment: `--concurrent`, limits) or `estimated` (rules §9: duration ÷ interval).
 */
export type FigureSource = 'measured' | 'configured' | 'estimated';

/** One figure with where it comes from. */
export interface CapacityFigure {
  value: number;
  source: FigureSource;
}

/** A capacity verdict, best first (rules §12). */
export const CAPACITY_VERDICTS = [
  'ok',
  'near-capacity',
  'over-capacity',
] as const;

/** Whether a controller, shard or instance has room left (rules §12). */
export type CapacityVerdict = (typeof CAPACITY_VERDICTS)[number];

/** What a reason does to the verdict: raises it to near- or over-capacity, or only explains (`ok`, `note`). */
export type ReasonEffect = CapacityVerdict | 'note';

/** The codes of the reasons a verdict rests on (rules §12). */
export type CapacityReasonCode =
  | 'utilisation-low'
  | 'utilisation-near'
  | 'utilisation-over'
  | 'queue-growing'
  | 'queue-wait-over-interval'
  | 'reconcile-time-over-interval'
  | 'cpu-near-limit'
  | 'memory-near-limit'
  | 'api-throttled'
  | 'no-workers'
  | 'no-objects';

/** One reason a verdict rests on, with the figure and the threshold it was compared with. */
export interface CapacityReason {
  code: CapacityReasonCode;
  effect: ReasonEffect;
  /** The reason as a sentence with its figures, e.g. "utilisation 96 % is at or above 95 %". */
  text: string;
  value?: number;
  threshold?: number;
  source: FigureSource;
}

/** The figures of one controller; each is absent when it could neither be measured nor estimated. */
export interface ControllerFigures {
  /** Reconciles running at once on average. */
  busyWorkers?: CapacityFigure;
  /** `--concurrent`. */
  concurrent: CapacityFigure;
  /** busy workers ÷ concurrent; 1 = 100 %. */
  utilisation?: CapacityFigure;
  reconcilesPerSecond?: CapacityFigure;
  reconcileErrorsPerSecond?: CapacityFigure;
  reconcileTimeMeanSeconds?: CapacityFigure;
  reconcileTimeP95Seconds?: CapacityFigure;
  queueDepth?: CapacityFigure;
  queueDepthTrendPerMinute?: CapacityFigure;
  queueWaitP95Seconds?: CapacityFigure;
  apiRequestsPerSecond?: CapacityFigure;
  apiThrottledPerSecond?: CapacityFigure;
  cpuCores?: CapacityFigure;
  cpuLimitCores?: CapacityFigure;
  /** CPU ÷ its limit; 1 = 100 %. */
  cpuOfLimit?: CapacityFigure;
  memoryBytes?: CapacityFigure;
  memoryLimitBytes?: CapacityFigure;
  /** Memory ÷ its limit; 1 = 100 %. */
  memoryOfLimit?: CapacityFigure;
  /** The shortest `spec.interval` among its objects, in seconds. */
  shortestIntervalSeconds?: CapacityFigure;
}

/** The capacity of one controller (rules §12). */
export interface ControllerCapacity {
  cluster: string;
  instance: string;
  shard: string;
  /** The controller Deployment's name. */
  controller: string;
  component: ControllerComponent;
  /** Where its utilisation comes from. */
  source: CapacitySource;
  /** When `source` is `estimate`: why the metrics could not be used. */
  estimateReason?: string;
  /** Objects it reconciles (suspended ones excluded). */
  objectCount: number;
  /** The same objects by kind. */
  countsByKind: Record<string, number>;
  figures: ControllerFigures;
  /** Busy workers by the interval estimate of rules §9, whatever the source (the sharding plan scales by it). */
  estimatedBusyWorkers: number;
  verdict: CapacityVerdict;
  /** Every reason the verdict rests on, the worst first. */
  reasons: CapacityReason[];
  /** More objects of the current mix that fit before utilisation reaches 70 %; absent without objects. */
  headroomObjects?: number;
  /** `headroomObjects` rounded down to a readable figure ("about 6,000"). */
  headroomText?: string;
  /** What was wrong with its measurement (missing series, odd values), each a sentence. */
  problems: string[];
  /** When metrics were read: the end of their window and its length in seconds. */
  measuredAt?: string;
  windowSeconds?: number;
}

/** What to do about an instance, cheapest first (rules §12). */
export type CapacityAdvice =
  | 'none'
  | 'raise-limits'
  | 'raise-concurrency'
  | 'check-api-throttling'
  | 'shard';

/** The capacity of one shard: that of its busiest controller (rules §12). */
export interface ShardCapacity {
  cluster: string;
  instance: string;
  shard: string;
  verdict: CapacityVerdict;
  /** The controller that decides: the worst verdict, then the highest utilisation. */
  busiestController?: string;
  utilisation?: CapacityFigure;
  controllers: string[];
}

/** The capacity of one instance and the one-sentence answer (rules §12). */
export interface InstanceCapacity {
  cluster: string;
  instance: string;
  operatorManaged: boolean;
  verdict: CapacityVerdict;
  /** The answer in one sentence with its figures, e.g. "No: kustomize-controller is 23 % busy …". */
  answer: string;
  advice: CapacityAdvice;
  /** The controller the answer is about. */
  controller?: string;
  /** For `raise-concurrency`: the `--concurrent` to set. */
  concurrencyTarget?: number;
  /** Where the figures the answer rests on come from. */
  source: CapacitySource;
  shards: ShardCapacity[];
  controllers: ControllerCapacity[];
}

/** The answer of `GET /capacity`. */
export interface CapacityReport {
  items: InstanceCapacity[];
  generatedAt: string;
}

/** One shard of a sharding plan with its predicted load (rules §13). */
export interface PlannedShard {
  /** `main` (the controllers without a shard key) or the shard key value. */
  name: string;
  /** Whether its controllers run already. */
  existing: boolean;
  groupCount: number;
  objectCount: number;
  /** Predicted utilisation of each sharded controller, in component order. */
  controllers: Array<{
    component: ControllerComponent;
    concurrent: number;
    utilisation: number;
  }>;
  /** Predicted utilisation of its busiest controller. */
  utilisation: number;
}

/** Objects that must share a shard (rules §13). */
export interface ShardGroup {
  /** Its name: the object most others reference (`GitRepository flux-system/apps`). */
  name: string;
  objects: FluxObjectRef[];
  /** Busy workers it adds per component (rules §12 units). */
  busyWorkers: Partial<Record<ControllerComponent, number>>;
  /** Where it is now (the shard most of its load is on), and where the plan puts it. */
  from: string;
  to: string;
  moved: boolean;
  /** Set when it alone would take a shard to 70 % or more: why, and the advice that fits. */
  oversize?: string;
}

/** One label an object gets (or loses: `to` is `main`) under the plan. */
export interface ShardLabelChange {
  object: FluxObjectRef;
  from: string;
  to: string;
}

/** The controllers to add for the plan's new shards (rules §13). */
export type ShardControllers =
  | {
      kind: 'flux-instance';
      /** A merge patch of the FluxInstance's `spec.sharding`, as YAML. */
      patch: string;
    }
  | {
      kind: 'bootstrap';
      /** Files to add to the bootstrap repository's `flux-system` directory, by path. */
      files: Array<{ path: string; content: string }>;
    };

/** The answer of `GET /capacity/plan` (rules §13). */
export interface ShardingPlan {
  cluster: string;
  instance: string;
  operatorManaged: boolean;
  /** The label key objects are sharded by: `sharding.fluxcd.io/key`. */
  shardKey: string;
  /** Where the loads come from. */
  source: CapacitySource;
  estimateReason?: string;
  /** The plan in one sentence with its figures. */
  summary: string;
  shards: PlannedShard[];
  groups: ShardGroup[];
  movedGroups: number;
  labelChanges: ShardLabelChange[];
  /** Shards to create; absent when every shard of the plan runs already. */
  controllers?: ShardControllers;
  /** The changes as kubectl commands to copy. */
  commands: string[];
  /** The label changes as a kustomize `patches:` file to download. */
  kustomizePatch: string;
  /** What the plan cannot do or what to watch for, each a sentence. */
  notes: string[];
}

/** One measured point of a controller's recent history (every figure measured; absent when not read). */
export interface CapacityHistoryPoint {
  /** End of the measurement's window, ISO 8601. */
  at: string;
  /** Busy workers ÷ concurrent at that round; 1 = 100 %. */
  utilisation?: number;
  /** p95 of the time an item waited for a worker, in seconds. */
  queueWaitP95Seconds?: number;
  queueDepth?: number;
}

/** The recent history of one controller, oldest point first. */
export interface ControllerCapacityHistory {
  controller: string;
  component: ControllerComponent;
  shard: string;
  points: CapacityHistoryPoint[];
}

/** The answer of `GET /capacity/history`: one instance's controllers over recent hours (one point per scrape). */
export interface CapacityHistory {
  cluster: string;
  instance: string;
  controllers: ControllerCapacityHistory[];
}
