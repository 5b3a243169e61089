import {
  deployment,
  DEPLOYMENTS,
  KUSTOMIZATIONS,
  kustomization,
  testFleet,
} from '../__testUtils__/fluxFixtures';
import { FleetIndex } from './FleetIndex';

describe('FleetIndex', () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-07-14T10:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  /** A cluster `lab` with four Kustomizations and two Deployments, analysed. */
  function labFleet() {
    const { fleet, index } = testFleet(['lab']);
    const store = fleet.storeOf('lab');
    const workloads = store.supporting('workloads', DEPLOYMENTS);
    workloads.upsert(deployment('api', { team: 'payments', 'backstage.io/kubernetes-id': 'payments-api' }));
    workloads.upsert(deployment('worker', { team: 'search' }));
    const kustomizations = store.flux(KUSTOMIZATIONS);
    kustomizations.upsert(kustomization('labelled', { labels: { team: 'payments' } }));
    kustomizations.upsert(
      kustomization('applies-api', { inventory: ['apps_api_apps_Deployment', 'apps_api__Service'] }),
    );
    kustomizations.upsert(kustomization('applies-worker', { inventory: ['apps_worker_apps_Deployment'] }));
    // applies to another cluster: its inventory is not this cluster's workloads
    kustomizations.upsert(
      kustomization('remote', {
        inventory: ['apps_api_apps_Deployment'],
        spec: { kubeConfig: { secretRef: { name: 'remote' } } },
      }),
    );
    jest.advanceTimersByTime(1_000);
    return { fleet, index, kustomizations };
  }

  it('links a label selector to objects by their own labels and by the workloads they applied', () => {
    const { index, fleet } = labFleet();
    const keys = (selector: string) => index.entityObjects({ labelSelector: selector }).map(o => o.ref.name);
    expect(keys('team=payments')).toEqual(['applies-api', 'labelled']);
    expect(keys('team=search')).toEqual(['applies-worker']);
    expect(keys('team in (payments,search),team!=payments')).toEqual(['applies-worker']);
    expect(keys('team=nobody')).toEqual([]);
    fleet.close();
  });

  it('links a kubernetes-id to the objects that applied its workloads, not to one applying elsewhere', () => {
    const { index, fleet } = labFleet();
    expect(index.entityObjects({ kubernetesId: 'payments-api' }).map(o => o.ref.name)).toEqual(['applies-api']);
    fleet.close();
  });

  it('answers a selector again after the fleet changed, not from its cache', () => {
    const { index, fleet, kustomizations } = labFleet();
    expect(index.entityObjects({ labelSelector: 'team=payments' }).map(o => o.ref.name)).toEqual([
      'applies-api',
      'labelled',
    ]);
    kustomizations.upsert(kustomization('late', { labels: { team: 'payments' } }));
    jest.advanceTimersByTime(1_000);
    expect(index.entityObjects({ labelSelector: 'team=payments' }).map(o => o.ref.name)).toEqual([
      'applies-api',
      'labelled',
      'late',
    ]);
    fleet.close();
  });

  it('gives an entity’s objects as JSON equal to its objects, the readable ones, the first `limit`, and a new JSON after a change', () => {
    const { index, fleet, kustomizations } = labFleet();
    const link = { labelSelector: 'team in (payments,search)' };
    const parsed = (limit: number, readable?: (o: { key: string }) => boolean) => {
      const found = index.entityObjectsJson(link, limit, readable);
      return { objects: found.objects.map(o => JSON.parse(o.json.toString('utf8'))), totalCount: found.totalCount };
    };
    expect(parsed(10)).toEqual({ objects: JSON.parse(JSON.stringify(index.entityObjects(link))), totalCount: 3 });
    expect(parsed(10).objects.map(o => o.ref.name)).toEqual(['applies-api', 'applies-worker', 'labelled']);
    expect(parsed(1)).toMatchObject({ objects: [{ ref: { name: 'applies-api' } }], totalCount: 3 });
    expect(parsed(10, o => !o.key.endsWith('/applies-api'))).toMatchObject({
      objects: [{ ref: { name: 'applies-worker' } }, { ref: { name: 'labelled' } }],
      totalCount: 2,
    });
    kustomizations.upsert(
      kustomization('labelled', {
        labels: { team: 'payments' },
        ready: { status: 'False', reason: 'BuildFailed', message: 'kustomize build failed' },
      }),
    );
    jest.advanceTimersByTime(1_000);
    expect(parsed(10).objects[2].state).toMatchObject({ state: 'failed', reason: 'BuildFailed' });
    fleet.close();
  });

  it("keeps an entity's objects' JSON however many other objects fleet-wide pages answer", () => {
    const { fleet } = labFleet();
    // room for one object's JSON: in one cache shared by both, the pages would push the entity's object out
    const index = new FleetIndex(fleet, [], 1);
    const link = { kubernetesId: 'payments-api' };
    const entityJson = () => index.entityObjectsJson(link, 10).objects[0].json;
    entityJson();
    const kept = entityJson();
    expect(Buffer.isBuffer(kept)).toBe(true);
    // a page of another object, asked twice: that object's JSON is kept
    for (let i = 0; i < 2; i++) index.objectsJson({ q: 'labelled' });
    expect(entityJson()).toBe(kept);
    fleet.close();
  });

  it('counts tenants again after an analysis, and a status change leaves their counts as they were', () => {
    const { fleet, index, kustomizations } = labFleet();
    const tenantCounts = () => index.tenants().map(t => [t.name, t.objectCount]);
    kustomizations.upsert(kustomization('a', { labels: { 'toolkit.fluxcd.io/tenant': 'payments' } }));
    kustomizations.upsert(kustomization('b', { labels: { 'toolkit.fluxcd.io/tenant': 'payments' } }));
    jest.advanceTimersByTime(1_000);
    expect(tenantCounts()).toEqual([['payments', 2]]);

    kustomizations.upsert(
      kustomization('b', {
        labels: { 'toolkit.fluxcd.io/tenant': 'payments' },
        ready: { status: 'False', reason: 'BuildFailed', message: 'kustomize build failed' },
      }),
    );
    jest.advanceTimersByTime(1_000);
    expect(index.object('lab/apps/Kustomization/b')?.state.state).toBe('failed');
    expect(tenantCounts()).toEqual([['payments', 2]]);

    kustomizations.upsert(kustomization('b', { labels: { 'toolkit.fluxcd.io/tenant': 'search' } }));
    kustomizations.remove(kustomization('a'));
    jest.advanceTimersByTime(1_000);
    expect(tenantCounts()).toEqual([['search', 1]]);
    expect(index.summary().tenants).toBe(1);
    fleet.close();
  });

  it('counts the fleet in its summary and finds objects by key, kind and state', () => {
    const { index, kustomizations, fleet } = labFleet();
    kustomizations.upsert(
      kustomization('broken', { ready: { status: 'False', reason: 'BuildFailed', message: 'kustomize build failed' } }),
    );
    jest.advanceTimersByTime(1_000);
    const summary = index.summary();
    expect(summary).toMatchObject({ clusters: 1, objects: 5, countsByKind: { Kustomization: 5 } });
    expect(summary.countsByState).toMatchObject({ failed: 1 });
    expect(index.object('lab/apps/Kustomization/broken')?.state).toMatchObject({
      state: 'failed',
      reason: 'BuildFailed',
    });
    expect(index.object('lab/apps/Kustomization/none')).toBeUndefined();
    expect(index.objects({ state: ['failed'] }).items.map(o => o.key)).toEqual(['lab/apps/Kustomization/broken']);
    expect(index.clusterObjects('lab')).toHaveLength(5);
    expect(index.clusterObjects('lab', new Set(['Kustomization']))).toHaveLength(5);
    expect(index.clusterObjects('lab', new Set(['HelmRelease']))).toEqual([]);
    expect(index.clusterObjects('elsewhere')).toEqual([]);
    expect(index.clusterNames()).toEqual(['lab']);
    fleet.close();
  });

  it('builds a cluster\'s records in turns as it builds them at once, and what capacity reads of them', async () => {
    const { index, fleet } = labFleet();
    jest.advanceTimersByTime(1_000);
    jest.useRealTimers();
    const inTurns = await index.clusterRecordsInTurns('lab');
    expect(inTurns).toEqual(index.clusterRecords('lab'));
    expect(inTurns).toHaveLength(4);
    expect(await index.clusterRecordsInTurns('elsewhere')).toEqual([]);
    // what capacity reads: the same fields of the same records, in the same order
    const capacityRecords = await index.clusterCapacityRecordsInTurns('lab');
    expect(capacityRecords).toEqual(
      inTurns.map(r => ({
        kind: r.kind,
        namespace: r.namespace,
        labels: r.labels,
        suspend: r.suspend,
        annotations: r.annotations,
        interval: r.interval,
        lastReconcileDurationMs: r.lastReconcileDurationMs,
      })),
    );
    expect(await index.clusterCapacityRecordsInTurns('elsewhere')).toEqual([]);
    fleet.close();
  });

  it('leaves out of a page what the read filter refuses, counting only what it lets through', () => {
    const { index, fleet } = labFleet();
    const page = index.objects({}, o => o.key.endsWith('/labelled') || o.key.endsWith('/remote'));
    expect(page.items.map(o => o.ref.name)).toEqual(['labelled', 'remote']);
    expect(page.totalCount).toBe(2);
    fleet.close();
  });
});
