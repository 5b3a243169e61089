import type { CapacityReport } from '@flux-fleet/plugin-flux-fleet-common';
import { createVerdictWatch } from './capacityVerdictSignals';

/** A report of one cluster with one instance whose verdict and controller verdicts are given. */
function reportWith(cluster: string, verdict: string, controllers: Record<string, string> = {}): CapacityReport {
  return {
    generatedAt: '2026-12-02T00:00:00Z',
    items: [
      {
        cluster,
        instance: 'flux-system',
        verdict,
        controllers: Object.entries(controllers).map(([controller, v]) => ({ controller, verdict: v })),
      },
    ],
  } as unknown as CapacityReport;
}

describe('createVerdictWatch', () => {
  it('remembers first, then publishes the instances whose verdict or controller verdicts changed', async () => {
    const verdicts: Record<string, [string, Record<string, string>]> = {
      a: ['ok', { 'kustomize-controller': 'ok' }],
      b: ['ok', {}],
    };
    const published: string[][] = [];
    const watch = createVerdictWatch(
      { clusterNames: () => Object.keys(verdicts), reportOf: c => reportWith(c, ...verdicts[c]) },
      changed => published.push(changed),
    );
    await watch();
    expect(published).toEqual([]);
    verdicts.a = ['ok', { 'kustomize-controller': 'near-limit' }];
    verdicts.b = ['over-capacity', {}];
    await watch();
    expect(published).toEqual([['a/flux-system', 'b/flux-system']]);
    await watch();
    expect(published).toHaveLength(1);
  });

  it('lets other work run between clusters, and compares once more when called meanwhile', async () => {
    let verdict = 'ok';
    const order: string[] = [];
    const published: string[][] = [];
    const watch = createVerdictWatch(
      {
        clusterNames: () => ['a', 'b'],
        reportOf: c => {
          order.push(`report ${c}`);
          return reportWith(c, verdict);
        },
      },
      changed => published.push(changed),
    );
    await watch();
    order.length = 0;
    setImmediate(() => order.push('other work'));
    const first = watch();
    // read by the first comparison for b only (a is read already), by the one more for both
    verdict = 'near-limit';
    const second = watch();
    await Promise.all([first, second]);
    expect(order.slice(0, 3)).toEqual(['report a', 'other work', 'report b']);
    expect(order.filter(o => o.startsWith('report'))).toHaveLength(4);
    expect(published).toEqual([['b/flux-system'], ['a/flux-system']]);
  });
});
