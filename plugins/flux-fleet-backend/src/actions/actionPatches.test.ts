import { actionPatch, isSuspended, reconcileToken, unsupportedReason } from './actionPatches';

describe('the merge patches of the actions, as the Flux CLI writes them', () => {
  it('asks for a reconcile with the requestedAt annotation, and a forced HelmRelease upgrade with forceAt too', () => {
    const token = '2026-07-14T10:20:00.123456789Z';
    expect(actionPatch('Kustomization', 'reconcile', { token })).toEqual({
      metadata: { annotations: { 'reconcile.fluxcd.io/requestedAt': token } },
    });
    expect(actionPatch('HelmRelease', 'reconcile', { token, force: true })).toEqual({
      metadata: {
        annotations: {
          'reconcile.fluxcd.io/requestedAt': token,
          'reconcile.fluxcd.io/forceAt': token,
        },
      },
    });
    expect(() => actionPatch('Kustomization', 'reconcile')).toThrow('needs its requestedAt token');
  });

  it('suspends and resumes with spec.suspend, and the Flux Operator kinds with their annotation', () => {
    expect(actionPatch('GitRepository', 'suspend')).toEqual({ spec: { suspend: true } });
    expect(actionPatch('GitRepository', 'resume')).toEqual({ spec: { suspend: false } });
    expect(actionPatch('FluxInstance', 'suspend')).toEqual({
      metadata: { annotations: { 'fluxcd.controlplane.io/reconcile': 'disabled' } },
    });
    // null removes the annotation in a merge patch
    expect(actionPatch('ResourceSet', 'resume')).toEqual({
      metadata: { annotations: { 'fluxcd.controlplane.io/reconcile': null } },
    });
  });

  it('reads a live object as suspended the way rules §2 does', () => {
    expect(isSuspended('Kustomization', { spec: { suspend: true } })).toBe(true);
    expect(isSuspended('Kustomization', { spec: { suspend: 'true' } })).toBe(false);
    expect(isSuspended('Kustomization', {})).toBe(false);
    expect(isSuspended('Kustomization', null)).toBe(false);
    expect(
      isSuspended('FluxInstance', {
        metadata: { annotations: { 'fluxcd.controlplane.io/reconcile': 'disabled' } },
      }),
    ).toBe(true);
    // spec.suspend means nothing to the operator
    expect(isSuspended('FluxInstance', { spec: { suspend: true } })).toBe(false);
  });

  it('refuses what a kind does not take, saying why', () => {
    expect(unsupportedReason('ExternalArtifact', 'reconcile')).toContain('its producer writes it');
    expect(unsupportedReason('Alert', 'reconcile')).toContain('no status');
    expect(unsupportedReason('Alert', 'suspend')).toBeUndefined();
    expect(unsupportedReason('ArtifactGenerator', 'suspend')).toContain('no spec.suspend');
    expect(unsupportedReason('HelmRelease', 'reconcile')).toBeUndefined();
    expect(unsupportedReason('FluxInstance', 'resume')).toBeUndefined();
  });
});

describe('reconcileToken', () => {
  const at = new Date('2026-07-14T10:20:00.120Z');

  it('writes RFC 3339 with nanoseconds, trailing zeros dropped, like Go time.RFC3339Nano', () => {
    expect(reconcileToken(at, 456_789)).toBe('2026-07-14T10:20:00.120456789Z');
    expect(reconcileToken(at, 0)).toBe('2026-07-14T10:20:00.12Z');
    expect(reconcileToken(new Date('2026-07-14T10:20:00.000Z'), 0)).toBe('2026-07-14T10:20:00Z');
    expect(reconcileToken(at, 5)).toBe('2026-07-14T10:20:00.120000005Z');
  });

  it('gives two requests in the same millisecond different tokens', () => {
    expect(reconcileToken(at, 1)).not.toBe(reconcileToken(at, 2));
  });
});
