import {
  alert,
  blockedKustomization,
  failingKustomization,
  fluxInstance,
  gitRepository,
  newKustomization,
  ociHelmRepository,
  provider,
  readyHelmRelease,
  readyKustomization,
  stalledKustomization,
  v1beta2ImagePolicy,
  v2beta1HelmRelease,
} from './fixtures/fluxObjects';
import { normalizeFluxObject } from './normalize';
import type { FluxObjectRecord } from './record';
import {
  blockedByFromMessage,
  deriveReconcileState,
  isReconcileNotHandled,
  reconcileNotHandledFrom,
  parseRfc3339,
} from './state';

const NOW = Date.parse('2026-07-14T10:00:00Z');

function recordOf(raw: unknown): FluxObjectRecord {
  const result = normalizeFluxObject('prod-eu', raw);
  if (!result.record) throw new Error(result.error);
  return result.record;
}

/** A fixture changed by `edit` (which may mutate its copy). */
function edited<T>(make: () => T, edit: (raw: any) => void): T {
  const raw = make();
  edit(raw);
  return raw;
}

describe('deriveReconcileState', () => {
  it.each<[string, unknown, Record<string, unknown>]>([
    [
      '1. deletionTimestamp set: terminating, even when suspended and failing',
      edited(failingKustomization, k => {
        k.metadata.deletionTimestamp = '2026-07-14T09:59:00Z';
        k.spec.suspend = true;
      }),
      {
        state: 'terminating',
        reason: 'Terminating',
        message:
          'deletion requested at 2026-07-14T09:59:00Z; waiting for its finalizers',
        since: '2026-07-14T09:59:00Z',
      },
    ],
    [
      '2. spec.suspend: suspended, with the age of the status it keeps',
      edited(failingKustomization, k => {
        k.spec.suspend = true;
      }),
      {
        state: 'suspended',
        reason: 'Suspended',
        message:
          'reconciliation is suspended (spec.suspend is true); its status is as of 2026-07-14T09:15:10Z',
        since: '2026-07-14T09:15:10Z',
      },
    ],
    [
      '2. FluxInstance with reconcile disabled: suspended',
      edited(fluxInstance, f => {
        f.metadata.annotations['fluxcd.controlplane.io/reconcile'] = 'disabled';
      }),
      {
        state: 'suspended',
        message:
          'reconciliation is suspended (fluxcd.controlplane.io/reconcile is disabled); its status is as of 2026-07-10T06:00:41Z',
      },
    ],
    [
      '3. no status at all: never-reconciled',
      newKustomization(),
      {
        state: 'never-reconciled',
        reason: 'NeverReconciled',
        message: 'no controller has reported a status for it yet',
      },
    ],
    [
      '3. conditions of other types only and no observedGeneration: never-reconciled',
      edited(readyKustomization, k => {
        delete k.status.observedGeneration;
        k.status.conditions = [
          { type: 'Healthy', status: 'True', reason: 'Succeeded' },
        ];
      }),
      { state: 'never-reconciled' },
    ],
    [
      '4. Stalled True: stalled, with the Stalled reason',
      stalledKustomization(),
      {
        state: 'stalled',
        reason: 'AccessDenied',
        message:
          "cross-namespace references are not allowed: can't access 'GitRepository/flux-system/platform'",
        since: '2026-07-14T09:20:00Z',
      },
    ],
    [
      '4. Stalled False: not stalled',
      edited(stalledKustomization, k => {
        k.status.conditions[1].status = 'False';
      }),
      { state: 'failed', reason: 'AccessDenied' },
    ],
    [
      '5. Ready False DependencyNotReady: blocked, naming the dependency',
      blockedKustomization(),
      {
        state: 'blocked',
        reason: 'DependencyNotReady',
        message: "dependency 'flux-system/platform-crds' is not ready",
        blockedBy: {
          kind: 'Kustomization',
          namespace: 'flux-system',
          name: 'platform-crds',
        },
        since: '2026-07-14T09:20:00Z',
      },
    ],
    [
      '5. Ready False DependencyNotReady with a message naming nothing: blocked, no dependency',
      edited(blockedKustomization, k => {
        k.status.conditions[0].message =
          'dependencies do not meet ready condition';
      }),
      { state: 'blocked', blockedBy: undefined },
    ],
    [
      '5. Ready False with any other reason: failed',
      failingKustomization(),
      {
        state: 'failed',
        reason: 'HealthCheckFailed',
        message:
          "health check failed after 3m0.01s: timeout waiting for: [Deployment/team-payments/api status: 'InProgress']",
        since: '2026-07-14T09:15:10Z',
        revision: 'main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
        attemptedRevision: 'main@sha1:9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b',
      },
    ],
    [
      '6. observedGeneration behind generation: progressing, with the Reconciling message',
      edited(failingKustomization, k => {
        k.metadata.generation = 8;
        k.status.conditions[0].status = 'True';
        k.status.conditions[0].reason = 'ReconciliationSucceeded';
      }),
      {
        state: 'progressing',
        reason: 'ProgressingWithRetry',
        message:
          'Detecting drift for revision main@sha1:9ab2e7c4... with a timeout of 3m0s',
      },
    ],
    [
      '6. observedGeneration behind without Reconciling: progressing, saying which generation',
      edited(readyKustomization, k => {
        k.metadata.generation = 4;
      }),
      {
        state: 'progressing',
        reason: 'GenerationNotObserved',
        message: 'generation 4 is not reconciled yet (last reconciled: 3)',
      },
    ],
    [
      '6. Ready Unknown: progressing, with the Ready message',
      edited(readyKustomization, k => {
        k.status.conditions[0] = {
          type: 'Ready',
          status: 'Unknown',
          reason: 'Progressing',
          message: 'Reconciliation in progress',
          lastTransitionTime: '2026-07-14T09:59:00Z',
        };
      }),
      {
        state: 'progressing',
        reason: 'Progressing',
        message: 'Reconciliation in progress',
        since: '2026-07-14T09:59:00Z',
      },
    ],
    [
      '6. no Ready but an observedGeneration: progressing',
      edited(readyKustomization, k => {
        k.status.conditions = [];
      }),
      {
        state: 'progressing',
        message: 'reconciliation started; no Ready condition yet',
      },
    ],
    [
      '6. FluxInstance whose Ready condition saw an older generation (its status has no observedGeneration)',
      edited(fluxInstance, f => {
        f.metadata.generation = 4;
      }),
      {
        state: 'progressing',
        message: 'generation 4 is not reconciled yet (last reconciled: 3)',
      },
    ],
    [
      '7. Ready True: ready, with revision and since',
      readyKustomization(),
      {
        state: 'ready',
        reason: 'ReconciliationSucceeded',
        message:
          'Applied revision: main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
        since: '2026-07-14T09:13:10Z',
        revision: 'main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
        attemptedRevision: undefined,
      },
    ],
    [
      '7. HelmRelease v2: ready at the chart version',
      readyHelmRelease(),
      { state: 'ready', revision: '1.8.2' },
    ],
    [
      '7. HelmRelease v2beta1: ready at lastAppliedRevision',
      v2beta1HelmRelease(),
      { state: 'ready', revision: '4.10.1' },
    ],
    [
      '7. ImagePolicy v1beta2: ready at latestImage',
      v1beta2ImagePolicy(),
      { state: 'ready', revision: 'ghcr.io/stefanprodan/podinfo:6.7.0' },
    ],
    [
      '7. GitRepository: ready at its artifact revision',
      gitRepository(),
      {
        state: 'ready',
        revision: 'main@sha1:9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b',
      },
    ],
    [
      'Alert v1beta3 without status: ready, as flux get shows it',
      alert(),
      { state: 'ready', reason: 'Static' },
    ],
    [
      'Provider v1beta3 without status: ready',
      provider(),
      { state: 'ready', reason: 'Static' },
    ],
    [
      'HelmRepository of type oci without status: ready',
      ociHelmRepository(),
      { state: 'ready', reason: 'Static' },
    ],
    [
      '8. Ready with a status that is not True/False/Unknown: unknown, saying so',
      edited(readyKustomization, k => {
        k.status.conditions[0].status = 'Maybe';
      }),
      {
        state: 'unknown',
        reason: 'MalformedStatus',
        message:
          "its Ready condition has status 'Maybe', which is not True, False or Unknown",
      },
    ],
    [
      '8. Ready status of the wrong type: unknown',
      edited(readyKustomization, k => {
        k.status.conditions[0].status = true;
      }),
      {
        state: 'unknown',
        message:
          "its Ready condition has status 'boolean true', which is not True, False or Unknown",
      },
    ],
    [
      '8. conditions that are not a list: unknown, even with an observedGeneration',
      edited(readyKustomization, k => {
        k.status.conditions = 'Ready';
      }),
      {
        state: 'unknown',
        reason: 'MalformedStatus',
        message: 'status.conditions should be a list but is text "Ready"',
      },
    ],
  ])('%s', (_, raw, expected) => {
    const state = deriveReconcileState(recordOf(raw), NOW);
    const present = Object.entries(expected).filter(([, v]) => v !== undefined);
    const absent = Object.keys(expected).filter(k => expected[k] === undefined);
    expect(state).toMatchObject(Object.fromEntries(present));
    // Fields expected undefined must be undefined (toMatchObject alone would not say so).
    expect(
      absent.filter(field => state[field as keyof typeof state] !== undefined),
    ).toEqual([]);
  });
});

