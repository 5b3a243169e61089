import { mockServices } from '@backstage/backend-test-utils';
import { FleetSim, startFleetSim } from '@flux-fleet/fleet-sim';
import { mergePatch } from '../__testUtils__/kubectl';
import { testWatchSettings } from '../__testUtils__/watchSettings';
import { ClusterClient } from './ClusterClient';
import { createKubeConfig } from './createKubeConfig';
import type { KubernetesRequestError } from './KubernetesRequestError';
import { InformerObserver, InformerSink, ResourceInformer } from './ResourceInformer';
import type { WatchedResource } from './WatchedResource';

jest.setTimeout(30_000);

const settings = testWatchSettings();

const KUSTOMIZATIONS = {
  group: 'kustomize.toolkit.fluxcd.io',
  version: 'v1',
  kind: 'Kustomization',
  plural: 'kustomizations',
};

/** A sink that keeps names, and an observer that records what happened when. */
function recorder() {
  const objects = new Map<string, unknown>();
  let seen: Set<string> | undefined;
  const key = (o: any) => `${o.metadata.namespace}/${o.metadata.name}`;
  const sink: InformerSink = {
    listStarted: () => {
      seen = new Set();
    },
    upsert: o => {
      objects.set(key(o), o);
      seen?.add(key(o));
    },
    remove: o => {
      objects.delete(key(o));
    },
    listFinished: () => {
      for (const k of objects.keys()) if (!seen?.has(k)) objects.delete(k);
      seen = undefined;
    },
  };
  const failures: Array<{ at: number; error: KubernetesRequestError; retryInMs: number }> = [];
  const lists: number[] = [];
  const observer: InformerObserver = {
    succeeded: () => {},
    failed: (_i, error, retryInMs) => failures.push({ at: Date.now(), error, retryInMs }),
    listed: () => lists.push(Date.now()),
    heard: () => {},
    vanished: () => {},
  };
  return { objects, sink, observer, failures, lists };
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 25));
  }
}

describe('ResourceInformer against the simulator', () => {
  let sim: FleetSim;
  let client: ClusterClient;
  let informer: ResourceInformer | undefined;
  const cluster = () => sim.clusters[0];

  beforeAll(async () => {
    sim = await startFleetSim({ size: 'S', seed: 3, port: 0, clusters: 1, services: 40 });
    client = new ClusterClient(
      cluster().name,
      createKubeConfig({
        name: cluster().name,
        url: cluster().server,
        auth: { type: 'serviceAccountToken', token: cluster().readOnlyToken },
        skipTLSVerify: false,
        configKey: 'test',
      }),
      settings.requestTimeoutMs,
    );
  });

  afterEach(async () => {
    informer?.stop();
    informer = undefined;
    await sim.setFault(cluster().name, { throttleRatio: 0, expireWatches: false });
  });

  afterAll(() => sim.close());

  function start(
    r: ReturnType<typeof recorder>,
    resource: WatchedResource = KUSTOMIZATIONS,
    watchSettings = settings,
  ) {
    informer = new ResourceInformer(
      resource,
      client,
      r.sink,
      r.observer,
      watchSettings,
      mockServices.logger.mock(),
    );
    informer.start();
    return informer;
  }

  const truthCount = () =>
    sim.truth().objects.filter(o => o.kind === 'Kustomization').length;

  it('lists every object page by page', async () => {
    const r = recorder();
    const i = start(r);
    await until('listed', () => i.synced);
    expect(truthCount()).toBeGreaterThan(settings.pageSize);
    expect(r.objects.size).toBe(truthCount());
  });

  it('lists and watches a metadata-only resource as PartialObjectMetadata', async () => {
    const deployments: WatchedResource = {
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      plural: 'deployments',
      labelSelector: 'backstage.io/kubernetes-id',
      metadataOnly: true,
    };
    const whole = await client.getJson<{ items: any[] }>('/apis/apps/v1/deployments', {
      labelSelector: 'backstage.io/kubernetes-id',
    });
    const pageSize = 20;
    expect(whole.items.length).toBeGreaterThan(pageSize);
    const r = recorder();
    const i = start(r, deployments, { ...settings, pageSize });
    await until('listed', () => i.synced);
    const listed = [...r.objects.values()] as any[];
    expect(listed.map(o => `${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual(
      whole.items.map(o => `${o.metadata.namespace}/${o.metadata.name}`).sort(),
    );
    expect(listed.every(o => o.kind === 'PartialObjectMetadata' && o.spec === undefined)).toBe(true);
    const { namespace, name } = whole.items[0].metadata;
    const patched = await mergePatch(
      cluster().server,
      `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`,
      cluster().adminToken,
      { metadata: { labels: { 'metadata-only': 'watched' } } },
    );
    expect(patched.status).toBe(200);
    await until('the change watched', () => {
      const o = r.objects.get(`${namespace}/${name}`) as any;
      return o?.metadata?.labels?.['metadata-only'] === 'watched';
    });
    expect((r.objects.get(`${namespace}/${name}`) as any).kind).toBe('PartialObjectMetadata');
  });

  it("waits at least the server's Retry-After before retrying a throttled request", async () => {
    await sim.setFault(cluster().name, { throttleRatio: 1, retryAfterSeconds: 2 });
    const r = recorder();
    start(r);
    await until('three throttled attempts', () => r.failures.length >= 3, 15_000);
    expect(r.failures.every(f => f.error.status === 429)).toBe(true);
    expect(r.failures.every(f => f.retryInMs >= 2_000)).toBe(true);
    for (let n = 1; n < r.failures.length; n++) {
      // the next attempt came no sooner than Retry-After (the backoff alone would allow 1 s at most)
      expect(r.failures[n].at - r.failures[n - 1].at).toBeGreaterThanOrEqual(1_950);
    }
    await sim.setFault(cluster().name, { throttleRatio: 0 });
    await until('listed after the throttling ended', () => r.lists.length > 0, 5_000);
    expect(r.objects.size).toBe(truthCount());
  });

  it('lists again when its watch is gone (410), without looping', async () => {
    const r = recorder();
    const i = start(r);
    await until('listed', () => i.synced);
    await sim.setFault(cluster().name, { expireWatches: true });
    const started = Date.now();
    await until('a relist after 410', () => r.lists.length >= 2);
    await new Promise(res => setTimeout(res, 1_500));
    const listsWhileExpiring = r.lists.filter(t => t >= started).length;
    // every watch is refused with 410 while the fault lasts: relists slow down instead of spinning
    expect(listsWhileExpiring).toBeGreaterThanOrEqual(1);
    expect(listsWhileExpiring).toBeLessThan(10);
    expect(r.failures.some(f => f.error.gone)).toBe(true);
    // a change made while watches expire still arrives, through the relists
    const [key, object] = [...r.objects.entries()][0] as [string, any];
    const patched = await mergePatch(
      cluster().server,
      `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${object.metadata.namespace}/kustomizations/${object.metadata.name}`,
      cluster().adminToken,
      { metadata: { labels: { 'flux-fleet.test/relisted': 'yes' } } },
    );
    expect(patched.status).toBe(200);
    await until('the change seen through a relist', () =>
      (r.objects.get(key) as any)?.metadata?.labels?.['flux-fleet.test/relisted'] === 'yes',
    );
    await sim.setFault(cluster().name, { expireWatches: false });
    expect(r.objects.size).toBe(truthCount());
  });
});
