/**
 * The reconcile state of a Flux object (rules §2): a word a person understands (`ready`, `failed`, `blocked`…)
 * with its reason, message, revision and times. Depends on the object's own record only, so the index can
 * re-derive it from a status change alone.
 */
import { isSuspended } from './record';
import type { FluxObjectRecord, RecordCondition } from './record';
import type { ObjectReference, ReconcileState } from './types';
import { ANNOTATIONS, RECONCILE_NOT_HANDLED_AFTER_MS } from './vocabulary';

/** Reasons Flux Fleet gives when no condition of the object gives one. */
export const DERIVED_REASONS = {
  terminating: 'Terminating',
  suspended: 'Suspended',
  neverReconciled: 'NeverReconciled',
  static: 'Static',
  generationNotObserved: 'GenerationNotObserved',
  malformedStatus: 'MalformedStatus',
} as const;

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch of an RFC 3339 time (any number of fraction digits); undefined otherwise. */
export function parseRfc3339(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = RFC3339.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return undefined;
  let ms = Date.UTC(
    Number(y),
    month - 1,
    day,
    Number(h),
    Number(mi),
    Number(s),
    fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0,
  );
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    ms -=
      sign *
      (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) *
      60_000;
  }
  return ms;
}

function toMillis(now: Date | number): number {
  return typeof now === 'number' ? now : now.getTime();
}

/**
 * The dependency a `DependencyNotReady` message names, as kustomize- and helm-controller word it
 * (`dependency 'flux-system/platform-crds' is not ready`, `unable to get 'flux-system/crds' dependency: …`).
 * A name without namespace is in the object's own namespace; the kind is the object's own (dependsOn never
 * crosses kinds).
 */
export function blockedByFromMessage(
  message: string | undefined,
  record: Pick<FluxObjectRecord, 'kind' | 'namespace'>,
): ObjectReference | undefined {
  if (!message) return undefined;
  const match =
    /dependency '([^'\s]+)'/.exec(message) ??
    /'([^'\s]+)' dependency/.exec(message);
  if (!match) return undefined;
  const target = match[1];
  const slash = target.indexOf('/');
  const namespace = slash > 0 ? target.slice(0, slash) : record.namespace;
  const name = slash >= 0 ? target.slice(slash + 1) : target;
  if (!name) return undefined;
  return { kind: record.kind, namespace, name };
}

/**
 * Reconcile requested, not handled (rules §2): `reconcile.fluxcd.io/requestedAt` is present, differs from
 * `status.lastHandledReconcileAt`, the object is not suspended, and the request is older than 5 minutes (a value
 * that is not an RFC 3339 time counts as old).
 */
export function isReconcileNotHandled(
  record: FluxObjectRecord,
  now: Date | number,
): boolean {
  const requestedAt = record.annotations[ANNOTATIONS.reconcileRequestedAt];
  if (requestedAt === undefined) return false;
  if (requestedAt === record.lastHandledReconcileAt) return false;
  if (isSuspended(record)) return false;
  const at = parseRfc3339(requestedAt);
  return (
    at === undefined || toMillis(now) - at > RECONCILE_NOT_HANDLED_AFTER_MS
  );
}

/**
 * When a pending reconcile request becomes "not handled" (rules §2): the first millisecond more than 5 minutes
 * after its `requestedAt`. Undefined without a pending request (none, handled, suspended) or when the request
 * counts as old at once (not an RFC 3339 time): nothing about the object then changes by time alone. An index
 * re-analyses a cluster at this time rather than on a fixed cadence (rules §2a).
 */
export function reconcileNotHandledFrom(record: FluxObjectRecord): number | undefined {
  const requestedAt = record.annotations[ANNOTATIONS.reconcileRequestedAt];
  if (requestedAt === undefined) return undefined;
  if (requestedAt === record.lastHandledReconcileAt) return undefined;
  if (isSuspended(record)) return undefined;
  const at = parseRfc3339(requestedAt);
  // the first millisecond at which isReconcileNotHandled holds (it asks for more than 5 minutes)
  return at === undefined ? undefined : at + RECONCILE_NOT_HANDLED_AFTER_MS + 1;
}

/**
 * Kinds `flux get` always shows Ready because no controller keeps a status on them: Alert and Provider
 * (notification.toolkit.fluxcd.io/v1beta3 dropped their status) and HelmRepository of type oci (an `oci://` URL).
 */
function isStatic(record: FluxObjectRecord): boolean {
  return (
    record.kind === 'Alert' ||
    record.kind === 'Provider' ||
    (record.kind === 'HelmRepository' &&
      record.url?.startsWith('oci://') === true)
  );
}

