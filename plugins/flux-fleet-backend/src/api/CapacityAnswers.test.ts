import { FluxObjectRecord, normalizeFluxObject } from '@flux-fleet/plugin-flux-fleet-common';
import type { ControllerCapacityReading } from '../capacity/CapacitySource';
import { testController, testInstance } from '../capacity/__testUtils__/controllerFixtures';
import { CAPACITY_STATUS_FRESH_MS, CapacityAnswers } from './CapacityAnswers';

const instance = testInstance('lab', [testController('lab', 'kustomize-controller', 'kustomize-controller')]);

function kustomization(name: string, labels: Record<string, string> = {}): FluxObjectRecord {
  const result = normalizeFluxObject('lab', {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name, namespace: 'apps', uid: `uid-${name}`, labels },
    spec: { interval: '10m', path: './', prune: true, sourceRef: { kind: 'GitRepository', name: 'apps' } },
  });
  if (!result.record) throw new Error(result.error);
  return result.record;
}

/** Answers over a fake index of one cluster whose records, structure and readings a test changes. */
function lab() {
  let now = Date.parse('2026-12-04T10:00:00Z');
  const fleet = {
    records: [kustomization('a'), kustomization('b')],
    structure: '1.1',
    readings: [] as ControllerCapacityReading[],
    instances: [instance],
    /** How often the cluster's records were built. */
    builds: 0,
    /** When set, reading the records fails with it. */
    failure: undefined as Error | undefined,
  };
  const answers = new CapacityAnswers(
    {
      clusterNames: () => ['lab'],
      instances: () => fleet.instances,
      structureVersion: () => fleet.structure,
      clusterRecordsInTurns: async () => [...fleet.records],
      clusterCapacityRecordsInTurns: async () => {
        fleet.builds++;
        if (fleet.failure) throw fleet.failure;
        const records = [...fleet.records];
        await new Promise(resolve => setImmediate(resolve));
        return records;
      },
    },
    { measurements: () => fleet.readings, history: () => [] },
    () => now,
  );
  const objectCount = async () => (await answers.report()).items[0].controllers[0].objectCount;
  return { fleet, answers, objectCount, advance: (ms: number) => (now += ms) };
}

describe('CapacityAnswers', () => {
  it('computes a cluster once for callers asking at the same time', async () => {
    const { fleet, answers } = lab();
    const reports = await Promise.all([answers.report(), answers.report(), answers.report({ cluster: 'lab' })]);
    expect(fleet.builds).toBe(1);
    expect(reports.map(r => r.items[0].controllers[0].objectCount)).toEqual([2, 2, 2]);
  });

  it('does not hand a caller a reading of another structure that is still under way', async () => {
    const { fleet, answers } = lab();
    const before = answers.report();
    // objects came while the first computation builds its records: the second caller gets its own
    fleet.records = [kustomization('a'), kustomization('b'), kustomization('c')];
    fleet.structure = '2.2';
    const after = answers.report();
    expect((await before).items[0].controllers[0].objectCount).toBe(2);
    expect((await after).items[0].controllers[0].objectCount).toBe(3);
    expect(fleet.builds).toBe(2);
  });

  it('keeps a cluster’s workloads through status churn, reads them again in the background once they are old, and at once, behind the kept answer, when its structure changes', async () => {
    const { fleet, answers, objectCount, advance } = lab();
    expect(await objectCount()).toBe(2);
    // only statuses changed (the structure did not): served as read until it is CAPACITY_STATUS_FRESH_MS old
    fleet.records = [kustomization('a')];
    advance(CAPACITY_STATUS_FRESH_MS - 1);
    expect(await objectCount()).toBe(2);
    expect(fleet.builds).toBe(1);
    // old: this answer is still the kept one, and a new reading starts behind it
    advance(1);
    expect(await objectCount()).toBe(2);
    expect(fleet.builds).toBe(2);
    await new Promise(resolve => setImmediate(resolve));
    expect(await objectCount()).toBe(1);
    expect(fleet.builds).toBe(2);
    // an object came (the index's structure changed): read again at once, behind the kept answer
    fleet.records = [kustomization('a'), kustomization('b'), kustomization('c')];
    fleet.structure = '2.2';
    expect(await objectCount()).toBe(1);
    expect(fleet.builds).toBe(3);
    await new Promise(resolve => setImmediate(resolve));
    expect(await objectCount()).toBe(3);
    expect(fleet.builds).toBe(3);
    // a collection round measured the controller: at once, with the measurement, without reading objects again
    fleet.readings = [
      {
        key: 'lab/flux-system/kustomize-controller',
        cluster: 'lab',
        namespace: 'flux-system',
        deployment: 'kustomize-controller',
        component: 'kustomize-controller',
        unmeasured: [],
        bySource: {},
        measurement: {
          cluster: 'lab',
          namespace: 'flux-system',
          deployment: 'kustomize-controller',
          component: 'kustomize-controller',
          source: 'pod-proxy',
          pods: ['kustomize-controller-7d9f8b6c5-x2x9q'],
          measuredAt: '2026-12-04T10:01:00Z',
          windowSeconds: 60,
          problems: [],
          activeWorkers: 1,
        },
      },
    ];
    const builds = fleet.builds;
    const [controller] = (await answers.report()).items[0].controllers;
    expect(controller.source).toBe('metrics');
    expect(controller.figures.busyWorkers?.value).toBe(1);
    expect(controller.objectCount).toBe(3);
    expect(fleet.builds).toBe(builds);
  });

  it('answers from the kept workloads when a reading in the background fails, and reads again a cluster never read', async () => {
    const { fleet, answers, objectCount, advance } = lab();
    fleet.failure = new Error('cluster lab is being forgotten');
    await expect(answers.report()).rejects.toThrow('cluster lab is being forgotten');
    fleet.failure = undefined;
    expect(await objectCount()).toBe(2);
    expect(fleet.builds).toBe(2);
    fleet.failure = new Error('cluster lab is being forgotten');
    advance(CAPACITY_STATUS_FRESH_MS);
    expect(await objectCount()).toBe(2);
    await new Promise(resolve => setImmediate(resolve));
    // the next caller tries again
    expect(await objectCount()).toBe(2);
    expect(fleet.builds).toBe(4);
  });

  it('waits for a new reading when the cluster’s controllers changed: a new shard shows its objects at once', async () => {
    const { fleet, answers } = lab();
    const main = testController('lab', 'kustomize-controller', 'kustomize-controller');
    expect((await answers.report()).items[0].controllers.map(c => c.objectCount)).toEqual([2]);
    // sharded as Flux's sharding guide does it
    const shard1 = testController('lab', 'kustomize-controller-shard1', 'kustomize-controller');
    fleet.instances = [
      testInstance('lab', [
        { ...main, selector: '!sharding.fluxcd.io/key' },
        { ...shard1, shard: 'shard1', selector: 'sharding.fluxcd.io/key in (shard1)' },
      ]),
    ];
    fleet.records = [kustomization('a'), kustomization('b', { 'sharding.fluxcd.io/key': 'shard1' })];
    fleet.structure = '2.2';
    const counts = (await answers.report()).items[0].controllers.map(c => [c.controller, c.objectCount]);
    expect(counts).toEqual([
      ['kustomize-controller', 1],
      ['kustomize-controller-shard1', 1],
    ]);
    expect(fleet.builds).toBe(2);
  });
});
