/**
 * The reasons a controller's verdict rests on (rules §12), each with its figure, its threshold and the sentence
 * that says them. Only figures that were measured or estimated give a reason; a missing one gives none.
 */
import type {
  CapacityReason,
  ControllerFigures,
  FigureSource,
} from '../capacityApi';
import { formatCount, formatPercent, formatSeconds, trim } from './format';
import {
  API_THROTTLED_NEAR_PER_SECOND,
  RESOURCE_NEAR_LIMIT,
  UTILISATION_NEAR_CAPACITY,
  UTILISATION_OVER_CAPACITY,
} from './thresholds';

/** "(estimated; 9.2 of 4 workers busy)" or "(3.6 of 4 workers busy)". */
function label(source: FigureSource, of: string): string {
  return source === 'estimated' ? ` (estimated; ${of})` : ` (${of})`;
}

function utilisationReason(
  figures: ControllerFigures,
): CapacityReason | undefined {
  const u = figures.utilisation;
  if (!u) return undefined;
  const busy = figures.busyWorkers;
  const of = `${trim(busy?.value ?? 0)} of ${formatCount(
    figures.concurrent.value,
  )} workers busy`;
  const base = {
    value: u.value,
    source: u.source,
  };
  if (u.value >= UTILISATION_OVER_CAPACITY) {
    return {
      ...base,
      code: 'utilisation-over',
      effect: 'over-capacity',
      threshold: UTILISATION_OVER_CAPACITY,
      text: `utilisation ${formatPercent(u.value)}${label(
        u.source,
        of,
      )} is at or above ${formatPercent(UTILISATION_OVER_CAPACITY)}`,
    };
  }
  if (u.value >= UTILISATION_NEAR_CAPACITY) {
    return {
      ...base,
      code: 'utilisation-near',
      effect: 'near-capacity',
      threshold: UTILISATION_NEAR_CAPACITY,
      text: `utilisation ${formatPercent(u.value)}${label(
        u.source,
        of,
      )} is at or above ${formatPercent(UTILISATION_NEAR_CAPACITY)}`,
    };
  }
  return {
    ...base,
    code: 'utilisation-low',
    effect: 'ok',
    threshold: UTILISATION_NEAR_CAPACITY,
    text: `utilisation ${formatPercent(u.value)}${label(
      u.source,
      of,
    )} is below ${formatPercent(UTILISATION_NEAR_CAPACITY)}`,
  };
}

function resourceReason(
  kind: 'cpu' | 'memory',
  ofLimit: ControllerFigures['cpuOfLimit'],
): CapacityReason | undefined {
  if (!ofLimit || ofLimit.value < RESOURCE_NEAR_LIMIT) return undefined;
  return {
    code: kind === 'cpu' ? 'cpu-near-limit' : 'memory-near-limit',
    effect: 'near-capacity',
    value: ofLimit.value,
    threshold: RESOURCE_NEAR_LIMIT,
    source: ofLimit.source,
    text: `${kind === 'cpu' ? 'CPU' : 'memory'} is at ${formatPercent(
      ofLimit.value,
    )} of its limit (at or above ${formatPercent(RESOURCE_NEAR_LIMIT)})`,
  };
}

/** Every reason the figures give, in no particular order (the caller sorts them worst first). */
export function capacityReasons(
  figures: ControllerFigures,
  objectCount: number,
): CapacityReason[] {
  const reasons: CapacityReason[] = [];
  const concurrent = figures.concurrent;
  if (concurrent.value <= 0) {
    reasons.push({
      code: 'no-workers',
      effect: objectCount > 0 ? 'over-capacity' : 'ok',
      value: concurrent.value,
      threshold: 1,
      source: concurrent.source,
      text: `it runs no workers (--concurrent ${
        concurrent.value
      }), so it reconciles none of its ${formatCount(objectCount)} objects`,
    });
  }
  const busyMeasured = figures.busyWorkers?.source === 'measured';
  if (objectCount === 0 && !busyMeasured) {
    reasons.push({
      code: 'no-objects',
      effect: 'ok',
      value: 0,
      source: 'configured',
      text: 'it reconciles no objects',
    });
  } else {
    const u = utilisationReason(figures);
    if (u) reasons.push(u);
  }

  const depth = figures.queueDepth;
  const trend = figures.queueDepthTrendPerMinute;
  if (
    depth &&
    trend &&
    trend.value > 0 &&
    concurrent.value > 0 &&
    depth.value >= concurrent.value
  ) {
    reasons.push({
      code: 'queue-growing',
      effect: 'over-capacity',
      value: trend.value,
      threshold: 0,
      source: 'measured',
      text: `its queue grows by ${trim(
        trend.value,
      )} a minute with ${formatCount(
        depth.value,
      )} waiting, at least one per worker (${formatCount(concurrent.value)})`,
    });
  }

  const interval = figures.shortestIntervalSeconds;
  const wait = figures.queueWaitP95Seconds;
  if (interval && wait && wait.value > interval.value) {
    reasons.push({
      code: 'queue-wait-over-interval',
      effect: 'near-capacity',
      value: wait.value,
      threshold: interval.value,
      source: 'measured',
      text: `queue wait p95 ${formatSeconds(
        wait.value,
      )} is longer than its shortest interval ${formatSeconds(
        interval.value,
      )}, so objects are reconciled later than their interval`,
    });
  }
  const time = figures.reconcileTimeP95Seconds;
  if (interval && time && time.value > interval.value) {
    reasons.push({
      code: 'reconcile-time-over-interval',
      effect: 'note',
      value: time.value,
      threshold: interval.value,
      source: 'measured',
      text: `reconcile time p95 ${formatSeconds(
        time.value,
      )} is longer than its shortest interval ${formatSeconds(interval.value)}`,
    });
  }

  const cpu = resourceReason('cpu', figures.cpuOfLimit);
  if (cpu) reasons.push(cpu);
  const memory = resourceReason('memory', figures.memoryOfLimit);
  if (memory) reasons.push(memory);

  const throttled = figures.apiThrottledPerSecond;
  if (throttled && throttled.value > API_THROTTLED_NEAR_PER_SECOND) {
    reasons.push({
      code: 'api-throttled',
      effect: 'near-capacity',
      value: throttled.value,
      threshold: API_THROTTLED_NEAR_PER_SECOND,
      source: 'measured',
      text: `the Kubernetes API throttles it: ${trim(
        throttled.value,
      )} requests a second answered 429 (above ${API_THROTTLED_NEAR_PER_SECOND})`,
    });
  }
  return reasons;
}
