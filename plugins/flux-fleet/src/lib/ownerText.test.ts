import { contestedAdvice, orphanAdvice, ownerLabel } from './ownerText';

describe('owner texts', () => {
  const ref = {
    cluster: 'prod-eu-1',
    namespace: 'apps',
    kind: 'HelmRelease' as const,
    name: 'web',
  };

  it('name the instance and shard of an owned object', () => {
    expect(
      ownerLabel({
        status: 'ok',
        instance: 'flux-system',
        shard: 'shard2',
        controller: 'helm-controller-shard2',
      }),
    ).toBe('flux-system / shard2');
    expect(
      ownerLabel({
        status: 'orphan',
        instance: null,
        shard: null,
        controller: null,
      }),
    ).toBe('orphan');
  });

  it('advise an orphan without a shard label to check the namespace scope', () => {
    expect(orphanAdvice({ ref, labels: {} }, [])).toBe(
      'No controller watches this object: add a shard label that a controller selects, e.g. sharding.fluxcd.io/key=shard1. Check that a controller for HelmRelease watches namespace apps (--watch-all-namespaces).',
    );
  });

  it('count the controllers of a contested object', () => {
    const candidates = ['main', 'shard1', 'shard2'].map(shard => ({
      instance: 'flux-system',
      shard,
      controller: `helm-controller-${shard}`,
    }));
    expect(
      contestedAdvice({
        status: 'contested',
        instance: null,
        shard: null,
        controller: null,
        candidates,
      }),
    ).toMatch(
      /^3 controllers reconcile it: flux-system\/main \(helm-controller-main\) and flux-system\/shard1/,
    );
  });
});
