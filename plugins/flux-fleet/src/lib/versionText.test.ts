import { blockerLines, behindText } from './versionText';

describe('blockerLines', () => {
  it('says each blocking stored version once, with every kind that stores it', () => {
    expect(
      blockerLines([
        {
          crd: 'gitrepositories.source.toolkit.fluxcd.io',
          kind: 'GitRepository',
          version: 'v1beta2',
          removedIn: 8,
        },
        {
          crd: 'helmreleases.helm.toolkit.fluxcd.io',
          kind: 'HelmRelease',
          version: 'v2beta2',
          removedIn: 8,
        },
        {
          crd: 'kustomizations.kustomize.toolkit.fluxcd.io',
          kind: 'Kustomization',
          version: 'v1beta2',
          removedIn: 8,
        },
      ]),
    ).toEqual([
      'v1beta2, stored by GitRepository, Kustomization (removed in Flux 2.8)',
      'v2beta2, stored by HelmRelease (removed in Flux 2.8)',
    ]);
  });
});

describe('behindText', () => {
  const row = {
    cluster: 'a',
    instance: 'flux-system',
    mixed: false,
    blockers: [],
  };
  it.each<[number | undefined, number | undefined, string | undefined]>([
    [0, 0, 'the latest release'],
    [0, 2, '2 patch releases behind'],
    [1, 1, '1 minor (1 release) behind'],
    [3, 14, '3 minors (14 releases) behind'],
    [undefined, undefined, undefined],
  ])(
    '%s minors and %s releases behind read "%s"',
    (minorsBehind, releasesBehind, expected) => {
      expect(
        behindText({
          ...row,
          ...(releasesBehind !== undefined && {
            version: 'v2.8.0',
            minorsBehind,
            releasesBehind,
          }),
        }),
      ).toBe(expected);
    },
  );
});
