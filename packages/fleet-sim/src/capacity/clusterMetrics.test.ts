import { generateFleet } from '../fleetSim';
import { resolveOptions } from '../options';
import { SimulatedCluster } from '../sim/simulatedCluster';
import type { DeploymentLoad } from './controllerLoad';

/** The failing share of the kustomize-controller queue that holds the object. */
function failingShare(loads: DeploymentLoad[], key: string): number {
  for (const load of loads) {
    for (const queue of load.queues) {
      if (queue.objects.some(o => `${o.namespace}/${o.name}` === key)) return queue.errorShare;
    }
  }
  throw new Error(`no queue holds ${key}`);
}

describe('ClusterMetrics: when the loads follow a write', () => {
  const [generated] = generateFleet(resolveOptions({ size: 'S', seed: 1 }));
  let cluster: SimulatedCluster;
  let now = 1_000_000;
  beforeEach(() => {
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    cluster = new SimulatedCluster(generated, { minDelayMs: 0, maxDelayMs: 0 });
  });
  afterEach(() => {
    cluster.close();
    jest.restoreAllMocks();
  });

  /** A loaded, ready Kustomization, written back as failed; returns its `namespace/name`. */
  function failOne(statusOnly: boolean): string {
    const record = [...cluster.records.values()].find(
      r => r.kind === 'Kustomization' && r.load && r.state === 'ready' && !r.suspended,
    )!;
    const object = cluster.read(record.kind, record.namespace, record.name);
    object.status.conditions = [
      { type: 'Ready', status: 'False', reason: 'BuildFailed', message: 'kustomize build failed', lastTransitionTime: '2026-12-04T10:00:00Z' },
    ];
    cluster.writeFlux(record.kind, object, { statusOnly });
    return `${record.namespace}/${record.name}`;
  }

  it("follows the churn's status writes at most once a second, not at every scrape", () => {
    const before = cluster.metrics.loads();
    now += 5_000;
    const first = failOne(true);
    const afterFirst = cluster.metrics.loads();
    expect(failingShare(afterFirst, first)).toBeGreaterThan(failingShare(before, first));
    // another status write within the second: the scrapes until then read the loads as they were
    now += 100;
    const second = failOne(true);
    expect(cluster.metrics.loads()).toBe(afterFirst);
    now += 899;
    expect(cluster.metrics.loads()).toBe(afterFirst);
    now += 1;
    const afterSecond = cluster.metrics.loads();
    expect(failingShare(afterSecond, second)).toBeGreaterThan(failingShare(afterFirst, second));
  });

  it('follows any other write at once', () => {
    const before = cluster.metrics.loads();
    now += 100;
    const key = failOne(false);
    const after = cluster.metrics.loads();
    expect(failingShare(after, key)).toBeGreaterThan(failingShare(before, key));
  });
});
