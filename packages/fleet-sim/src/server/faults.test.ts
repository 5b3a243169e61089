import { CustomObjectsApi } from '@kubernetes/client-node';
import { call, eventually, kubeConfigFor } from '../__testUtils__/fleetClients';
import { startFleetSim, type FleetSim, type SimCluster } from '../fleetSim';

const KS = '/apis/kustomize.toolkit.fluxcd.io/v1';

describe('faults', () => {
  let sim: FleetSim;
  let cluster: SimCluster;
  let other: SimCluster;

  beforeAll(async () => {
    sim = await startFleetSim({ clusters: 2, services: 30, seed: 5 });
    [cluster, other] = sim.clusters;
  });
  afterAll(() => sim.close());

  const admin = (path: string, body?: unknown) =>
    fetch(`${sim.adminUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async r => ({ status: r.status, body: await r.json() }));

  it('down refuses connections, and the same port serves again when cleared; other clusters keep working', async () => {
    await sim.setFault(cluster.name, { down: true });
    await expect(fetch(`${cluster.server}/version`)).rejects.toThrow();
    const error = await fetch(`${cluster.server}/version`).catch(e => e);
    expect(String(error.cause?.code)).toBe('ECONNREFUSED');
    expect((await call(other, '/version')).status).toBe(200);
    await sim.setFault(cluster.name, { down: false });
    expect((await call(cluster, '/version')).status).toBe(200);
  });

  it('hang accepts connections and never answers', async () => {
    await sim.setFault(cluster.name, { hang: true });
    const hung = await fetch(`${cluster.server}/version`, {
      signal: AbortSignal.timeout(300),
    }).catch(e => e);
    expect(hung.name).toBe('TimeoutError');
    await sim.setFault(cluster.name, { hang: false });
    expect((await call(cluster, '/version')).status).toBe(200);
  });

  it('adds latency to every answer', async () => {
    await sim.setFault(cluster.name, { latencyMs: 250 });
    const started = Date.now();
    await call(cluster, `${KS}/kustomizations?limit=1`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    await sim.setFault(cluster.name, { latencyMs: 0 });
  });

  it('throttles with 429, Retry-After and a TooManyRequests Status, on the configured share of requests', async () => {
    await sim.setFault(cluster.name, {
      throttleRatio: 1,
      retryAfterSeconds: 7,
    });
    const throttled = await call(cluster, `${KS}/kustomizations?limit=1`);
    expect([
      throttled.status,
      throttled.headers.get('retry-after'),
      throttled.body.reason,
      throttled.body.details.retryAfterSeconds,
    ]).toEqual([429, '7', 'TooManyRequests', 7]);
    await sim.setFault(cluster.name, { throttleRatio: 0.5 });
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () =>
        call(cluster, '/version').then(r => r.status),
      ),
    );
    const share = statuses.filter(s => s === 429).length / statuses.length;
    expect(share).toBeGreaterThan(0.3);
    expect(share).toBeLessThan(0.7);
    await sim.setFault(cluster.name, { throttleRatio: 0 });
  });

  it('adds malformed Flux objects that the API still serves, listed in the truth apart from objects', async () => {
    await sim.setFault(cluster.name, { malformed: true });
    const list: any = await kubeConfigFor(cluster)
      .makeApiClient(CustomObjectsApi)
      .listNamespacedCustomObject({
        group: 'kustomize.toolkit.fluxcd.io',
        version: 'v1',
        namespace: 'flux-system',
        plural: 'kustomizations',
      });
    const wrongTypes = list.items.find(
      (i: any) => i.metadata.name === 'malformed-wrong-types',
    );
    expect(wrongTypes.status.conditions).toBe('Ready');
    const huge = await call(
      cluster,
      '/apis/helm.toolkit.fluxcd.io/v2/namespaces/flux-system/helmreleases/malformed-huge-message',
    );
    expect(huge.body.status.conditions[0].message.length).toBeGreaterThan(
      1_000_000,
    );
    const truth = sim.truth();
    const malformed = truth.malformed.filter(m => m.cluster === cluster.name);
    expect(malformed.map(m => m.name).sort()).toEqual([
      'malformed-conditions-object',
      'malformed-huge-message',
      'malformed-missing-status',
      'malformed-unknown-conditions',
      'malformed-wrong-types',
    ]);
    expect(malformed.every(m => m.defect.length > 10)).toBe(true);
    expect(truth.objects.some(o => o.name.startsWith('malformed-'))).toBe(
      false,
    );
    await sim.setFault(cluster.name, { malformed: false });
    expect(
      (
        await call(
          cluster,
          `${KS}/namespaces/flux-system/kustomizations/malformed-wrong-types`,
        )
      ).status,
    ).toBe(404);
    expect(sim.truth().malformed).toEqual([]);
  });

  it('switches faults through the admin API, with clear errors', async () => {
    const clusters = await admin('/clusters');
    expect(clusters.body.items.map((c: any) => c.name)).toEqual([
      cluster.name,
      other.name,
    ]);
    const set = await admin(`/clusters/${other.name}/faults`, { latencyMs: 5 });
    expect([set.status, set.body.faults.latencyMs]).toEqual([200, 5]);
    const unknown = await admin('/clusters/nowhere/faults', { down: true });
    expect([unknown.status, unknown.body.error.message]).toEqual([
      404,
      'no cluster named nowhere',
    ]);
    const invalid = await admin(`/clusters/${other.name}/faults`, {
      down: 'yes',
    });
    expect([invalid.status, invalid.body.error.message]).toEqual([
      400,
      `cluster ${other.name}: fault down must be true or false`,
    ]);
    const truth = await admin('/truth');
    expect(truth.body.clusters.map((c: any) => c.name)).toEqual([
      cluster.name,
      other.name,
    ]);
    await admin(`/clusters/${other.name}/faults`, { down: true });
    await eventually(() =>
      fetch(`${other.server}/version`).then(
        () => undefined,
        () => true,
      ),
    );
    await admin(`/clusters/${other.name}/faults`, {
      down: false,
      latencyMs: 0,
    });
    expect((await call(other, '/version')).status).toBe(200);
  });
});
