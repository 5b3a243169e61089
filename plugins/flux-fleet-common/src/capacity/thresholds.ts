/**
 * The fixed thresholds of the capacity verdicts (rules §12). The simulator's ground truth uses the same numbers,
 * written independently from rules §12, so changing one here means changing rules §12 and the simulator.
 */

/** Utilisation at or above which a controller is over capacity: queue waits grow without bound near 1. */
export const UTILISATION_OVER_CAPACITY = 0.95;

/** Utilisation at or above which a controller is near capacity: below it queue waits stay small (M/M/c). */
export const UTILISATION_NEAR_CAPACITY = 0.7;

/** The share of a CPU or memory limit at or above which a controller is near capacity. */
export const RESOURCE_NEAR_LIMIT = 0.9;

/**
 * Requests per second answered 429 (API Priority and Fairness rejecting the controller) above which it is near
 * capacity: 0.1/s is six a minute, more than the odd rejected burst client-go retries unnoticed.
 */
export const API_THROTTLED_NEAR_PER_SECOND = 0.1;

/** Utilisation the headroom counts up to: the near-capacity threshold. */
export const HEADROOM_UTILISATION = UTILISATION_NEAR_CAPACITY;

/**
 * `--concurrent` steps the advice raises to: the Flux Operator's `cluster.size` profiles small, medium and large
 * (5, 10, 20); Flux's vertical scaling guide sets 10.
 */
export const CONCURRENCY_LADDER: readonly number[] = [5, 10, 20];
