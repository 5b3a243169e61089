import {
  CustomObjectsApi,
  makeInformer,
  Watch,
  type KubernetesObject,
} from '@kubernetes/client-node';
import {
  call,
  eventually,
  kubeConfigFor,
  kustomizationManifest,
} from '../__testUtils__/fleetClients';
import { startFleetSim, type FleetSim, type SimCluster } from '../fleetSim';

const GROUP = 'kustomize.toolkit.fluxcd.io';
const KS = `/apis/${GROUP}/v1`;

describe('watches', () => {
  let sim: FleetSim;
  let cluster: SimCluster;

  beforeAll(async () => {
    sim = await startFleetSim({
      clusters: 1,
      services: 40,
      seed: 3,
      bookmarkIntervalMs: 150,
      watchWindow: 50,
      reactionDelayMs: [10, 30],
    });
    cluster = sim.clusters[0];
  });
  afterAll(() => sim.close());

  const patchLabels = (name: string, labels: Record<string, string | null>) =>
    call(cluster, `${KS}/namespaces/team-shop/kustomizations/${name}`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels } },
    });

  it('feed a client-node informer: add, update, delete, bookmarks, and a relist after a forced 410', async () => {
    const kc = kubeConfigFor(cluster);
    const api = kc.makeApiClient(CustomObjectsApi);
    let lists = 0;
    const informer = makeInformer<KubernetesObject>(
      kc,
      // Asking for bookmarks through the path: client-node's ListWatch does not ask by itself.
      `${KS}/kustomizations?allowWatchBookmarks=true`,
      () => {
        lists++;
        return api.listClusterCustomObject({
          group: GROUP,
          version: 'v1',
          plural: 'kustomizations',
        }) as any;
      },
    );
    const seen: string[] = [];
    informer.on('add', o => seen.push(`add ${o.metadata!.name}`));
    informer.on('update', o => seen.push(`update ${o.metadata!.name}`));
    informer.on('delete', o => seen.push(`delete ${o.metadata!.name}`));
    informer.on('error', () => {});
    await informer.start();
    try {
      const initial = informer.list().length;
      expect(initial).toBeGreaterThan(40);

      await call(cluster, `${KS}/namespaces/team-shop/kustomizations`, {
        method: 'POST',
        body: kustomizationManifest('team-shop', 'informed'),
      });
      await eventually(() =>
        seen.includes('add informed') ? true : undefined,
      );
      await patchLabels('informed', { stage: 'two' });
      await eventually(() =>
        informer.get('informed', 'team-shop')?.metadata?.labels?.stage === 'two'
          ? true
          : undefined,
      );
      expect(seen).toContain('update informed');

      // A change to another kind moves the cluster's resourceVersion; only a bookmark can tell the informer.
      const other = await call(
        cluster,
        '/apis/source.toolkit.fluxcd.io/v1/namespaces/team-shop/gitrepositories/shop-apps',
        {
          method: 'PATCH',
          contentType: 'application/merge-patch+json',
          body: { metadata: { labels: { touched: 'yes' } } },
        },
      );
      const clusterVersion = Number(other.body.metadata.resourceVersion);
      // client-node's informer is a ListWatch, which tracks the last resourceVersion it saw (its type hides it).
      const tracked = informer as unknown as {
        latestResourceVersion(): string;
      };
      await eventually(() =>
        Number(tracked.latestResourceVersion()) >= clusterVersion
          ? true
          : undefined,
      );

      // Every open watch expires: the informer relists and keeps working.
      const listsBefore = lists;
      await sim.setFault(cluster.name, { expireWatches: true });
      await sim.setFault(cluster.name, { expireWatches: false });
      await eventually(() => (lists > listsBefore ? true : undefined));
      await call(cluster, `${KS}/namespaces/team-shop/kustomizations`, {
        method: 'POST',
        body: kustomizationManifest('team-shop', 'after-relist'),
      });
      await eventually(() =>
        informer.get('after-relist', 'team-shop') ? true : undefined,
      );

      await call(
        cluster,
        `${KS}/namespaces/team-shop/kustomizations/informed`,
        { method: 'DELETE' },
      );
      await eventually(() =>
        seen.includes('delete informed') ? true : undefined,
      );
      expect(informer.list().length).toBe(initial + 1);
    } finally {
      await informer.stop();
    }
  });

  it('sends BOOKMARK events only to watches that allow them', async () => {
    const rv = (await call(cluster, `${KS}/kustomizations?limit=1`)).body
      .metadata.resourceVersion;
    const collect = async (allow: boolean) => {
      const types: string[] = [];
      const watch = new Watch(kubeConfigFor(cluster));
      const controller = await watch.watch(
        `${KS}/kustomizations`,
        { resourceVersion: rv, allowWatchBookmarks: allow },
        type => types.push(type),
        () => {},
      );
      await new Promise(r => setTimeout(r, 1000));
      controller.abort();
      return types;
    };
    expect(
      (await collect(true)).filter(t => t === 'BOOKMARK').length,
    ).toBeGreaterThanOrEqual(2);
    expect(await collect(false)).not.toContain('BOOKMARK');
  });

  it('answers 410 Gone when a watch starts before the retained window', async () => {
    const start = (await call(cluster, `${KS}/kustomizations?limit=1`)).body
      .metadata.resourceVersion;
    for (let i = 0; i < 60; i++)
      await patchLabels('checkout', { round: String(i) });
    const errors: any[] = [];
    let ended = false;
    await new Watch(kubeConfigFor(cluster)).watch(
      `${KS}/kustomizations`,
      { resourceVersion: start },
      (type, object) => {
        if (type === 'ERROR') errors.push(object);
      },
      () => {
        ended = true;
      },
    );
    await eventually(() => (ended ? true : undefined));
    expect(errors).toHaveLength(1);
    expect([errors[0].code, errors[0].reason]).toEqual([410, 'Expired']);
    expect(errors[0].message).toMatch(
      /^too old resource version: \d+ \(\d+\)$/,
    );
  });

  it('turns label changes into ADDED and DELETED for a selector, and ends at timeoutSeconds', async () => {
    const rv = (await call(cluster, `${KS}/kustomizations?limit=1`)).body
      .metadata.resourceVersion;
    const events: string[] = [];
    let ended = false;
    const startedAt = Date.now();
    await new Watch(kubeConfigFor(cluster)).watch(
      `${KS}/namespaces/team-shop/kustomizations`,
      { resourceVersion: rv, labelSelector: 'watched=yes', timeoutSeconds: 1 },
      (type, object) => events.push(`${type} ${object.metadata.name}`),
      () => {
        ended = true;
      },
    );
    await patchLabels('checkout', { watched: 'yes' });
    await patchLabels('checkout', { note: 'still watched' });
    await patchLabels('checkout', { watched: 'no' });
    await eventually(() => (ended ? true : undefined), 3000);
    expect(events).toEqual([
      'ADDED checkout',
      'MODIFIED checkout',
      'DELETED checkout',
    ]);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
  });

  it('sends metadata-only objects to a watch that asks for PartialObjectMetadata, bookmarks too', async () => {
    const rv = (await call(cluster, `${KS}/kustomizations?limit=1`)).body
      .metadata.resourceVersion;
    const answer = call(
      cluster,
      `${KS}/namespaces/team-shop/kustomizations?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=1`,
      { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' },
    );
    await new Promise(resolve => setTimeout(resolve, 100));
    await patchLabels('checkout', { metadataWatch: 'yes' });
    const { headers, body } = await answer;
    expect(headers.get('content-type')).toBe(
      'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
    );
    const events = String(body)
      .split('\n')
      .filter(Boolean)
      .map(line => JSON.parse(line));
    const modified = events.find(
      e => e.type === 'MODIFIED' && e.object.metadata.name === 'checkout',
    );
    expect(modified.object.kind).toBe('PartialObjectMetadata');
    expect(modified.object.apiVersion).toBe('meta.k8s.io/v1');
    expect(modified.object.metadata.labels.metadataWatch).toBe('yes');
    expect(Object.keys(modified.object).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    const bookmark = events.find(e => e.type === 'BOOKMARK');
    expect(bookmark.object.kind).toBe('PartialObjectMetadata');
  });
});
