/**
 * What a controller's objects ask of it by the interval estimate of rules §9: how many, of which kinds, the busy
 * workers Σ(duration ÷ interval) and the shortest interval.
 */
import { intervalMsOf, reconcileShareOf } from '../load';
import type { FluxObjectRecord } from '../record';

/** The fields of an object the capacity derivations read. */
export type CapacityObject = Pick<
  FluxObjectRecord,
  'kind' | 'interval' | 'lastReconcileDurationMs'
>;

/** The estimated workload of a controller's objects. */
export interface ControllerWorkload {
  objectCount: number;
  countsByKind: Record<string, number>;
  /** Σ (last reconcile duration ÷ interval): reconciles running at once on average. */
  estimatedBusyWorkers: number;
  /** The shortest interval among the objects, in ms; absent without objects. */
  shortestIntervalMs?: number;
}

/** The workload of a list of objects (suspended ones should be left out by the caller, rules §9). */
export function workloadOf(
  objects: Iterable<CapacityObject>,
): ControllerWorkload {
  const countsByKind: Record<string, number> = {};
  let objectCount = 0;
  let estimatedBusyWorkers = 0;
  let shortestIntervalMs: number | undefined;
  for (const o of objects) {
    objectCount++;
    countsByKind[o.kind] = (countsByKind[o.kind] ?? 0) + 1;
    estimatedBusyWorkers += reconcileShareOf(o);
    const interval = intervalMsOf(o);
    if (shortestIntervalMs === undefined || interval < shortestIntervalMs) {
      shortestIntervalMs = interval;
    }
  }
  return {
    objectCount,
    countsByKind,
    estimatedBusyWorkers,
    ...(shortestIntervalMs !== undefined ? { shortestIntervalMs } : {}),
  };
}
