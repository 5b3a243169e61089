import type { ClusterHealth, FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import { mergePatch, suspendKustomization } from './__testUtils__/kubectl';
import { allObjects, FleetBackend, startFleetBackend } from './__testUtils__/startFleetBackend';

jest.setTimeout(60_000);

describe('Flux Fleet following a live simulated fleet', () => {
  let fleet: FleetBackend;

  const clusters = async (): Promise<ClusterHealth[]> => (await fleet.get('/clusters')).items;
  const healthOf = async (name: string) => (await clusters()).find(c => c.name === name)!;

  beforeAll(async () => {
    fleet = await startFleetBackend({
      sim: { bookmarkIntervalMs: 500 },
      fluxFleet: {
        watch: {
          unreachableAfterSeconds: 1,
          requestTimeoutSeconds: 1,
          idleTimeoutSeconds: 2,
          probeIntervalSeconds: 0.5,
          backoff: { initialSeconds: 0.1, maxSeconds: 0.5 },
        },
      },
    });
    await fleet.waitFor('every cluster synced', async () =>
      (await clusters()).every(c => c.synced) ? true : undefined,
    );
  });

  afterAll(() => fleet?.stop());

  it('reads a cluster that still serves beta Flux versions, each kind at the version it is served', async () => {
    // Flux 2.4 and 2.5 serve OCIRepository only at v1beta2 while the rest of its group is v1
    const old = fleet.sim.clusters.find(c => /^v2\.[45]\./.test(c.fluxVersion));
    expect(old).toBeDefined();
    const health = await healthOf(old!.name);
    expect(health.servedVersions['source.toolkit.fluxcd.io']).toBe('v1');
    const truth = fleet.sim
      .truth()
      .objects.filter(o => o.cluster === old!.name && o.kind === 'OCIRepository');
    expect(truth.length).toBeGreaterThan(0);
    const page = await fleet.get(
      `/objects?cluster=${old!.name}&kind=OCIRepository&limit=1000`,
    );
    expect(page.totalCount).toBe(truth.length);
    for (const t of truth) {
      const o: FleetObject = page.items.find(
        (x: FleetObject) => x.key === `${t.cluster}/${t.namespace}/${t.kind}/${t.name}`,
      );
      expect(o.apiVersion).toBe('source.toolkit.fluxcd.io/v1beta2');
      expect([o.state.state, o.owner.status, o.owner.instance, o.owner.shard, o.service]).toEqual([
        t.state,
        t.owner,
        t.instance,
        t.shard,
        t.service,
      ]);
    }
    // their revision is read from the v1beta2 status
    const ready = page.items.filter((o: FleetObject) => o.state.state === 'ready');
    expect(ready.length).toBeGreaterThan(0);
    expect(ready.every((o: FleetObject) => o.state.revision)).toBe(true);
  });

  it('shows a change made with kubectl within a second', async () => {
    const page = await fleet.get(
      '/objects?kind=Kustomization&state=ready&owner=ok&limit=1',
    );
    const target: FleetObject = page.items[0];
    const cluster = fleet.sim.clusters.find(c => c.name === target.ref.cluster)!;
    const started = Date.now();
    await suspendKustomization(fleet.sim.clusters, target);
    const seen = await fleet.waitFor(
      'the suspension in the API',
      async () => {
        const o = await fleet.get(`/objects/${target.key}`);
        return o.suspended && o.state.state === 'suspended' ? o : undefined;
      },
      5_000,
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(1_000);
    expect(Date.parse(seen.updatedAt)).toBeGreaterThan(Date.parse(target.updatedAt));

    await mergePatch(
      cluster.server,
      `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${target.ref.namespace}/kustomizations/${target.ref.name}`,
      cluster.adminToken,
      { spec: { suspend: false } },
    );
  });

  it('marks a cluster that goes down unreachable, keeps its objects’ last state as stale, and leaves the others alone', async () => {
    const [down, ...others] = fleet.sim.clusters.map(c => c.name);
    const before = new Map<string, FleetObject>(
      (await allObjects(fleet)).map(o => [o.key, o] as const),
    );
    await fleet.sim.setFault(down, { down: true });
    try {
      const health = await fleet.waitFor(
        `${down} unreachable`,
        async () => {
          const h = await healthOf(down);
          return h.status === 'unreachable' ? h : undefined;
        },
        10_000,
      );
      expect(health.unreachableSince).toBeDefined();
      expect(health.lastError).toContain(`cluster '${down}'`);

      const after = await allObjects(fleet);
      const ofDown = after.filter(o => o.ref.cluster === down);
      expect(ofDown.length).toBe([...before.values()].filter(o => o.ref.cluster === down).length);
      for (const o of ofDown) {
        expect(o.stale).toBe(true);
        expect(o.staleSince).toBe(health.unreachableSince);
        // the last state is kept, not replaced by `unknown`
        expect(o.state).toEqual(before.get(o.key)!.state);
      }
      for (const o of after.filter(x => x.ref.cluster !== down)) {
        expect(o.stale).toBe(false);
      }
      for (const name of others) {
        expect((await healthOf(name)).status).toBe('synced');
      }
      const summary = await fleet.get('/summary');
      expect(summary.clustersUnreachable).toBe(1);
    } finally {
      await fleet.sim.setFault(down, { down: false });
    }
    await fleet.waitFor(
      `${down} synced again`,
      async () => ((await healthOf(down)).status === 'synced' ? true : undefined),
      10_000,
    );
    const again = (await allObjects(fleet)).filter(o => o.ref.cluster === down);
    expect(again.every(o => !o.stale)).toBe(true);
  });

  it('notices a cluster that accepts connections but never answers', async () => {
    const hanging = fleet.sim.clusters[1].name;
    await fleet.sim.setFault(hanging, { hang: true });
    try {
      const health = await fleet.waitFor(
        `${hanging} unreachable`,
        async () => {
          const h = await healthOf(hanging);
          return h.status === 'unreachable' ? h : undefined;
        },
        15_000,
      );
      expect(health.lastError).toMatch(/did not answer within 1 s/);
    } finally {
      await fleet.sim.setFault(hanging, { hang: false });
    }
    await fleet.waitFor(
      `${hanging} synced again`,
      async () => ((await healthOf(hanging)).status === 'synced' ? true : undefined),
      15_000,
    );
  });

  it('reads malformed objects without failing, reports what is wrong with them, and keeps the rest', async () => {
    const name = fleet.sim.clusters[2].name;
    await fleet.sim.setFault(name, { malformed: true });
    try {
      const truth = fleet.sim.truth();
      const malformed = truth.malformed.filter(m => m.cluster === name);
      expect(malformed.length).toBeGreaterThan(0);
      const keys = malformed.map(m => `${m.cluster}/${m.namespace}/${m.kind}/${m.name}`);
      const found = await fleet.waitFor(
        'the malformed objects in the index',
        async () => {
          const objects = await Promise.all(
            keys.map(k => fleet.get(`/objects/${k}`).catch(() => undefined)),
          );
          return objects.every(Boolean) ? objects : undefined;
        },
        5_000,
      );
      const byName = new Map(found.map(o => [o.ref.name, o]));
      // wrong types: ignored, each named
      expect(byName.get('malformed-wrong-types')?.problems).toEqual(
        expect.arrayContaining([expect.stringContaining('spec.sourceRef should be an object')]),
      );
      // a Ready status that is not True/False/Unknown: unknown, saying why
      expect(byName.get('malformed-unknown-conditions')?.state).toMatchObject({
        state: 'unknown',
        message: expect.stringContaining('Perhaps'),
      });
      // a message of a megabyte is cut, and the cut is reported
      const huge = byName.get('malformed-huge-message');
      expect(huge?.state.message.length).toBeLessThanOrEqual(1_024);
      expect(huge?.problems?.join(' ')).toContain('cut');
      // each listed with its problem, and counted in the cluster's health (issue 11: they were in the API only)
      const listed = await fleet.waitFor('the malformed objects listed', async () => {
        const { items } = await fleet.get(`/malformed?cluster=${name}`);
        return items.length >= malformed.length ? items : undefined;
      }, 5_000);
      expect(listed.find((m: any) => m.name === 'malformed-wrong-types')).toMatchObject({
        cluster: name,
        kind: expect.any(String),
        disposition: 'read',
        key: keys[malformed.findIndex(m => m.name === 'malformed-wrong-types')],
        problems: expect.arrayContaining([expect.stringContaining('spec.sourceRef should be an object')]),
      });
      expect((await healthOf(name)).malformedCount).toBe(listed.length);
      // the rest of the cluster is unaffected
      expect((await healthOf(name)).status).toBe('synced');
      const objects = (await allObjects(fleet)).filter(o => o.ref.cluster === name);
      expect(objects.length).toBe(
        truth.objects.filter(o => o.cluster === name).length + malformed.length,
      );
    } finally {
      await fleet.sim.setFault(name, { malformed: false });
    }
  });

  it('shows a cluster whose credentials are refused as unauthorized, naming it, beside clusters that work', async () => {
    const [good, refused] = fleet.sim.clusters;
    const other = await startFleetBackend({
      runningSim: fleet.sim,
      fluxFleet: {
        clusters: [
          { name: good.name, url: good.server, serviceAccountToken: good.readOnlyToken },
          { name: refused.name, url: refused.server, serviceAccountToken: 'not-a-token' },
        ],
        persistence: { enabled: false },
      },
    });
    try {
      const health = await other.waitFor('the refused cluster unauthorized', async () => {
        const { items } = await other.get('/clusters');
        const byName = new Map<string, ClusterHealth>(
          items.map((c: ClusterHealth) => [c.name, c]),
        );
        return byName.get(refused.name)?.status === 'unauthorized' &&
          byName.get(good.name)?.status === 'synced'
          ? byName.get(refused.name)
          : undefined;
      });
      expect(health.lastError).toContain(`cluster '${refused.name}'`);
      expect(health.lastError).toContain('401');
      expect(health.lastError).not.toContain('not-a-token');
      // it stays unauthorized: the version probe, which anyone may call, does not make it look healthy
      await new Promise(r => setTimeout(r, 1_500));
      const { items } = await other.get('/clusters');
      expect(items.find((c: ClusterHealth) => c.name === refused.name).status).toBe('unauthorized');
    } finally {
      await other.stop();
    }
  });
});