describe('reconcile requested, not handled', () => {
  const requested = (requestedAt: string, handled?: string, suspend = false) =>
    recordOf(
      edited(readyKustomization, k => {
        k.metadata.annotations['reconcile.fluxcd.io/requestedAt'] = requestedAt;
        k.spec.suspend = suspend;
        if (handled === undefined) delete k.status.lastHandledReconcileAt;
        else k.status.lastHandledReconcileAt = handled;
      }),
    );

  it.each<[string, FluxObjectRecord, boolean]>([
    [
      'handled (echoed)',
      requested('2026-07-14T09:00:00Z', '2026-07-14T09:00:00Z'),
      false,
    ],
    [
      'requested 10 min ago, never handled',
      requested('2026-07-14T09:50:00Z'),
      true,
    ],
    [
      'requested 10 min ago, an older request handled',
      requested('2026-07-14T09:50:00Z', '2026-07-14T09:00:00Z'),
      true,
    ],
    ['requested 2 min ago', requested('2026-07-14T09:58:00.123456789Z'), false],
    ['requested exactly 5 min ago', requested('2026-07-14T09:55:00Z'), false],
    [
      'requested 5 min and 1 s ago in another time zone',
      requested('2026-07-14T11:54:59+02:00'),
      true,
    ],
    [
      'a request that is not a time (date +%s) counts as old',
      requested('1784023200'),
      true,
    ],
    [
      'suspended objects do not handle requests, by design',
      requested('2026-07-14T09:00:00Z', undefined, true),
      false,
    ],
  ])('%s: %s', (_, record, expected) => {
    expect(isReconcileNotHandled(record, NOW)).toBe(expected);
    const state = deriveReconcileState(record, new Date(NOW));
    expect(state.reconcileNotHandled).toBe(expected);
    expect(state.reconcileRequestedAt).toBe(
      record.annotations['reconcile.fluxcd.io/requestedAt'],
    );
  });

  it.each<[string, FluxObjectRecord, string | undefined]>([
    [
      'a pending request: 5 minutes after it',
      requested('2026-07-14T09:58:00Z'),
      '2026-07-14T10:03:00.001Z',
    ],
    [
      'a request already not handled: the time it became so',
      requested('2026-07-14T09:50:00Z'),
      '2026-07-14T09:55:00.001Z',
    ],
    [
      'handled',
      requested('2026-07-14T09:58:00Z', '2026-07-14T09:58:00Z'),
      undefined,
    ],
    [
      'suspended',
      requested('2026-07-14T09:58:00Z', undefined, true),
      undefined,
    ],
    [
      'not a time: old at once, never by time',
      requested('1784023200'),
      undefined,
    ],
    ['no request', recordOf(newKustomization()), undefined],
  ])('becomes not handled at: %s', (_, record, expected) => {
    const from = reconcileNotHandledFrom(record);
    expect(from === undefined ? undefined : new Date(from).toISOString()).toBe(
      expected,
    );
    // the time agrees with isReconcileNotHandled on both sides of it
    const around = from === undefined ? [] : [from - 1, from];
    expect(around.map(t => isReconcileNotHandled(record, t))).toEqual(
      from === undefined ? [] : [false, true],
    );
  });

  it('is absent without a request', () => {
    const state = deriveReconcileState(recordOf(newKustomization()), NOW);
    expect(state).not.toHaveProperty('reconcileNotHandled');
    expect(state).not.toHaveProperty('reconcileRequestedAt');
  });
});

