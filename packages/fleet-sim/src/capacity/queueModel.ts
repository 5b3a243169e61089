/**
 * The queueing model of one controller work queue (capacity.md): `c = --concurrent` workers, arrivals at
 * λ = Σ 1/interval of the objects it owns, service time S = each object's reconcile duration. Utilisation
 * ρ = λ·E[S]/c. Below 1 the queue is an M/M/c queue (Erlang C gives the chance of waiting and the mean wait);
 * at 1 or above it grows without bound at λ − c/E[S] items a second. Pure functions, no I/O.
 */

/** The steady state of a queue that keeps up (ρ < 1), or the figures of one that does not. */
export interface QueueFigures {
  /** ρ = λ·E[S]/c. */
  utilisation: number;
  /** Mean busy workers: min(c, λ·E[S]). */
  busyWorkers: number;
  /** Reconciles finished per second: min(λ, c/E[S]). */
  throughput: number;
  /** Whether the queue grows without bound (ρ ≥ 1). */
  unbounded: boolean;
  /** Erlang C: the chance an arrival waits (1 when unbounded). */
  waitProbability: number;
  /** Mean queue wait in seconds at steady state (ρ < 1); Infinity when unbounded. */
  meanWaitSeconds: number;
  /** Mean items waiting at steady state (Little: λ·W); Infinity when unbounded. */
  meanDepth: number;
  /** How fast the queue grows when unbounded (items a second), 0 otherwise. */
  growthPerSecond: number;
}

/** Erlang C: the chance that an arrival waits, for `c` servers and offered load `a = λ·E[S]` (< c). */
export function erlangC(c: number, a: number): number {
  if (a <= 0) return 0;
  if (a >= c) return 1;
  // Erlang B by its stable recursion, then C from B.
  let b = 1;
  for (let k = 1; k <= c; k++) b = (a * b) / (k + a * b);
  const rho = a / c;
  return b / (1 - rho * (1 - b));
}

/** The figures of a queue with arrival rate λ (per second), mean service time and c workers. */
export function queueFigures(
  arrivalsPerSecond: number,
  meanServiceSeconds: number,
  concurrent: number,
): QueueFigures {
  const c = Math.max(1, concurrent);
  const a = arrivalsPerSecond * meanServiceSeconds;
  const utilisation = a / c;
  if (a <= 0) {
    return {
      utilisation: 0,
      busyWorkers: 0,
      throughput: 0,
      unbounded: false,
      waitProbability: 0,
      meanWaitSeconds: 0,
      meanDepth: 0,
      growthPerSecond: 0,
    };
  }
  const capacity = c / meanServiceSeconds;
  if (utilisation >= 1) {
    return {
      utilisation,
      busyWorkers: c,
      throughput: capacity,
      unbounded: true,
      waitProbability: 1,
      meanWaitSeconds: Infinity,
      meanDepth: Infinity,
      growthPerSecond: arrivalsPerSecond - capacity,
    };
  }
  const waitProbability = erlangC(c, a);
  const meanWaitSeconds = waitProbability / (capacity - arrivalsPerSecond);
  return {
    utilisation,
    busyWorkers: a,
    throughput: arrivalsPerSecond,
    unbounded: false,
    waitProbability,
    meanWaitSeconds,
    meanDepth: arrivalsPerSecond * meanWaitSeconds,
    growthPerSecond: 0,
  };
}

/**
 * The share of queue waits at or below `seconds` at steady state: M/M/c waits are 0 with chance 1 − C and
 * exponential with rate cμ − λ otherwise.
 */
export function waitShareAtOrBelow(
  figures: QueueFigures,
  arrivalsPerSecond: number,
  meanServiceSeconds: number,
  concurrent: number,
  seconds: number,
): number {
  if (figures.unbounded) return 0;
  const rate = concurrent / meanServiceSeconds - arrivalsPerSecond;
  return 1 - figures.waitProbability * Math.exp(-rate * seconds);
}

/** Capacity verdicts (the same thresholds as the plugin's, written here independently). */
export type CapacityVerdict = 'ok' | 'near-capacity' | 'over-capacity';

/** Utilisation at or above which a controller is over capacity. */
export const OVER_CAPACITY_UTILISATION = 0.95;
/** Utilisation at or above which a controller is near capacity. */
export const NEAR_CAPACITY_UTILISATION = 0.7;
/** Share of a CPU or memory limit at or above which a controller is near capacity. */
export const NEAR_LIMIT_SHARE = 0.9;

/**
 * The verdict of a controller: over capacity when ρ ≥ 0.95 or its queue grows without bound; near capacity when
 * 0.7 ≤ ρ < 0.95 or its CPU or memory use is at 90 % of its limit or more; ok otherwise.
 */
export function capacityVerdict(facts: {
  utilisation: number;
  unbounded: boolean;
  cpuShareOfLimit?: number;
  memoryShareOfLimit?: number;
}): CapacityVerdict {
  if (facts.unbounded || facts.utilisation >= OVER_CAPACITY_UTILISATION)
    return 'over-capacity';
  if (
    facts.utilisation >= NEAR_CAPACITY_UTILISATION ||
    (facts.cpuShareOfLimit ?? 0) >= NEAR_LIMIT_SHARE ||
    (facts.memoryShareOfLimit ?? 0) >= NEAR_LIMIT_SHARE
  )
    return 'near-capacity';
  return 'ok';
}
