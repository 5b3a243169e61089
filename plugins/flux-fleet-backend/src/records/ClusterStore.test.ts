import { mockServices } from '@backstage/backend-test-utils';
import { ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import { deployment, DEPLOYMENTS, KUSTOMIZATIONS, kustomization } from '../__testUtils__/fluxFixtures';
import { WORKLOADS } from '../watch/supportingResources';
import { ClusterStore } from './ClusterStore';

function storeOf() {
  const logger = mockServices.logger.mock();
  const changes: number[] = [];
  const store = new ClusterStore('lab', new ValuePool(), logger, 3, () => changes.push(changes.length));
  return { store, logger, changes };
}

const KEY = 'lab/apps/Kustomization/payments';

describe('ClusterStore', () => {
  it('classifies what changed: a new object is structural, a new Ready condition is status only', () => {
    const { store, changes } = storeOf();
    const sink = store.flux(KUSTOMIZATIONS);
    sink.upsert(kustomization('payments'));
    expect(store.peekChanges().structural).toBe(true);
    expect(store.commit().changedKeys).toEqual(new Set([KEY]));
    sink.upsert(kustomization('payments', { ready: { status: 'False', reason: 'BuildFailed', message: 'x' } }));
    const status = store.commit();
    expect(status.structural).toBe(false);
    expect(status.statusKeys).toEqual(new Set([KEY]));
    // the same object again changes nothing, and tells no one
    const before = changes.length;
    sink.upsert(kustomization('payments', { ready: { status: 'False', reason: 'BuildFailed', message: 'x' } }));
    expect(changes.length).toBe(before);
    expect(store.commit().changedKeys.size).toBe(0);
  });

  it('serves a changed record only once it is committed', () => {
    const { store } = storeOf();
    const sink = store.flux(KUSTOMIZATIONS);
    sink.upsert(kustomization('payments'));
    store.commit();
    const slot = store.objects.slotOf(KEY)!;
    sink.upsert(kustomization('payments', { ready: { status: 'False', reason: 'BuildFailed', message: 'x' } }));
    // the derived view reads the committed record: still the Ready one
    expect(store.objects.readyMessageAt(slot)).toBe('Applied');
    expect(store.objects.get(KEY)?.ready?.status).toBe('False');
    store.commit();
    expect(store.objects.readyMessageAt(slot)).toBe('x');
  });

  it('commits status changes alone while structural ones wait for their analysis', () => {
    const { store } = storeOf();
    const sink = store.flux(KUSTOMIZATIONS);
    sink.upsert(kustomization('payments'));
    sink.upsert(kustomization('search'));
    store.commit();
    const payments = store.objects.slotOf(KEY)!;
    const search = store.objects.slotOf('lab/apps/Kustomization/search')!;
    const failed = { ready: { status: 'False', reason: 'BuildFailed', message: 'x' } };
    // search's labels change (structural), then its status too; payments' status alone changes
    sink.upsert(kustomization('search', { labels: { team: 'search' } }));
    sink.upsert(kustomization('search', { labels: { team: 'search' }, ...failed }));
    sink.upsert(kustomization('payments', failed));
    const status = store.commitStatus();
    expect(status).toMatchObject({ structural: false, statusKeys: new Set([KEY]), changedKeys: new Set([KEY]) });
    expect(store.objects.readyMessageAt(payments)).toBe('x');
    // search is served as it was until the analysis commits it
    expect(store.objects.readyMessageAt(search)).toBe('Applied');
    expect(store.peekChanges()).toMatchObject({ structural: true, statusKeys: new Set() });
    const analysed = store.commit();
    expect(analysed.changedKeys).toEqual(new Set(['lab/apps/Kustomization/search']));
    expect(store.objects.readyMessageAt(search)).toBe('x');
    expect(store.objects.labelsAt(search)).toEqual({ team: 'search' });
  });

  it('keeps a deleted object’s slot until the view no longer holds it, then gives it to a new object', () => {
    const { store } = storeOf();
    const sink = store.flux(KUSTOMIZATIONS);
    sink.upsert(kustomization('payments'));
    store.commit();
    const slot = store.objects.slotOf(KEY)!;
    sink.remove(kustomization('payments'));
    expect(store.commit()).toMatchObject({ structural: true, changedKeys: new Set([KEY]) });
    store.release(s => s === slot);
    sink.upsert(kustomization('search'));
    expect(store.objects.slotOf('lab/apps/Kustomization/search')).not.toBe(slot);
    store.release(() => false);
    sink.upsert(kustomization('orders'));
    expect(store.objects.slotOf('lab/apps/Kustomization/orders')).toBe(slot);
  });

  it('drops the objects a new list no longer has', () => {
    const { store } = storeOf();
    const sink = store.flux(KUSTOMIZATIONS);
    sink.listStarted();
    sink.upsert(kustomization('payments'));
    sink.upsert(kustomization('search'));
    sink.listFinished();
    sink.listStarted();
    sink.upsert(kustomization('search'));
    sink.listFinished();
    expect(store.objects.has(KEY)).toBe(false);
    expect(store.objects.has('lab/apps/Kustomization/search')).toBe(true);
  });

  it('skips a malformed object with a message naming it, and keeps the others', () => {
    const { store, logger } = storeOf();
    const sink = store.flux(KUSTOMIZATIONS);
    sink.upsert({ kind: 'Kustomization', metadata: { namespace: 'apps' } });
    sink.upsert(kustomization('payments'));
    expect(store.objects.size).toBe(1);
    expect([...store.malformed.keys()]).toEqual(['Kustomization apps/?']);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining("Flux Fleet skips Kustomization apps/? of cluster 'lab': "));
    expect(store.malformedObjects.list()).toEqual([
      expect.objectContaining({ kind: 'Kustomization', namespace: 'apps', name: '?', disposition: 'skipped' }),
    ]);
  });

  it('logs each malformed object once, counts it until it is read clean or deleted', () => {
    const { store, logger } = storeOf();
    const sink = store.flux(KUSTOMIZATIONS);
    const wrong = { ...kustomization('payments'), spec: { ...kustomization('payments').spec, sourceRef: 'git' } };
    sink.upsert(wrong);
    sink.upsert(wrong);
    sink.upsert({ kind: 'Kustomization', metadata: { namespace: 'apps' } });
    sink.upsert({ kind: 'Kustomization', metadata: { namespace: 'apps' } });
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(/^Flux Fleet reads, ignoring what is wrong, Kustomization apps\/payments of cluster 'lab': spec.sourceRef/),
    );
    expect(store.malformedObjects.list().map(m => [m.name, m.disposition, m.key])).toEqual([
      ['?', 'skipped', undefined],
      ['payments', 'read', KEY],
    ]);
    sink.upsert(kustomization('payments'));
    expect(store.malformedObjects.size).toBe(1);
    sink.upsert(wrong);
    sink.remove(wrong);
    expect(store.malformedObjects.size).toBe(1);
  });

  it('counts a labelled workload as a structural change (it decides services)', () => {
    const { store } = storeOf();
    store.supporting('workloads', DEPLOYMENTS).upsert(deployment('api', { 'backstage.io/kubernetes-id': 'api' }));
    expect(store.commit().structural).toBe(true);
    expect([...store.workloads.keys()]).toHaveLength(1);
  });

  it('keeps the labels of workloads by inventory id, and a list of one kind removes only the missing ones of that kind', () => {
    const { store } = storeOf();
    const deployments = store.supporting('workloads', DEPLOYMENTS);
    const statefulSets = store.supporting('workloads', WORKLOADS.find(r => r.kind === 'StatefulSet')!);
    deployments.upsert(deployment('api', { 'backstage.io/kubernetes-id': 'api' }));
    deployments.upsert(deployment('web', { app: 'web' }));
    statefulSets.upsert({ ...deployment('db', { app: 'db' }), kind: 'StatefulSet' });
    expect(Object.fromEntries(store.workloads)).toEqual({
      'apps_api_apps_Deployment': { 'backstage.io/kubernetes-id': 'api' },
      'apps_web_apps_Deployment': { app: 'web' },
      'apps_db_apps_StatefulSet': { app: 'db' },
    });
    deployments.listStarted();
    deployments.upsert(deployment('api', { 'backstage.io/kubernetes-id': 'api' }));
    deployments.listFinished();
    expect([...store.workloads.keys()]).toEqual(['apps_api_apps_Deployment', 'apps_db_apps_StatefulSet']);
    // snapshots and deltas carry the kubernetes-id again, for a replica of the earlier version
    expect(store.persistedWorkloads()).toEqual([
      { id: 'apps_api_apps_Deployment', kubernetesId: 'api', labels: { 'backstage.io/kubernetes-id': 'api' } },
      { id: 'apps_db_apps_StatefulSet', kubernetesId: undefined, labels: { app: 'db' } },
    ]);
  });

  it('restores workloads from a snapshot of the earlier version, which held whole workload records', () => {
    const { store } = storeOf();
    const earlier = {
      cluster: 'lab',
      id: 'apps_api_apps_Deployment',
      namespace: 'apps',
      kind: 'Deployment',
      name: 'api',
      kubernetesId: 'api',
      labels: { 'backstage.io/kubernetes-id': 'api' },
    };
    store.restore({ objects: [], controllers: [], namespaces: [], workloads: [earlier] });
    expect(Object.fromEntries(store.workloads)).toEqual({
      'apps_api_apps_Deployment': { 'backstage.io/kubernetes-id': 'api' },
    });
  });
});
