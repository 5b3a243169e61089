import type { FluxObjectRecord } from '@flux-fleet/plugin-flux-fleet-common';

/** How a new record of an object differs from the one the index holds. */
export type RecordChange = 'none' | 'status' | 'structural';

/**
 * Record fields that only move an object's reconcile state (rules §2), which depends on the record alone. A
 * change confined to these re-derives that one object; any other change (labels, annotations, spec, inventory,
 * and any field added to the record later) is structural and re-analyses its cluster.
 */
const STATUS_FIELDS: ReadonlySet<string> = new Set([
  'generation',
  'observedGeneration',
  'ready',
  'stalled',
  'reconciling',
  'conditionsError',
  'lastHandledReconcileAt',
  'revision',
  'attemptedRevision',
  'lastReconcileDurationMs',
  'deletionTimestamp',
  'problems',
]);

/** Classifies the change from `before` to `after` (same object). */
export function classifyRecordChange(
  before: FluxObjectRecord,
  after: FluxObjectRecord,
): RecordChange {
  let change: RecordChange = 'none';
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const field of fields) {
    const a = (before as unknown as Record<string, unknown>)[field];
    const b = (after as unknown as Record<string, unknown>)[field];
    if (sameValue(a, b)) continue;
    if (!STATUS_FIELDS.has(field)) return 'structural';
    change = 'status';
  }
  return change;
}

/** Deep equality of JSON-like values (records share pooled objects, so identity usually answers first). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null
  ) {
    return false;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => sameValue(v, other[i]));
  }
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  for (const k of ak) {
    if (
      !sameValue(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
      )
    ) {
      return false;
    }
  }
  return true;
}
