import { mockServices } from '@backstage/backend-test-utils';
import { FleetSim, startFleetSim } from '@flux-fleet/fleet-sim';
import type { ClusterHealth, FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import { mergePatch, suspendKustomization } from '../__testUtils__/kubectl';
import { allObjects, startFleetBackend } from '../__testUtils__/startFleetBackend';
import { createTestDatabases } from '../__testUtils__/testDatabases';

jest.setTimeout(90_000);

const { databases, ids } = createTestDatabases();

const persistence = {
  persistence: { enabled: true, snapshotIntervalSeconds: 0.2, leaseSeconds: 1.5 },
};

describe.each(ids)('snapshots and replicas on %s', id => {
  let sim: FleetSim;

  beforeAll(async () => {
    sim = await startFleetSim({ size: 'S', seed: 5, port: 0, clusters: 3, services: 20 });
  });
  afterAll(() => sim?.close());

  async function replica(knex: Awaited<ReturnType<typeof databases.init>>) {
    return startFleetBackend({
      runningSim: sim,
      fluxFleet: persistence,
      features: [mockServices.database.factory({ knex })],
    });
  }

  it('serves the last snapshot at once after a restart, stale until its watches have resynced', async () => {
    const knex = await databases.init(id);
    const first = await replica(knex);
    let before: FleetObject[];
    try {
      await first.waitFor('synced', async () => {
        const { items } = await first.get('/clusters');
        return items.every((c: ClusterHealth) => c.synced) ? true : undefined;
      });
      await first.waitFor('a snapshot of every cluster', async () => {
        const rows = await knex('flux_fleet_snapshots').count({ n: '*' });
        return Number(rows[0].n) === sim.clusters.length ? true : undefined;
      });
      before = await allObjects(first);
    } finally {
      await first.stop();
    }

    // the clusters cannot be reached: everything the second run shows comes from the snapshots
    for (const c of sim.clusters) await sim.setFault(c.name, { down: true });
    const second = await replica(knex);
    try {
      const { items: clusters } = await second.get('/clusters');
      expect(clusters.map((c: ClusterHealth) => c.status)).toEqual(
        sim.clusters.map(() => 'restored'),
      );
      const restored = await allObjects(second);
      expect(restored.map(o => o.key).sort()).toEqual(before.map(o => o.key).sort());
      const byKey = new Map(before.map(o => [o.key, o]));
      for (const o of restored) {
        expect(o.stale).toBe(true);
        expect(o.staleSince).toBeDefined();
        expect([o.state.state, o.owner, o.boundary]).toEqual([
          byKey.get(o.key)!.state.state,
          byKey.get(o.key)!.owner,
          byKey.get(o.key)!.boundary,
        ]);
        // when it last changed is kept, not reset to the restart
        expect(o.updatedAt).toBe(byKey.get(o.key)!.updatedAt);
      }

      for (const c of sim.clusters) await sim.setFault(c.name, { down: false });
      await second.waitFor(
        'resynced',
        async () => {
          const { items } = await second.get('/clusters');
          return items.every((c: ClusterHealth) => c.status === 'synced') ? true : undefined;
        },
        20_000,
      );
      expect((await allObjects(second)).every(o => !o.stale)).toBe(true);
    } finally {
      for (const c of sim.clusters) await sim.setFault(c.name, { down: false });
      await second.stop();
    }
  });

  it('spreads the clusters over the replicas while every replica answers the same, and hands over when one stops', async () => {
    const knex = await databases.init(id);
    const a = await replica(knex);
    const b = await replica(knex);
    try {
      await a.waitFor('a synced', async () => {
        const { items } = await a.get('/clusters');
        return items.every((c: ClusterHealth) => c.synced) ? true : undefined;
      });
      // two replicas, three clusters: neither watches all three (issue 11)
      const leases = await a.waitFor('the leases spread over both replicas', async () => {
        const rows = await knex('flux_fleet_leases').select('cluster', 'holder');
        const counts = new Map<string, number>();
        for (const r of rows) counts.set(r.holder, (counts.get(r.holder) ?? 0) + 1);
        return rows.length === sim.clusters.length && counts.size === 2 ? counts : undefined;
      });
      expect([...leases.values()].sort()).toEqual([1, 2]);

      const summary = (objects: FleetObject[]) =>
        objects
          .map(o => `${o.key} ${o.state.state} ${o.owner.status} ${o.boundary.enforcement}`)
          .sort();
      // the replica that took a cluster over shows it `restored` until its own watch has resynced it
      await b.waitFor(
        'b synced the cluster it took over',
        async () => {
          const { items } = await b.get('/clusters');
          return items.every((c: ClusterHealth) => c.status === 'synced') ? true : undefined;
        },
        5_000,
      );
      await b.waitFor('b answering like a', async () => {
        const [fromA, fromB] = await Promise.all([allObjects(a), allObjects(b)]);
        return fromB.length > 0 &&
          JSON.stringify(summary(fromA)) === JSON.stringify(summary(fromB))
          ? true
          : undefined;
      });
      const { items: bClusters } = await b.get('/clusters');
      expect(bClusters.map((c: ClusterHealth) => c.status)).toEqual(
        sim.clusters.map(() => 'synced'),
      );

      // a change reaches the replica that does not watch its cluster through the next snapshot
      const target: FleetObject = (
        await a.get('/objects?kind=Kustomization&state=ready&owner=ok&limit=1')
      ).items[0];
      await suspendKustomization(sim.clusters, target);
      await b.waitFor(
        'the change in b',
        async () => ((await b.get(`/objects/${target.key}`)).suspended ? true : undefined),
        5_000,
      );

      // a stops (releasing its leases): b takes its clusters over and watches every cluster itself
      await a.stop();
      await b.waitFor(
        'b holding every lease',
        async () => {
          const rows = await knex('flux_fleet_leases').select('holder');
          return rows.length === sim.clusters.length && new Set(rows.map(r => r.holder)).size === 1
            ? true
            : undefined;
        },
        10_000,
      );
      await b.waitFor('b synced by its own watch', async () => {
        const { items } = await b.get('/clusters');
        return items.every((c: ClusterHealth) => c.status === 'synced') ? true : undefined;
      });
      const cluster = sim.clusters.find(c => c.name === target.ref.cluster)!;
      await mergePatch(
        cluster.server,
        `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${target.ref.namespace}/kustomizations/${target.ref.name}`,
        cluster.adminToken,
        { spec: { suspend: false } },
      );
      await b.waitFor(
        'a change seen by b’s own watch',
        async () => ((await b.get(`/objects/${target.key}`)).suspended ? undefined : true),
        5_000,
      );
    } finally {
      await a.stop().catch(() => {});
      await b.stop();
    }
  });
});
