import {
  intervalMsOf,
  reconcileDurationMsOf,
  reconcileShareOf,
  utilisationOf,
} from './load';

describe('load estimates', () => {
  it.each([
    ['10m', 600_000],
    ['1h', 3_600_000],
    [undefined, 600_000],
    ['0s', 600_000],
    ['-5m', 600_000],
    ['often', 600_000],
  ])(
    'reads the interval %j as %d ms (10 m when absent or not a positive duration)',
    (interval, ms) => {
      expect(intervalMsOf({ interval })).toBe(ms);
    },
  );

  it.each<[string, number | undefined, number]>([
    ['Kustomization', 66_200, 66_200],
    ['Kustomization', undefined, 10_000],
    ['HelmRelease', undefined, 20_000],
    ['GitRepository', undefined, 2_000],
    ['HelmChart', undefined, 2_000],
    ['ImagePolicy', undefined, 1_000],
    ['Alert', undefined, 1_000],
  ])(
    'takes the reconcile duration of a %s as reported (%j) or estimated',
    (kind, reported, ms) => {
      expect(
        reconcileDurationMsOf({
          kind: kind as 'Kustomization',
          lastReconcileDurationMs: reported,
        }),
      ).toBe(ms);
    },
  );

  it('divides duration by interval, and the sum by --concurrent', () => {
    expect(reconcileShareOf({ kind: 'HelmRelease', interval: '10s' })).toBe(2);
    expect(
      reconcileShareOf({
        kind: 'Kustomization',
        interval: '1h',
        lastReconcileDurationMs: 36_000,
      }),
    ).toBe(0.01);
    expect(utilisationOf(24, 4)).toBe(6);
    expect(utilisationOf(1, 0)).toBe(1);
  });
});
