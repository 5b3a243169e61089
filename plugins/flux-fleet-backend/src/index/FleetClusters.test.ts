import {
  deployment,
  DEPLOYMENTS,
  KUSTOMIZATIONS,
  kustomization,
  kustomizeControllerDeployment,
  testFleet,
  watchedTestFleet,
  watchHealth,
  TEST_ANALYSIS,
  watchProbe,
} from '../__testUtils__/fluxFixtures';
import { mockServices } from '@backstage/backend-test-utils';
import { NAMESPACES } from '../watch/supportingResources';
import { STATUS_BATCH_MS } from './AnalysisScheduler';
import { FIRST_SYNC_PRIORITY_MS, FleetClusters, SERVED_HEALTH_MAX_AGE_MS } from './FleetClusters';
import { FleetIndex } from './FleetIndex';

const T0 = Date.parse('2026-07-14T10:00:00Z');
const KEY = 'lab/apps/Kustomization/payments';

describe('FleetClusters', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0 }));
  afterEach(() => jest.useRealTimers());

  /** A cluster `lab` watched by a fake watch whose health the test sets. */
  function watchedLab() {
    const { fleet, index, setHealth } = watchedTestFleet('lab', watchHealth(false));
    const changes: string[][] = [];
    /** Health announcements: changes without keys (rules §15). */
    const announced: string[] = [];
    /** Staleness flips: every object of the cluster changed, said once (with the cluster's services). */
    const flips: Array<boolean | undefined> = [];
    fleet.subscribe(batch => {
      for (const c of batch) {
        if (c.everyObject) flips.push(index.object(KEY)?.stale);
        else if (c.keys.length > 0) changes.push(c.keys);
        else announced.push(index.clusters()[0].status);
      }
    });
    return { fleet, index, setHealth, changes, announced, flips };
  }

  it('holds the first analysis until the first list is complete, then analyses at once', async () => {
    const { fleet, index, setHealth } = watchedLab();
    fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(kustomization('payments'));
    jest.advanceTimersByTime(5_000);
    expect(index.summary().objects).toBe(0);
    setHealth(watchHealth(true));
    expect(index.summary().objects).toBe(1);
    await expect(fleet.ready()).resolves.toBeUndefined();
    expect(index.clusters()[0]).toMatchObject({ name: 'lab', status: 'synced', synced: true, objectCount: 1 });
    fleet.close();
  });

  it('marks every object stale while the cluster is unreachable, since it became so, and announces both flips', () => {
    const { fleet, index, setHealth, changes, flips } = watchedLab();
    fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(kustomization('payments'));
    setHealth(watchHealth(true));
    expect(index.object(KEY)).toMatchObject({ stale: false });
    const since = T0 - 60_000;
    changes.length = 0;
    setHealth({ ...watchHealth(false), connection: { status: 'unreachable', since, unreachableSince: since } });
    expect(index.object(KEY)).toMatchObject({ stale: true, staleSince: new Date(since).toISOString() });
    setHealth(watchHealth(true));
    expect(index.object(KEY)).toMatchObject({ stale: false });
    // each flip is one change for the whole cluster rather than one naming every object's key
    expect(flips).toEqual([true, false]);
    expect(changes).toEqual([]);
    fleet.close();
  });

  it('serves a restored snapshot at once as restored and stale, until the watch has synced', () => {
    const { fleet, index } = testFleet(['lab']);
    const record = (() => {
      const store = testFleet(['other']).fleet.storeOf('other');
      store.flux(KUSTOMIZATIONS).upsert(kustomization('payments'));
      return store.objects.get('other/apps/Kustomization/payments')!;
    })();
    const restoredAt = T0 - 3_600_000;
    fleet.restore(
      'lab',
      {
        format: 1,
        objects: [{ ...record, key: KEY, cluster: 'lab' }],
        updatedAt: [restoredAt - 1_000],
        controllers: [],
        namespaces: [],
        workloads: [],
        events: [],
      },
      { restoredAt },
    );
    expect(index.clusters()[0].status).toBe('restored');
    expect(index.object(KEY)).toMatchObject({
      stale: true,
      staleSince: new Date(restoredAt).toISOString(),
      updatedAt: new Date(restoredAt - 1_000).toISOString(),
    });
    let health = watchHealth(false);
    fleet.attachWatch('lab', watchProbe(() => health));
    health = watchHealth(true);
    fleet.connectionChanged('lab');
    expect(index.clusters()[0].status).toBe('synced');
    expect(index.object(KEY)?.stale).toBe(false);
    fleet.close();
  });

  it('shows the health another replica reports for a cluster it watches, and stops when this one watches it', () => {
    const { fleet, index } = testFleet(['lab']);
    const remote = { ...index.clusters()[0], status: 'unreachable' as const, synced: false };
    fleet.setRemoteHealth('lab', remote);
    expect(fleet.remoteHealth('lab')).toBe(remote);
    expect(index.clusters()[0].status).toBe('unreachable');
    expect(fleet.isWatching('lab')).toBe(false);
    fleet.attachWatch('lab', watchProbe(() => watchHealth(false)));
    expect(fleet.isWatching('lab')).toBe(true);
    expect(fleet.remoteHealth('lab')).toBeUndefined();
    // what it shows came from the other replica: restored until this watch has synced
    expect(index.clusters()[0].status).toBe('restored');
    fleet.detachWatch('lab');
    expect(fleet.isWatching('lab')).toBe(false);
    fleet.close();
  });

  it('reports the first sync of the clusters this replica watches, not those another watches, for at most ten minutes', () => {
    const { fleet } = testFleet(['a', 'b', 'remote']);
    // nothing watched here yet: nothing to wait for
    expect(fleet.firstSyncProgress()).toBeUndefined();
    const health = new Map([
      ['a', watchHealth(false)],
      ['b', watchHealth(false)],
    ]);
    for (const name of ['a', 'b']) fleet.attachWatch(name, watchProbe(() => health.get(name)!));
    expect(fleet.firstSyncProgress()).toEqual({ done: 0, clusters: 2 });
    health.set('a', watchHealth(true));
    fleet.connectionChanged('a');
    expect(fleet.firstSyncProgress()).toEqual({ done: 1, clusters: 2 });
    // `remote` still waits for another replica's snapshot: it does not hold this replica back
    health.set('b', watchHealth(true));
    fleet.connectionChanged('b');
    expect(fleet.firstSyncProgress()).toBeUndefined();
    fleet.close();

    const stuck = testFleet(['a']).fleet;
    stuck.attachWatch('a', watchProbe(() => watchHealth(false)));
    jest.advanceTimersByTime(FIRST_SYNC_PRIORITY_MS);
    expect(stuck.firstSyncProgress()).toEqual({ done: 0, clusters: 1 });
    jest.advanceTimersByTime(1);
    expect(stuck.firstSyncProgress()).toBeUndefined();
    stuck.close();
  });

  it('ends the first sync as soon as an answer shows every cluster synced, not at the next health check', () => {
    const { fleet, index } = testFleet(['a']);
    let health = watchHealth(false);
    fleet.attachWatch('a', watchProbe(() => health));
    expect(fleet.firstSyncProgress()).toEqual({ done: 0, clusters: 1 });
    // synced with time, no event: the clusters' answer says synced, so the capacity reasons must not say syncing
    health = watchHealth(true);
    expect(index.clusters()[0].synced).toBe(true);
    expect(fleet.firstSyncProgress()).toBeUndefined();
    fleet.close();
  });

  it('writes a snapshot only of a synced, analysed cluster this replica watches', () => {
    const { fleet, setHealth } = watchedLab();
    fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(kustomization('payments'));
    expect(fleet.snapshotOf('lab')).toBeUndefined();
    setHealth(watchHealth(true));
    const snapshot = fleet.snapshotOf('lab')!;
    expect(snapshot.health.synced).toBe(true);
    expect(snapshot.source.keys).toEqual([KEY]);
    expect(snapshot.source.read(KEY)?.record.name).toBe('payments');
    fleet.close();
  });

  it('is lagging, not synced, while a watch relists after 410 Gone, and announces each change of status once', () => {
    const { fleet, index, setHealth, announced } = watchedLab();
    fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(kustomization('payments'));
    setHealth(watchHealth(true));
    const relisting = {
      ...watchHealth(true),
      watches: [{ watch: 'Kustomization', listed: true, behindSince: Date.now(), reason: 'relisting' as const }],
    };
    setHealth(relisting);
    expect(index.clusters()[0]).toMatchObject({
      status: 'lagging',
      synced: false,
      lagMs: 0,
      behind: [{ watch: 'Kustomization', reason: 'relisting', lagMs: 0 }],
    });
    expect(index.object(KEY)?.stale).toBe(false);
    setHealth(relisting);
    setHealth(watchHealth(true));
    expect(index.clusters()[0]).toMatchObject({ status: 'synced', synced: true, lagMs: 0 });
    expect(announced).toEqual(['synced', 'lagging', 'synced']);
    fleet.close();
  });

  it('serves a health read earlier only while nothing of the cluster changed, for at most half a second', () => {
    const { fleet, index, setHealth } = watchedLab();
    setHealth(watchHealth(true));
    const first = index.clusters()[0];
    expect(first).toMatchObject({ status: 'synced', objectCount: 0 });
    jest.advanceTimersByTime(SERVED_HEALTH_MAX_AGE_MS - 1);
    // the same answer, not read again
    expect(index.clusters()[0]).toBe(first);
    jest.advanceTimersByTime(1);
    const second = index.clusters()[0];
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    // an object came: its count is served at once
    fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(kustomization('payments'));
    jest.advanceTimersByTime(TEST_ANALYSIS.debounceMs);
    expect(index.clusters()[0]).toMatchObject({ objectCount: 1, countsByKind: { Kustomization: 1 } });
    // the connection changed: the status is served at once, and the same by every route
    const since = Date.now();
    setHealth({ ...watchHealth(false), connection: { status: 'unreachable', since, unreachableSince: since } });
    expect(index.clusters()[0]).toMatchObject({ status: 'unreachable', synced: false });
    expect(index.clusterStatus('lab')).toBe('unreachable');
    expect(index.summary().clustersUnreachable).toBe(1);
    fleet.close();
  });

  it('marks the objects of a throttled cluster stale once its lag passes 10 s, without any event, since it fell behind', () => {
    const { fleet, index, setHealth } = watchedLab();
    fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(kustomization('payments'));
    setHealth(watchHealth(true));
    const behindSince = Date.now();
    setHealth({
      ...watchHealth(true),
      watches: [{ watch: 'Kustomization', listed: true, behindSince, reason: 'throttled' }],
    });
    jest.advanceTimersByTime(9_000);
    expect(index.clusters()[0]).toMatchObject({ status: 'lagging', lagMs: 9_000 });
    expect(index.object(KEY)?.stale).toBe(false);
    // only the health timer looks again: no watch event arrives while throttled
    jest.advanceTimersByTime(2_000);
    expect(index.object(KEY)).toMatchObject({ stale: true, staleSince: new Date(behindSince).toISOString() });
    setHealth(watchHealth(true));
    expect(index.object(KEY)?.stale).toBe(false);
    fleet.close();
  });

  /**
   * `lab` synced with one Kustomization whose reconcile was requested at T0 (not handled from T0 + 5 min), and
   * with `withController` the kustomize-controller that reconciles it (estimated far within capacity).
   * `handled(at)` writes its status as its controller does: the request it handled last.
   */
  function labWithPendingRequest(clusters = ['lab'], withController = false) {
    const { fleet, index } = testFleet(clusters);
    const health: Record<string, ReturnType<typeof watchHealth>> = {};
    for (const name of clusters) {
      health[name] = watchHealth(false);
      fleet.attachWatch(name, watchProbe(() => health[name]));
    }
    const requested = kustomization('payments');
    (requested.metadata as Record<string, unknown>).annotations = {
      'reconcile.fluxcd.io/requestedAt': new Date(T0).toISOString(),
    };
    fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(requested);
    if (withController) {
      fleet.storeOf('lab').supporting('controllers', DEPLOYMENTS).upsert(kustomizeControllerDeployment());
    }
    const sync = (name: string) => {
      health[name] = watchHealth(true);
      fleet.connectionChanged(name);
    };
    sync('lab');
    const analysedAt = () => fleet.entry('lab').view.analysedAt;
    const findings = () => fleet.entry('lab').view.findings.map(f => f.type);
    const handled = (at: string) => {
      const raw = structuredClone(requested);
      (raw.status as Record<string, unknown>).lastHandledReconcileAt = at;
      fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(raw);
    };
    return { fleet, index, sync, analysedAt, findings, handled };
  }

  it('re-derives the reconcile-not-handled finding with the status that handles a request, without an analysis (rules §2a)', () => {
    const { fleet, index, findings, handled } = labWithPendingRequest();
    const analyses = () => fleet.entry('lab').view.analysis;
    const objectFindings = () => index.object(KEY)?.findings;
    jest.advanceTimersByTime(6 * 60_000);
    // as analysed: with the findings it has besides (no controller, no source), in the analysis's order
    const analysedFindings = fleet.entry('lab').view.findings;
    expect(objectFindings()).toEqual(['orphan', 'reconcile-not-handled', 'missing-source']);
    const analysed = analyses();
    // the controller handles the request: the finding goes with the status pass, the analysis stays as it was
    handled(new Date(T0).toISOString());
    jest.advanceTimersByTime(STATUS_BATCH_MS);
    expect(findings()).toEqual(['orphan', 'missing-source']);
    expect(objectFindings()).toEqual(['orphan', 'missing-source']);
    expect(index.objects({ finding: ['reconcile-not-handled'] }).items).toEqual([]);
    expect(index.summary().findingsByType['reconcile-not-handled']).toBeUndefined();
    // a status that handled another request leaves this one pending for 6 minutes now: the finding is back
    handled('2026-07-14T09:00:00Z');
    jest.advanceTimersByTime(STATUS_BATCH_MS);
    expect(objectFindings()).toEqual(['orphan', 'reconcile-not-handled', 'missing-source']);
    expect(index.objects({ finding: ['reconcile-not-handled'] }).items.map(o => o.key)).toEqual([KEY]);
    const now = fleet.entry('lab').view.findings;
    expect(now.map(f => f.type)).toEqual(analysedFindings.map(f => f.type));
    expect(now.find(f => f.type === 'reconcile-not-handled')?.message).toContain(
      'the last request handled was 2026-07-14T09:00:00Z',
    );
    expect(analyses()).toBe(analysed);
    fleet.close();
  });

  it('refreshes for the time at which a request that a status change left pending becomes not handled', () => {
    const { fleet, findings, handled } = labWithPendingRequest();
    // handled at once, and analysed so (another object came): nothing will change by time
    handled(new Date(T0).toISOString());
    fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(kustomization('orders'));
    jest.advanceTimersByTime(60_000);
    expect(fleet.entry('lab').analysed?.changesByTimeAt).toBeUndefined();
    // a status that says an older request was the last handled leaves the one of T0 pending, not handled from
    // T0 + 5 min: the refresh after that analyses, well before 10 intervals
    handled('2026-07-14T09:00:00Z');
    jest.advanceTimersByTime(STATUS_BATCH_MS);
    expect(findings()).not.toContain('reconcile-not-handled');
    const analysed = fleet.entry('lab').view.analysis;
    jest.advanceTimersByTime(5 * 60_000);
    expect(fleet.entry('lab').view.analysis).toBe(analysed + 1);
    expect(findings()).toContain('reconcile-not-handled');
    fleet.close();
  });

  it("refreshes a synced cluster's analysis for time only once no cluster of the fleet is in its first sync", () => {
    const { fleet, sync, analysedAt, findings } = labWithPendingRequest(['lab', 'edge']);
    const listedAt = analysedAt();
    expect(listedAt).toBe(Date.now());
    // edge still lists for the first time: lab's refresh, due at T0 + 5 min, waits
    jest.advanceTimersByTime(6 * 60_000);
    expect(analysedAt()).toBe(listedAt);
    expect(findings()).not.toContain('reconcile-not-handled');
    sync('edge');
    jest.advanceTimersByTime(TEST_ANALYSIS.refreshIntervalMs);
    expect(analysedAt()).toBeGreaterThan(listedAt!);
    expect(findings()).toContain('reconcile-not-handled');
    fleet.close();
  });

  it('analyses a synced cluster again only when a time its last analysis named has come or 10 intervals passed, and follows new measurements without one (rules §2a)', () => {
    const { fleet, analysedAt, findings } = labWithPendingRequest(['lab'], true);
    let measured = new Map([['flux-system/kustomize-controller', 0.4]]);
    fleet.useMeasuredUtilisation(() => measured);
    const analyses = () => fleet.entry('lab').view.analysis;
    const first = analyses();
    // refreshes before T0 + 5 min find nothing changed: no analysis; nor do the first measurements, all within
    // capacity where the estimates are too (the analysis would come out the same)
    jest.advanceTimersByTime(5 * 60_000);
    expect(analyses()).toBe(first);
    expect(findings()).not.toContain('reconcile-not-handled');
    // the request's 5 minutes passed: the next refresh analyses, and the finding is there
    jest.advanceTimersByTime(60_000);
    expect(analyses()).toBe(first + 1);
    expect(findings()).toContain('reconcile-not-handled');
    // a new measurement within capacity changes nothing the analysis reads
    measured = new Map([['flux-system/kustomize-controller', 0.6]]);
    jest.advanceTimersByTime(60_000);
    expect(analyses()).toBe(first + 1);
    // one over capacity does: the shard's finding comes at the next refresh, without an analysis
    const version = fleet.clusterVersion('lab');
    measured = new Map([['flux-system/kustomize-controller', 1.5]]);
    jest.advanceTimersByTime(60_000);
    expect(analyses()).toBe(first + 1);
    const overCapacity = () => fleet.entry('lab').view.findings.find(f => f.type === 'shard-over-capacity')?.message;
    expect(overCapacity()).toContain('a measured 150 %');
    expect(fleet.clusterVersion('lab')).toBeGreaterThan(version);
    // its percent follows the measurements; back within capacity, the finding goes
    measured = new Map([['flux-system/kustomize-controller', 1.2]]);
    jest.advanceTimersByTime(60_000);
    expect(overCapacity()).toContain('a measured 120 %');
    measured = new Map([['flux-system/kustomize-controller', 0.5]]);
    jest.advanceTimersByTime(60_000);
    expect(findings()).not.toContain('shard-over-capacity');
    expect(findings()).toContain('reconcile-not-handled');
    expect(analyses()).toBe(first + 1);
    // and with nothing changing, the cluster is still analysed every 10 intervals
    const at = analysedAt()!;
    jest.advanceTimersByTime(5 * 60_000);
    expect(analyses()).toBe(first + 1);
    jest.advanceTimersByTime(60_000);
    expect(analyses()).toBe(first + 2);
    expect(analysedAt()).toBe(at + 10 * 60_000);
    fleet.close();
  });

  it('names the cluster when asked for one it does not have', () => {
    const { fleet } = testFleet(['lab']);
    expect(() => fleet.storeOf('prod')).toThrow("Flux Fleet has no cluster named 'prod'");
    fleet.close();
  });

  it('keeps telling the other listeners when one of them throws', () => {
    const { fleet, setHealth, changes } = watchedLab();
    fleet.subscribe(() => {
      throw new Error('broken listener');
    });
    fleet.storeOf('lab').flux(KUSTOMIZATIONS).upsert(kustomization('payments'));
    setHealth(watchHealth(true));
    expect(changes).toEqual([[KEY]]);
    fleet.close();
  });

  it("gives each cluster its configured environment, else its kube-system label's, following a label change (rules §11)", () => {
    const fleet = new FleetClusters({
      clusters: ['configured', 'labelled'],
      tenants: [],
      analysis: TEST_ANALYSIS,
      eventsPerObject: 5,
      logger: mockServices.logger.mock(),
      environments: new Map([['configured', 'prod']]),
    });
    const index = new FleetIndex(fleet, []);
    const label = (cluster: string, environment: string) =>
      fleet
        .storeOf(cluster)
        .supporting('namespaces', NAMESPACES)
        .upsert({ metadata: { name: 'kube-system', labels: { 'flux-fleet.io/environment': environment } } });
    label('configured', 'staging');
    label('labelled', 'staging');
    jest.advanceTimersByTime(1_000);
    const environments = () =>
      Object.fromEntries(index.clusters().map(c => [c.name, [c.environment, c.environmentSource]]));
    expect(environments()).toEqual({
      configured: ['prod', { from: 'config' }],
      labelled: ['staging', { from: 'label', namespace: 'kube-system' }],
    });
    label('labelled', 'qa');
    jest.advanceTimersByTime(1_000);
    expect(environments().labelled).toEqual(['qa', { from: 'label', namespace: 'kube-system' }]);
    fleet.close();
  });

  it('sends a supporting list in a delta only when it changed since the last delta', () => {
    const { fleet, setHealth } = watchedLab();
    const store = fleet.storeOf('lab');
    const deployments = store.supporting('workloads', DEPLOYMENTS);
    store.flux(KUSTOMIZATIONS).upsert(kustomization('payments'));
    deployments.upsert(deployment('api', { 'backstage.io/kubernetes-id': 'api' }));
    setHealth(watchHealth(true));
    const sent = {};
    const lists = () => {
      const delta = fleet.deltaOf('lab', [KEY], sent)!;
      return [delta.controllers !== undefined, delta.namespaces !== undefined, delta.workloads];
    };
    expect(lists()).toEqual([
      true,
      true,
      [{ id: 'apps_api_apps_Deployment', kubernetesId: 'api', labels: { 'backstage.io/kubernetes-id': 'api' } }],
    ]);
    expect(lists()).toEqual([false, false, undefined]);
    // the same workload again is no change; new labels are
    deployments.upsert(deployment('api', { 'backstage.io/kubernetes-id': 'api' }));
    expect(lists()).toEqual([false, false, undefined]);
    deployments.upsert(deployment('api', { 'backstage.io/kubernetes-id': 'api-v2' }));
    expect(lists()[2]).toEqual([
      { id: 'apps_api_apps_Deployment', kubernetesId: 'api-v2', labels: { 'backstage.io/kubernetes-id': 'api-v2' } },
    ]);
    expect(lists()).toEqual([false, false, undefined]);
    fleet.close();
  });
});