describe('blockedByFromMessage', () => {
  const hr = { kind: 'HelmRelease' as const, namespace: 'team-shop' };
  it.each([
    [
      "dependency 'team-shop/redis' is not ready",
      { kind: 'HelmRelease', namespace: 'team-shop', name: 'redis' },
    ],
    [
      'unable to get \'infra/cert-manager\' dependency: helmreleases.helm.toolkit.fluxcd.io "cert-manager" not found',
      { kind: 'HelmRelease', namespace: 'infra', name: 'cert-manager' },
    ],
    [
      "dependencies do not meet ready condition (dependency 'infra/ingress' is not ready): retrying in 30s",
      { kind: 'HelmRelease', namespace: 'infra', name: 'ingress' },
    ],
    [
      "dependency 'redis' is not ready",
      { kind: 'HelmRelease', namespace: 'team-shop', name: 'redis' },
    ],
    ['dependencies are not ready', undefined],
    [undefined, undefined],
  ])('reads %j', (message, expected) => {
    expect(blockedByFromMessage(message, hr)).toEqual(expected);
  });
});

describe('parseRfc3339', () => {
  it.each([
    ['2026-07-14T09:12:03Z', Date.UTC(2026, 6, 14, 9, 12, 3)],
    ['2026-07-14T09:12:03.114253411Z', Date.UTC(2026, 6, 14, 9, 12, 3, 114)],
    ['2026-07-14T11:12:03+02:00', Date.UTC(2026, 6, 14, 9, 12, 3)],
    ['2026-07-14t09:12:03z', Date.UTC(2026, 6, 14, 9, 12, 3)],
    ['1784023200', undefined],
    ['2026-13-01T00:00:00Z', undefined],
    ['yesterday', undefined],
    [undefined, undefined],
  ])('reads %j', (text, ms) => {
    expect(parseRfc3339(text)).toBe(ms);
  });
});