/**
 * A state with the fields most states have, in one literal: V8 keeps them inside the object, where fields added
 * one by one would spill into a separate store (a third more memory for each of the index's objects).
 */
function stateOf(
  state: ReconcileState['state'],
  reason: string | undefined,
  message: string | undefined,
  since: string | undefined,
): ReconcileState {
  return {
    state,
    reason,
    message,
    since,
    revision: undefined,
    lastHandledReconcileAt: undefined,
  };
}

function fromCondition(
  state: ReconcileState['state'],
  condition: RecordCondition,
): ReconcileState {
  return stateOf(
    state,
    condition.reason,
    condition.message,
    condition.lastTransitionTime,
  );
}

/** The state proper (rules §2, first match wins), without revisions and reconcile request. */
function baseState(record: FluxObjectRecord): ReconcileState {
  const { ready, stalled, reconciling, generation, observedGeneration } =
    record;

  if (record.deletionTimestamp !== undefined) {
    return stateOf(
      'terminating',
      DERIVED_REASONS.terminating,
      `deletion requested at ${record.deletionTimestamp}; waiting for its finalizers`,
      record.deletionTimestamp,
    );
  }
  if (isSuspended(record)) {
    const how = record.suspend
      ? 'spec.suspend is true'
      : `${ANNOTATIONS.operatorReconcile} is disabled`;
    return stateOf(
      'suspended',
      DERIVED_REASONS.suspended,
      ready?.lastTransitionTime
        ? `reconciliation is suspended (${how}); its status is as of ${ready.lastTransitionTime}`
        : `reconciliation is suspended (${how})`,
      ready?.lastTransitionTime,
    );
  }
  if (record.conditionsError !== undefined) {
    return stateOf(
      'unknown',
      DERIVED_REASONS.malformedStatus,
      record.conditionsError,
      undefined,
    );
  }
  if (!ready && observedGeneration === undefined) {
    if (isStatic(record)) {
      return stateOf(
        'ready',
        DERIVED_REASONS.static,
        `a ${record.kind} has no status of its own; Flux reads it when it is used, so it is always ready`,
        undefined,
      );
    }
    return stateOf(
      'never-reconciled',
      DERIVED_REASONS.neverReconciled,
      'no controller has reported a status for it yet',
      undefined,
    );
  }
  if (stalled?.status === 'True') {
    return fromCondition('stalled', stalled);
  }
  if (ready?.status === 'False') {
    if (ready.reason === 'DependencyNotReady') {
      const result = fromCondition('blocked', ready);
      const blockedBy = blockedByFromMessage(ready.message, record);
      if (blockedBy) result.blockedBy = blockedBy;
      return result;
    }
    return fromCondition('failed', ready);
  }
  const behind =
    observedGeneration !== undefined &&
    generation !== undefined &&
    observedGeneration < generation;
  if (
    behind ||
    ready?.status === 'Unknown' ||
    (!ready && observedGeneration !== undefined)
  ) {
    if (ready?.status === 'Unknown') return fromCondition('progressing', ready);
    if (reconciling?.status === 'True')
      return fromCondition('progressing', reconciling);
    return stateOf(
      'progressing',
      DERIVED_REASONS.generationNotObserved,
      behind
        ? `generation ${generation} is not reconciled yet (last reconciled: ${observedGeneration})`
        : 'reconciliation started; no Ready condition yet',
      ready?.lastTransitionTime,
    );
  }
  if (ready?.status === 'True') {
    return fromCondition('ready', ready);
  }
  return stateOf(
    'unknown',
    DERIVED_REASONS.malformedStatus,
    `its Ready condition has status '${ready?.status}', which is not True, False or Unknown`,
    ready?.lastTransitionTime,
  );
}

/**
 * The reconcile state of an object at time `now` (rules §2), with its revision, the revision last attempted
 * when it differs, and whether a reconcile request has gone unhandled.
 */
export function deriveReconcileState(
  record: FluxObjectRecord,
  now: Date | number,
): ReconcileState {
  const result = baseState(record);
  result.revision = record.revision;
  result.lastHandledReconcileAt = record.lastHandledReconcileAt;
  if (
    record.attemptedRevision !== undefined &&
    record.attemptedRevision !== record.revision
  ) {
    result.attemptedRevision = record.attemptedRevision;
  }
  const requestedAt = record.annotations[ANNOTATIONS.reconcileRequestedAt];
  if (requestedAt !== undefined) {
    result.reconcileRequestedAt = requestedAt;
    result.reconcileNotHandled = isReconcileNotHandled(record, now);
  }
  return result;
}
