/**
 * What each action writes, as the Flux CLI writes it (flux-domain.md §2): pure functions from an action and a Flux
 * object to a JSON merge patch, and the checks that refuse an action a kind does not support.
 */
import {
  ANNOTATIONS,
  FLUX_GROUPS,
  FluxKind,
} from '@flux-fleet/plugin-flux-fleet-common';

/** An action on a Flux object, as the API names it. */
export type FluxAction = 'reconcile' | 'suspend' | 'resume';

/** A JSON merge patch (RFC 7386): `null` removes a field. */
export type MergePatch = Record<string, unknown>;

const OPERATOR_KINDS: ReadonlySet<FluxKind> = new Set(FLUX_GROUPS['fluxcd.controlplane.io']);

/**
 * Why a kind cannot take an action, in words a person reads in the UI; undefined when it can. Follows what the
 * Flux CLI offers per kind: ExternalArtifact is written by its producer (nothing reconciles or suspends it),
 * Alerts and Providers have no reconciler since `notification.toolkit.fluxcd.io/v1beta3` (they can be
 * suspended), and ArtifactGenerator has no `spec.suspend`.
 */
export function unsupportedReason(kind: FluxKind, action: FluxAction): string | undefined {
  if (kind === 'ExternalArtifact') {
    return 'Flux does not reconcile an ExternalArtifact: its producer writes it';
  }
  if (action === 'reconcile' && (kind === 'Alert' || kind === 'Provider')) {
    return `Flux has nothing to reconcile for a ${kind}: since notification.toolkit.fluxcd.io/v1beta3 it has no status and is read as it is written`;
  }
  if (action !== 'reconcile' && kind === 'ArtifactGenerator') {
    return 'an ArtifactGenerator has no spec.suspend to suspend or resume it with';
  }
  return undefined;
}

/** Whether a live object (as the cluster serves it) is suspended (rules §2, rule 2). */
export function isSuspended(kind: FluxKind, object: unknown): boolean {
  const o = object as {
    spec?: { suspend?: unknown };
    metadata?: { annotations?: Record<string, unknown> };
  } | null;
  if (OPERATOR_KINDS.has(kind)) {
    return o?.metadata?.annotations?.[ANNOTATIONS.operatorReconcile] === 'disabled';
  }
  return o?.spec?.suspend === true;
}

/**
 * The merge patch of an action. Reconcile writes `reconcile.fluxcd.io/requestedAt` (and, for a forced
 * HelmRelease, `reconcile.fluxcd.io/forceAt` with the same token); suspend and resume write `spec.suspend`, or for
 * the Flux Operator's kinds the annotation `fluxcd.controlplane.io/reconcile: disabled` (removed on resume).
 */
export function actionPatch(
  kind: FluxKind,
  action: FluxAction,
  options: { token?: string; force?: boolean } = {},
): MergePatch {
  if (action === 'reconcile') {
    if (!options.token) throw new Error('a reconcile patch needs its requestedAt token');
    return {
      metadata: {
        annotations: {
          [ANNOTATIONS.reconcileRequestedAt]: options.token,
          ...(options.force && { [ANNOTATIONS.reconcileForceAt]: options.token }),
        },
      },
    };
  }
  const suspend = action === 'suspend';
  if (OPERATOR_KINDS.has(kind)) {
    return {
      metadata: { annotations: { [ANNOTATIONS.operatorReconcile]: suspend ? 'disabled' : null } },
    };
  }
  return { spec: { suspend } };
}

/**
 * A reconcile token as the Flux CLI writes one: the time now in RFC 3339 with nanoseconds, trailing zeros of the
 * fraction dropped (Go's `time.RFC3339Nano`). The clock gives milliseconds; the high-resolution timer adds the
 * rest, so two requests within one millisecond still get different tokens.
 */
export function reconcileToken(now: Date = new Date(), subMillis = Number(process.hrtime.bigint() % 1_000_000n)): string {
  const iso = now.toISOString(); // 2026-07-14T10:20:00.123Z
  const fraction = `${iso.slice(20, 23)}${String(subMillis).padStart(6, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
}
