import { generateFleet } from '../fleetSim';
import { parseGoDuration } from './objectLoad';
import { goDuration } from './demoLoad';
import { resolveOptions } from '../options';
import { SimulatedCluster } from '../sim/simulatedCluster';
import { controllerTruth } from '../truth/groundTruth';

describe.each([1, 7])('the demo load of fleet S, seed %p', seed => {
  const fleet = generateFleet(resolveOptions({ size: 'S', seed }));
  const rows = fleet.flatMap(generated => {
    const cluster = new SimulatedCluster(generated, {
      minDelayMs: 0,
      maxDelayMs: 0,
    });
    const loads = cluster.metrics.loads();
    cluster.close();
    return loads.map(l => controllerTruth(generated.name, l));
  });

  it('has one controller over capacity and two near it, every other one ok', () => {
    const loaded = rows
      .filter(r => r.verdict !== 'ok')
      .map(r => `${r.cluster} ${r.deployment} ${r.verdict}`)
      .sort();
    expect(loaded).toEqual([
      'prod-eu-west-1 kustomize-controller-shard1 near-capacity',
      'staging-us-east-1 helm-controller near-capacity',
      'staging-us-east-1 kustomize-controller over-capacity',
    ]);
  });

  it('keeps every controller at least 0.05 away from the 0.7 and 0.95 thresholds', () => {
    const edgy = rows.filter(r =>
      [0.7, 0.95].some(t => Math.abs(r.utilisation - t) < 0.05),
    );
    expect(edgy).toEqual([]);
  });

  it('models each controller from the objects it owns, with --concurrent', () => {
    const over = rows.find(r => r.verdict === 'over-capacity')!;
    expect(over.concurrent).toBe(4);
    expect(over.objectCount).toBeGreaterThan(100);
    expect(
      (over.arrivalsPerSecond * over.meanServiceSeconds) / over.concurrent,
    ).toBeCloseTo(over.utilisation, 3);
  });

  it("writes each Kustomization's modelled duration into its history (Flux 2.7+)", () => {
    let checked = 0;
    for (const generated of fleet) {
      if (!generated.plan || generated.plan.release.minor < 7) continue;
      const cluster = new SimulatedCluster(generated, {
        minDelayMs: 0,
        maxDelayMs: 0,
      });
      for (const record of generated.records.values()) {
        if (record.kind !== 'Kustomization' || !record.load) continue;
        const object = cluster.read(record.kind, record.namespace, record.name);
        const written = object.status?.history?.[0]?.lastReconciledDuration;
        if (written === undefined) continue;
        expect(parseGoDuration(written)).toBeCloseTo(
          record.load.reconcileSeconds,
          2,
        );
        checked++;
      }
      cluster.close();
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe('goDuration', () => {
  it.each([
    [34.04, '34.04s'],
    [72.5, '1m12.5s'],
    [0.0504, '0.05s'],
  ])('%p s is %p', (seconds, text) => expect(goDuration(seconds)).toBe(text));
});
