/**
 * What to do about a controller that is near or over capacity, cheapest first (rules §12): more workers when a
 * step of the Flux Operator's size ladder brings utilisation under 70 % and CPU and memory allow it; higher limits
 * when only CPU or memory is short; a look at API throttling when that is all; else shard.
 */
import type {
  CapacityAdvice,
  CapacityReasonCode,
  ControllerCapacity,
} from '../capacityApi';
import type { ControllerComponent } from '../vocabulary';
import {
  CONCURRENCY_LADDER,
  RESOURCE_NEAR_LIMIT,
  UTILISATION_NEAR_CAPACITY,
} from './thresholds';

/** The controllers Flux's sharding covers (notification-controller is never sharded; image controllers are not). */
export const SHARDED_COMPONENTS: readonly ControllerComponent[] = [
  'source-controller',
  'kustomize-controller',
  'helm-controller',
];

/** Reasons that say the workers are too few (utilisation, queue), as opposed to limits or throttling. */
const WORKER_REASONS: ReadonlySet<CapacityReasonCode> = new Set([
  'utilisation-near',
  'utilisation-over',
  'queue-growing',
  'queue-wait-over-interval',
  'no-workers',
]);

/** The advice for one controller, with what it rests on. */
export interface ControllerAdvice {
  advice: CapacityAdvice;
  /** Busy workers its objects ask for: the busy workers plus what the growing queue adds. */
  demandWorkers: number;
  /** For `raise-concurrency`: the `--concurrent` to set. */
  concurrencyTarget?: number;
  /** CPU cores the target would need at the measured CPU per busy worker, when measured. */
  cpuAtTargetCores?: number;
  /** Why more workers will not do, when the advice is `shard` for want of CPU or memory. */
  blockedBy?: 'cpu' | 'memory';
}

/**
 * Busy workers the objects ask for: the busy workers, plus (when the queue grows) the items a minute it gains
 * times the mean reconcile time, since a saturated controller's busy workers only show what it manages to do.
 */
export function demandWorkers(c: ControllerCapacity): number {
  const f = c.figures;
  if (f.concurrent.value <= 0) return c.estimatedBusyWorkers;
  const busy = f.busyWorkers?.value ?? 0;
  const trend = f.queueDepthTrendPerMinute?.value ?? 0;
  const mean = f.reconcileTimeMeanSeconds?.value ?? 0;
  return busy + (trend > 0 ? (trend / 60) * mean : 0);
}

/** The smallest step of the ladder above `current` that keeps `demand` under 70 %, if any. */
export function concurrencyStepFor(
  current: number,
  demand: number,
): number | undefined {
  return CONCURRENCY_LADDER.find(
    step => step > current && demand / step < UTILISATION_NEAR_CAPACITY,
  );
}

/** The advice for one controller (rules §12). */
export function adviseController(c: ControllerCapacity): ControllerAdvice {
  const demand = demandWorkers(c);
  const codes = new Set(
    c.reasons
      .filter(r => r.effect === 'near-capacity' || r.effect === 'over-capacity')
      .map(r => r.code),
  );
  if (codes.size === 0) return { advice: 'none', demandWorkers: demand };
  const workersShort = [...codes].some(code => WORKER_REASONS.has(code));
  if (!workersShort) {
    if (codes.has('cpu-near-limit') || codes.has('memory-near-limit')) {
      return { advice: 'raise-limits', demandWorkers: demand };
    }
    return { advice: 'check-api-throttling', demandWorkers: demand };
  }
  const f = c.figures;
  const shardable = SHARDED_COMPONENTS.includes(c.component);
  const target = concurrencyStepFor(f.concurrent.value, demand);
  if (target === undefined) {
    if (shardable) return { advice: 'shard', demandWorkers: demand };
    // A controller Flux cannot shard can only take more workers: the top of the ladder, if it is not there yet.
    const top = CONCURRENCY_LADDER[CONCURRENCY_LADDER.length - 1];
    return top > f.concurrent.value
      ? {
          advice: 'raise-concurrency',
          demandWorkers: demand,
          concurrencyTarget: top,
        }
      : { advice: 'raise-limits', demandWorkers: demand };
  }
  const result: ControllerAdvice = {
    advice: 'raise-concurrency',
    demandWorkers: demand,
    concurrencyTarget: target,
  };
  const cpu = f.cpuCores?.value;
  const busy = f.busyWorkers?.source === 'measured' ? f.busyWorkers.value : 0;
  if (cpu !== undefined && busy > 0) {
    result.cpuAtTargetCores = (cpu / busy) * target;
  }
  const cpuLimit = f.cpuLimitCores?.value;
  const cpuShort =
    result.cpuAtTargetCores !== undefined &&
    cpuLimit !== undefined &&
    result.cpuAtTargetCores > RESOURCE_NEAR_LIMIT * cpuLimit;
  const memoryShort = codes.has('memory-near-limit');
  if (shardable && (cpuShort || memoryShort)) {
    return {
      advice: 'shard',
      demandWorkers: demand,
      concurrencyTarget: target,
      ...(result.cpuAtTargetCores !== undefined
        ? { cpuAtTargetCores: result.cpuAtTargetCores }
        : {}),
      blockedBy: cpuShort ? 'cpu' : 'memory',
    };
  }
  return result;
}
