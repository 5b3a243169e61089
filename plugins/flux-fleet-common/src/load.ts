/**
 * Estimated load of controllers and shards (rules §9): each object costs its controller the share of time it
 * spends reconciling (last reconcile duration ÷ interval); a controller's utilisation is the sum of its objects'
 * shares divided by the reconciles it runs at once (`--concurrent`). 1 means 100 %.
 */
import { parseGoDuration } from './duration';
import type { FluxObjectRecord } from './record';
import {
  DEFAULT_INTERVAL_MS,
  estimatedReconcileDurationMs,
} from './vocabulary';

const intervals = new Map<string, number>();

/**
 * The interval of an object in ms: `spec.interval`, or 10 minutes when it has none or it is not a positive
 * duration. Intervals are few distinct texts, so each is parsed once.
 */
export function intervalMsOf(
  record: Pick<FluxObjectRecord, 'interval'>,
): number {
  const text = record.interval;
  if (text === undefined) return DEFAULT_INTERVAL_MS;
  let ms = intervals.get(text);
  if (ms === undefined) {
    const parsed = parseGoDuration(text);
    ms = parsed !== undefined && parsed > 0 ? parsed : DEFAULT_INTERVAL_MS;
    if (intervals.size > 10_000) intervals.clear();
    intervals.set(text, ms);
  }
  return ms;
}

/**
 * How long a reconcile of the object takes, in ms: the last one it reports (Kustomization
 * `status.history[0].lastReconciledDuration`), else the estimate for its kind (sources 2 s, Kustomization 10 s,
 * HelmRelease 20 s, others 1 s).
 */
export function reconcileDurationMsOf(
  record: Pick<FluxObjectRecord, 'kind' | 'lastReconcileDurationMs'>,
): number {
  return (
    record.lastReconcileDurationMs ?? estimatedReconcileDurationMs(record.kind)
  );
}

/** The share of one reconcile slot an object keeps busy: duration ÷ interval. */
export function reconcileShareOf(
  record: Pick<
    FluxObjectRecord,
    'kind' | 'interval' | 'lastReconcileDurationMs'
  >,
): number {
  return reconcileDurationMsOf(record) / intervalMsOf(record);
}

/** Utilisation of a controller from the sum of its objects' shares and its `--concurrent`. */
export function utilisationOf(shareSum: number, concurrent: number): number {
  return shareSum / Math.max(1, concurrent);
}
