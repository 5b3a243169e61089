import { mockServices } from '@backstage/backend-test-utils';
import { ClusterHealth, ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import type { Knex } from 'knex';
import { snapshotSourceOf } from '../__testUtils__/snapshotSource';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import type { ClusterWatcher } from '../watch/ClusterWatcher';
import { FleetPersistence, PersistedClusters } from './FleetPersistence';

jest.setTimeout(30_000);

const { databases } = createTestDatabases();
const INTERVAL_MS = 15_000;

/**
 * When a held cluster's snapshot is written (FleetPersistence.writeChanged, on SQLite: the cadence does not depend
 * on the database): objects coming or going are written at the next interval; status churn alone every fourth
 * interval; everything at stop. Each write carries the index's object count as the snapshot's health, which is
 * what the test reads back from the database.
 */
describe('snapshot cadence', () => {
  let knex: Knex;
  let persistence: FleetPersistence;
  let now: number;
  const index = { version: 1, membership: 1 };
  /** The held clusters, and each one's objects (the health's count) when not the index version. */
  let held: { names: string[]; objects?: number };
  /** The fleet's first sync, while under way. */
  let firstSync: { done: number; clusters: number } | undefined;
  /** The fleet's readiness: resolved by the test that needs it. */
  let ready: { promise: Promise<void>; resolve: () => void };

  function clusters(): PersistedClusters {
    const empty = { format: 1 as const, objects: [], updatedAt: [], controllers: [], namespaces: [], workloads: [], events: [] };
    return {
      clusterNames: () => held.names,
      clusterVersion: () => index.version,
      clusterMembership: () => index.membership,
      firstSyncProgress: () => firstSync,
      ready: () => ready.promise,
      snapshotOf: name => ({
        source: snapshotSourceOf(empty),
        health: { name, status: 'synced', synced: true, objectCount: held.objects ?? index.version } as ClusterHealth,
      }),
      remoteHealth: () => undefined,
      setRemoteHealth: () => {},
      restore: () => {},
      detachWatch: () => {},
      valuePool: new ValuePool(),
      subscribe: () => () => {},
      deltaOf: () => undefined,
      applyDelta: () => {},
      caughtUp: () => {},
    };
  }

  /** The index version the stored snapshot was written at. */
  async function written(): Promise<number | undefined> {
    const rows = await knex('flux_fleet_snapshots').select('health');
    return rows.length ? JSON.parse(rows[0].health).objectCount : undefined;
  }

  /** How many snapshots of each cluster were written. */
  async function writes(): Promise<Record<string, number>> {
    const rows = await knex('flux_fleet_snapshots').select('cluster', 'version');
    return Object.fromEntries(rows.map(r => [r.cluster, Number(r.version)]));
  }

  async function start() {
    persistence = new FleetPersistence({
      database: mockServices.database({ knex }),
      clusters: clusters(),
      // the timers never fire in the test: it writes when it says so
      settings: { enabled: true, snapshotIntervalMs: INTERVAL_MS, leaseDurationMs: 600_000 },
      logger: mockServices.logger.mock(),
      watch: () => ({ stop: () => {} }) as unknown as ClusterWatcher,
    });
    await persistence.start();
  }

  beforeEach(async () => {
    held = { names: ['lab'] };
    firstSync = undefined;
    let resolve!: () => void;
    ready = { promise: new Promise<void>(r => (resolve = r)), resolve: () => resolve() };
    now = Date.parse('2026-07-14T10:00:00Z');
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    knex = await databases.init('SQLITE_3');
    index.version = 1;
    index.membership = 1;
  });

  afterEach(async () => {
    await persistence.stop();
    jest.restoreAllMocks();
  });

  it('writes objects that came or went at the next interval, status churn every fourth, everything at stop', async () => {
    await start();
    expect(persistence.watches('lab')).toBe(true);
    await persistence.writeChanged();
    expect(await written()).toBe(1);

    // status changes only: not at the next interval, nor the third
    index.version = 2;
    now += INTERVAL_MS;
    await persistence.writeChanged();
    expect(await written()).toBe(1);
    index.version = 3;
    now += 2 * INTERVAL_MS;
    await persistence.writeChanged();
    expect(await written()).toBe(1);
    // the fourth interval since the last write
    now += INTERVAL_MS;
    await persistence.writeChanged();
    expect(await written()).toBe(3);

    // an object came: written at once, however recent the last write
    index.version = 4;
    index.membership = 2;
    now += 1_000;
    await persistence.writeChanged();
    expect(await written()).toBe(4);

    // a status change, then the stop: the last write takes it
    index.version = 5;
    await persistence.writeChanged();
    expect(await written()).toBe(4);
    await persistence.writeChanged({ all: true });
    expect(await written()).toBe(5);
  });

  it('writes no snapshot during the fleet\'s first sync, the listed clusters as soon as it is over, all at stop', async () => {
    held = { names: ['a', 'b'] };
    firstSync = { done: 1, clusters: 3 };
    await start();
    await persistence.writeChanged();
    expect(await writes()).toEqual({});

    // the fleet is ready: written at once, not at the next interval
    firstSync = undefined;
    ready.resolve();
    for (let i = 0; i < 100 && Object.keys(await writes()).length < 2; i++) {
      await new Promise(r => setTimeout(r, 10));
    }
    expect(await writes()).toEqual({ a: 1, b: 1 });

    // a stop during a first sync still writes what it has
    firstSync = { done: 2, clusters: 3 };
    index.version = 2;
    await persistence.writeChanged({ all: true });
    expect(await writes()).toEqual({ a: 2, b: 2 });
  });

  it('writes status churn of a large fleet within 30,000 objects an interval, the longest unwritten first', async () => {
    held = { names: ['a', 'b', 'c'], objects: 20_000 };
    await start();
    await persistence.writeChanged();
    expect(await writes()).toEqual({ a: 1, b: 1, c: 1 });

    // status churn everywhere, four intervals on: a (20k), then b (40k in all), and the budget is spent
    index.version = 2;
    now += 4 * INTERVAL_MS;
    await persistence.writeChanged();
    expect(await writes()).toEqual({ a: 2, b: 2, c: 1 });
    // the next interval: c, waiting longest; a and b were written one interval ago
    index.version = 3;
    now += INTERVAL_MS;
    await persistence.writeChanged();
    expect(await writes()).toEqual({ a: 2, b: 2, c: 2 });

    // objects coming or going are written at once, whatever the budget
    index.version = 4;
    index.membership = 2;
    now += 1_000;
    await persistence.writeChanged();
    expect(await writes()).toEqual({ a: 3, b: 3, c: 3 });
  });
});
