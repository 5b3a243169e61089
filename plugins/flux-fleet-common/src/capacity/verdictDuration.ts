/**
 * How long a controller has been near or over capacity, from the measured history the backend keeps (one point
 * per scrape round, `GET /capacity/history`), so that the answer can say "for 40 minutes" only when the figures
 * show it (rules §12). Pure.
 */
import type { CapacityHistoryPoint } from '../capacityApi';
import {
  UTILISATION_NEAR_CAPACITY,
  UTILISATION_OVER_CAPACITY,
} from './thresholds';

/** How long a verdict has held by the history. */
export interface HeldVerdict {
  /** From the first point of the trailing run at or above the verdict's threshold to the latest point. */
  seconds: number;
  /** The run reaches back to the oldest point kept: it may have begun earlier ("at least"). */
  sinceOldestPoint: boolean;
}

/**
 * How long the utilisation has been at or above the threshold of `verdict` (0.95 over, 0.7 near), counted back
 * from the latest measured point; points without a utilisation (a scrape that failed) neither end nor extend the
 * run. Undefined when the latest measured point is under the threshold (the verdict rests on another reason),
 * when fewer than two points are in the run, or when a point's time cannot be read.
 */
export function heldVerdict(
  points: readonly CapacityHistoryPoint[],
  verdict: 'near-capacity' | 'over-capacity',
): HeldVerdict | undefined {
  const threshold =
    verdict === 'over-capacity'
      ? UTILISATION_OVER_CAPACITY
      : UTILISATION_NEAR_CAPACITY;
  const measured = points.filter(
    p => p.utilisation !== undefined && Number.isFinite(p.utilisation),
  );
  let first = measured.length;
  while (first > 0 && measured[first - 1].utilisation! >= threshold) first--;
  const run = measured.slice(first);
  if (run.length < 2) return undefined;
  const start = Date.parse(run[0].at);
  const end = Date.parse(run[run.length - 1].at);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) {
    return undefined;
  }
  return { seconds: (end - start) / 1000, sinceOldestPoint: first === 0 };
}

/** A held time as the answer says it: "for 40 minutes", "for at least 2 hours"; undefined under a minute. */
export function formatHeldFor(
  held: HeldVerdict | undefined,
): string | undefined {
  if (!held || held.seconds < 60) return undefined;
  const minutes = Math.floor(held.seconds / 60);
  let text: string;
  if (minutes < 90) text = minutes === 1 ? '1 minute' : `${minutes} minutes`;
  else {
    const hours = Math.floor((held.seconds / 3600) * 2) / 2;
    text = hours === 1 ? '1 hour' : `${hours} hours`;
  }
  return held.sinceOldestPoint ? `for at least ${text}` : `for ${text}`;
}
