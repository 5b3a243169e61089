import { measurementOf, recordOf, sourceObject } from '../fixtures/capacity';
import { kustomizationObject } from '../fixtures/objectBuilders';
import { KEY, SHARDED, team } from '../fixtures/shardingScenario';
import { capacityOfCluster, capacityOfWorkloads, shardingPlanInputOf, workloadsOfCluster } from './cluster';
import { planSharding } from './shardingPlan';

function objects() {
  return [
    ...team('team-a', 12, 'shard1'),
    ...team('team-b', 4, 'shard2'),
    ...team('team-c', 3),
    recordOf(
      kustomizationObject({
        namespace: 'team-c',
        name: 'paused',
        suspend: true,
        sourceRef: { kind: 'GitRepository', name: 'apps' },
      }),
    ),
    // Labelled for a shard no controller serves: an orphan.
    recordOf(
      sourceObject('GitRepository', 'team-z', 'apps', {
        labels: { [KEY]: 'shard9' },
      }),
    ),
  ];
}

describe('capacityOfCluster', () => {
  it('gives each controller the objects it reconciles and its measurement, or says why it has none', () => {
    const [instance] = capacityOfCluster({
      cluster: 'prod-eu',
      controllers: SHARDED,
      objects: objects(),
      measurements: [
        measurementOf('kustomize-controller-shard1', 'kustomize-controller', {
          activeWorkers: 3.9,
        }),
      ],
      noMeasurementReason: c =>
        c.name === 'kustomize-controller-shard1'
          ? undefined
          : 'no Prometheus is configured for cluster prod-eu',
    });
    const byName = new Map(instance.controllers.map(c => [c.controller, c]));
    expect(byName.get('kustomize-controller-shard1')).toMatchObject({
      objectCount: 12,
      source: 'metrics',
    });
    expect(byName.get('kustomize-controller-shard2')).toMatchObject({
      objectCount: 4,
      source: 'estimate',
    });
    // The suspended Kustomization loads no one.
    expect(byName.get('kustomize-controller')?.objectCount).toBe(3);
    expect(byName.get('source-controller')?.estimateReason).toBe(
      'no Prometheus is configured for cluster prod-eu',
    );
    expect(instance.verdict).toBe('over-capacity');
    expect(instance.controller).toBe('kustomize-controller-shard1');
    expect(instance.advice).toBe('raise-concurrency');
  });
});

describe('capacityOfWorkloads', () => {
  it('joins workloads read before with new measurements as capacityOfCluster would from the objects', () => {
    const workloads = workloadsOfCluster(SHARDED, objects());
    expect(workloads.get('flux-system/kustomize-controller-shard2')?.objectCount).toBe(4);
    const rounds = [
      [],
      [measurementOf('kustomize-controller-shard1', 'kustomize-controller', { activeWorkers: 3.9 })],
      [measurementOf('kustomize-controller-shard2', 'kustomize-controller', { activeWorkers: 0.5 })],
    ];
    for (const measurements of rounds) {
      expect(capacityOfWorkloads({ cluster: 'prod-eu', controllers: SHARDED, workloads, measurements })).toEqual(
        capacityOfCluster({ cluster: 'prod-eu', controllers: SHARDED, objects: objects(), measurements }),
      );
    }
  });

  it('gives a controller the workloads do not name no objects', () => {
    const [instance] = capacityOfWorkloads({ cluster: 'prod-eu', controllers: SHARDED, workloads: new Map() });
    expect(instance.controllers.map(c => c.objectCount)).toEqual(instance.controllers.map(() => 0));
  });
});

describe('shardingPlanInputOf', () => {
  it('takes the instance’s objects, suspended ones and, in a single-instance cluster, its orphans', () => {
    const all = objects();
    const input = shardingPlanInputOf({
      cluster: 'prod-eu',
      controllers: SHARDED,
      objects: all,
      instance: 'flux-system',
    });
    expect(input.objects).toHaveLength(all.length);
    const plan = planSharding(input);
    const orphan = plan.labelChanges.find(c => c.object.namespace === 'team-z');
    expect(orphan).toMatchObject({ from: 'shard9', to: 'main' });
  });
});
