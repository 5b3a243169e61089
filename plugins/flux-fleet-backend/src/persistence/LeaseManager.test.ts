import { mockServices } from '@backstage/backend-test-utils';
import { ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { applyMigrations } from './applyMigrations';
import { snapshotSourceOf } from '../__testUtils__/snapshotSource';
import { decodeSnapshot, encodeSnapshot } from './clusterSnapshot';
import { hostname } from 'node:os';
import { LeaseManager, replicaName } from './LeaseManager';
import { SnapshotStore } from './SnapshotStore';

jest.setTimeout(60_000);

const { databases, ids } = createTestDatabases();
const CLUSTERS = ['a', 'b', 'c'];

async function migrated(id: (typeof ids)[number]) {
  const knex = await databases.init(id);
  await applyMigrations(knex);
  return knex;
}

function replica(knex: Awaited<ReturnType<typeof migrated>>, name: string, leaseMs: number) {
  const held = new Set<string>();
  const manager = new LeaseManager(
    knex,
    name,
    CLUSTERS,
    leaseMs,
    { acquired: c => held.add(c), lost: c => held.delete(c) },
    mockServices.logger.mock(),
  );
  return { manager, held };
}

describe.each(ids)('leases and snapshots on %s', id => {
  it('gives each cluster to one replica, and hands it over when that replica stops or dies', async () => {
    const knex = await migrated(id);
    // long enough that renewals on a busy machine are never late (a late renewal is a lost lease, by design)
    const LEASE = 1_500;
    const a = replica(knex, 'replica-a', LEASE);
    const b = replica(knex, 'replica-b', LEASE);
    await a.manager.start();
    await b.manager.start();
    expect([...a.held].sort()).toEqual(CLUSTERS);
    expect([...b.held]).toEqual([]);

    // a stops cleanly: its leases are released, b takes them at its next renewal
    await a.manager.stop();
    await new Promise(r => setTimeout(r, LEASE));
    expect([...b.held].sort()).toEqual(CLUSTERS);
    expect([...(await b.manager.liveHolders()).values()]).toEqual(['replica-b', 'replica-b', 'replica-b']);

    // a third replica joins (b would hand it a share); when b dies (stops renewing without releasing), it takes
    // every cluster over after the expiry
    const c = replica(knex, 'replica-c', LEASE);
    await c.manager.start();
    (b.manager as any).stopped = true; // a crash: no renewal, no release
    clearInterval((b.manager as any).timer);
    await new Promise(r => setTimeout(r, 2 * LEASE));
    expect([...c.held].sort()).toEqual(CLUSTERS);
    await c.manager.stop();
  });

  it('spreads the leases over the replicas alive, rebalancing once when one joins, without flapping', async () => {
    const knex = await migrated(id);
    // long enough that renewals on a busy machine are never late (a late renewal is a lost lease, by design)
    const LEASE = 1_500;
    const a = replica(knex, 'replica-a', LEASE);
    await a.manager.start();
    expect([...a.held].sort()).toEqual(CLUSTERS);
    // b joins: a hands one cluster over within a few renewals, and the counts then stay at 2 and 1
    const b = replica(knex, 'replica-b', LEASE);
    await b.manager.start();
    const deadline = Date.now() + 10_000;
    while (b.held.size === 0 && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
    expect([a.held.size, b.held.size].sort()).toEqual([1, 2]);
    const counts: string[] = [];
    for (let i = 0; i < 8; i++) {
      await new Promise(r => setTimeout(r, 400));
      counts.push(`${a.held.size}+${b.held.size}`);
    }
    expect(new Set(counts)).toEqual(new Set([counts[0]]));
    // every cluster has exactly one holder
    expect([...a.held, ...b.held].sort()).toEqual(CLUSTERS);
    // a third joins: one each
    const c = replica(knex, 'replica-c', LEASE);
    await c.manager.start();
    const later = Date.now() + 10_000;
    while (c.held.size === 0 && Date.now() < later) await new Promise(r => setTimeout(r, 50));
    await new Promise(r => setTimeout(r, LEASE));
    expect([a.held.size, b.held.size, c.held.size]).toEqual([1, 1, 1]);
    expect([...a.held, ...b.held, ...c.held].sort()).toEqual(CLUSTERS);
    // c dies without releasing: its cluster goes to one of the others within the lease duration and a renewal
    (c.manager as any).stopped = true;
    clearInterval((c.manager as any).timer);
    await new Promise(r => setTimeout(r, 2 * LEASE));
    expect([...a.held, ...b.held].sort()).toEqual(CLUSTERS);
    await a.manager.stop();
    await b.manager.stop();
  });

  it('takes a lease over at once from a process of this host that is gone', async () => {
    const knex = await migrated(id);
    // a pid that cannot be running: above the kernel's maximum
    const dead = replicaName(hostname(), 4_194_305, 'deadbeef');
    const alive = replicaName(hostname(), process.ppid, 'cafecafe');
    const far = Date.now() + 3_600_000;
    await knex('flux_fleet_leases').insert([
      { cluster: 'a', holder: dead, expires_at: far, acquired_at: 0 },
      { cluster: 'b', holder: alive, expires_at: far, acquired_at: 0 },
      { cluster: 'c', holder: replicaName('another-host', 1, 'abcdabcd'), expires_at: far, acquired_at: 0 },
    ]);
    const r = replica(knex, 'replica-new', 60_000);
    await r.manager.start();
    expect([...r.held]).toEqual(['a']);
    await r.manager.stop();
  });

  it('keeps versioned snapshots that read back with shared strings', async () => {
    const knex = await migrated(id);
    const store = new SnapshotStore(knex);
    const data = {
      format: 1 as const,
      objects: [
        {
          key: 'a/ns/Kustomization/app',
          cluster: 'a',
          namespace: 'ns',
          kind: 'Kustomization' as const,
          name: 'app',
          apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
          labels: { team: 'payments' },
          annotations: {},
          suspend: false,
          remote: false,
          inventoryCount: 0,
        },
      ],
      updatedAt: [1_700_000_000_000],
      controllers: [],
      namespaces: [{ cluster: 'a', name: 'ns', labels: { team: 'payments' } }],
      workloads: [],
      events: [],
    };
    const health = {
      name: 'a',
      status: 'synced' as const,
      synced: true,
      objectCount: 1,
      countsByKind: { Kustomization: 1 },
      fluxVersions: ['v2.8.3'],
      servedVersions: {},
    };
    expect(
      await store.write({ cluster: 'a', holder: 'r1', health, data: await encodeSnapshot(snapshotSourceOf(data as any)) }),
    ).toBe(1);
    expect(
      await store.write({ cluster: 'a', holder: 'r1', health, data: await encodeSnapshot(snapshotSourceOf(data as any)) }),
    ).toBe(2);
    const [header] = await store.headers();
    expect(header).toMatchObject({ cluster: 'a', version: 2, holder: 'r1' });
    const row = await store.read('a');
    expect(row?.health).toEqual(health);
    const pool = new ValuePool();
    const decoded = await decodeSnapshot(row!.data, pool);
    expect(decoded.objects).toEqual(data.objects);
    // equal label sets are one object again, as when read from the cluster
    expect(decoded.objects[0].labels).toBe(decoded.namespaces[0].labels);
  });
});
