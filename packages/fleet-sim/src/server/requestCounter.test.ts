import { call } from '../__testUtils__/fleetClients';
import { startFleetSim, type FleetSim } from '../fleetSim';

interface ClusterItem {
  name: string;
  metricsBytesServed: number;
  requests: {
    total: number;
    byUser: Record<string, number>;
    podProxyByUser: Record<string, number>;
    controllerLookupsByUser: Record<string, number>;
    watchesByUser: Record<string, number>;
    versionProbesByUser: Record<string, number>;
    accessReviewsByUser: Record<string, number>;
  };
}

describe('request counts on the admin API', () => {
  let sim: FleetSim;

  beforeAll(async () => {
    sim = await startFleetSim({ clusters: 2, services: 5, seed: 3 });
  });
  afterAll(() => sim.close());

  const clusterItem = async (name: string) => {
    const { items } = (await (
      await fetch(`${sim.adminUrl}/clusters`)
    ).json()) as { items: ClusterItem[] };
    return items.find(c => c.name === name)!;
  };
  const requestsOf = async (name: string) => (await clusterItem(name)).requests;

  it('counts every request a cluster receives by user, and none of another cluster', async () => {
    const [cluster, other] = sim.clusters;
    const before = await requestsOf(cluster.name);
    const otherBefore = await requestsOf(other.name);
    const ks = '/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations';
    await call(cluster, ks);
    await call(cluster, `${ks}?limit=1`);
    await call(cluster, ks, { token: cluster.readOnlyToken });
    expect((await call(cluster, ks, { token: 'wrong' })).status).toBe(401);
    const after = await requestsOf(cluster.name);
    const delta = (user: string) =>
      (after.byUser[user] ?? 0) - (before.byUser[user] ?? 0);
    expect(after.total - before.total).toBe(4);
    expect({
      admin: delta('flux-fleet-admin'),
      readonly: delta('flux-fleet-readonly'),
      unauthenticated: delta('unauthenticated'),
    }).toEqual({ admin: 2, readonly: 1, unauthenticated: 1 });
    expect(await requestsOf(other.name)).toEqual(otherBefore);
  });

  it('tells the pod proxy scrapes of a user from its API reads', async () => {
    const [cluster] = sim.clusters;
    const pods = (await call(cluster, '/api/v1/namespaces/flux-system/pods'))
      .body as { items: { metadata: { name: string } }[] };
    const pod = pods.items[0].metadata.name;
    const { requests: before, metricsBytesServed: bytesBefore } = await clusterItem(cluster.name);
    const scrape = await call(
      cluster,
      `/api/v1/namespaces/flux-system/pods/${pod}:8080/proxy/metrics`,
    );
    expect(scrape.status).toBe(200);
    await call(cluster, `/api/v1/namespaces/flux-system/pods/${pod}`);
    const { requests: after, metricsBytesServed: bytesAfter } = await clusterItem(cluster.name);
    // the bytes of the exposition answered, which a benchmark reads as what scraping costs the cluster
    expect(bytesAfter - bytesBefore).toBe(Buffer.byteLength(scrape.body as string));
    expect(bytesAfter - bytesBefore).toBeGreaterThan(1000);
    const admin = 'flux-fleet-admin';
    expect({
      all: after.byUser[admin] - before.byUser[admin],
      podProxy:
        (after.podProxyByUser[admin] ?? 0) -
        (before.podProxyByUser[admin] ?? 0),
    }).toEqual({ all: 2, podProxy: 1 });
  });

  it('tells a controller’s lookups (one Deployment, a namespace’s pods) from watches and lists of the fleet', async () => {
    const [cluster] = sim.clusters;
    const before = await requestsOf(cluster.name);
    await call(cluster, '/apis/apps/v1/namespaces/flux-system/deployments/kustomize-controller');
    await call(cluster, '/api/v1/namespaces/flux-system/pods?labelSelector=app%3Dkustomize-controller');
    await call(cluster, '/apis/apps/v1/deployments?labelSelector=app.kubernetes.io%2Fpart-of%3Dflux');
    await call(cluster, '/api/v1/pods?limit=1');
    const after = await requestsOf(cluster.name);
    const admin = 'flux-fleet-admin';
    expect({
      all: after.byUser[admin] - before.byUser[admin],
      lookups: (after.controllerLookupsByUser[admin] ?? 0) - (before.controllerLookupsByUser[admin] ?? 0),
    }).toEqual({ all: 4, lookups: 2 });
  });

  it('tells watches, version probes and write checks (on their own schedules) from reads', async () => {
    const [cluster] = sim.clusters;
    const before = await requestsOf(cluster.name);
    const ks = '/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations';
    const watching = new AbortController();
    const watch = await fetch(`${cluster.server}${ks}?watch=1&resourceVersion=0`, {
      headers: { Authorization: `Bearer ${cluster.adminToken}` },
      signal: watching.signal,
    });
    expect(watch.status).toBe(200);
    watching.abort();
    expect((await call(cluster, '/version')).status).toBe(200);
    await call(cluster, `${ks}?limit=1`);
    await call(cluster, '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/apps/kustomizations/payments?watch=false');
    const review = await call(cluster, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      method: 'POST',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { group: 'kustomize.toolkit.fluxcd.io', resource: 'kustomizations', verb: 'patch' } },
      },
    });
    expect(review.status).toBe(201);
    const after = await requestsOf(cluster.name);
    const admin = 'flux-fleet-admin';
    const delta = (counts: 'byUser' | 'watchesByUser' | 'versionProbesByUser' | 'accessReviewsByUser') =>
      (after[counts][admin] ?? 0) - (before[counts][admin] ?? 0);
    expect({
      all: delta('byUser'),
      watches: delta('watchesByUser'),
      probes: delta('versionProbesByUser'),
      reviews: delta('accessReviewsByUser'),
    }).toEqual({
      all: 5,
      watches: 1,
      probes: 1,
      reviews: 1,
    });
  });

  it('counts requests that a hanging cluster never answers', async () => {
    const [cluster] = sim.clusters;
    const before = (await requestsOf(cluster.name)).total;
    await sim.setFault(cluster.name, { hang: true });
    const hung = await fetch(`${cluster.server}/version`, {
      signal: AbortSignal.timeout(300),
    }).catch(e => e);
    await sim.setFault(cluster.name, { hang: false });
    expect(hung.name).toBe('TimeoutError');
    expect((await requestsOf(cluster.name)).total - before).toBe(1);
  });
});
