/**
 * The fault suite an operator would run (issue 11), against the simulator's fault API, with two replicas of the
 * real plugin on one PostgreSQL: replica freshness, an outage, rounds of 410 Gone, a 429 storm, malformed
 * objects, a replica that dies without releasing its leases, and a restart. Each figure goes to
 * `FLUX_FLEET_CHAOS_FIGURES`; `scripts/chaos.sh` (`make chaos`) runs this file with `FLUX_FLEET_CHAOS=1` and prints
 * them as a table. Without that variable the suite is skipped: it takes minutes, and `make test` has the quick
 * versions (liveFleet, replicas, replicasAgree integration tests).
 */
import { mockServices } from '@backstage/backend-test-utils';
import { FleetSim, startFleetSim } from '@flux-fleet/fleet-sim';
import type { ClusterHealth, FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import knexFactory from 'knex';
import net from 'node:net';
import { mergePatch } from '../__testUtils__/kubectl';
import { allObjects, FleetBackend, startFleetBackend } from '../__testUtils__/startFleetBackend';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { percentile, recordFigure } from '../__testUtils__/chaosFigures';

jest.setTimeout(600_000);

const { databases, ids } = createTestDatabases();
const postgres = ids.find(id => id.startsWith('POSTGRES'));
const LEASE_SECONDS = 5;

/** How many of the simulator's truth objects of a cluster the replica shows differently (missing, extra, state). */
async function differences(fleet: FleetBackend, sim: FleetSim, cluster: string): Promise<number> {
  const truth = sim.truth().objects.filter(o => o.cluster === cluster);
  const shown = new Map(
    (await allObjects(fleet))
      .filter((o: FleetObject) => o.ref.cluster === cluster)
      .map((o: FleetObject) => [o.key, o]),
  );
  let diff = 0;
  for (const t of truth) {
    const o = shown.get(`${t.cluster}/${t.namespace}/${t.kind}/${t.name}`);
    if (!o || o.state.state !== t.state) diff++;
    shown.delete(`${t.cluster}/${t.namespace}/${t.kind}/${t.name}`);
  }
  const malformed = new Set(sim.truth().malformed.map(m => `${m.cluster}/${m.namespace}/${m.kind}/${m.name}`));
  return diff + [...shown.keys()].filter(k => !malformed.has(k)).length;
}

async function elapsedUntil(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise(r => setTimeout(r, 20));
  }
}

const suspendPath = (o: FleetObject) =>
  `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${o.ref.namespace}/kustomizations/${o.ref.name}`;

const run = postgres !== undefined && process.env.FLUX_FLEET_CHAOS === '1';
(run ? describe : describe.skip)('chaos (make chaos): the faults an operator would inject', () => {
  let sim: FleetSim;
  let knex: Awaited<ReturnType<typeof databases.init>>;
  /**
   * Replica a reaches PostgreSQL through a TCP relay of its own, so that it can die as after kill -9: the relay
   * drops its connections and refuses new ones, and a can neither renew nor release its leases.
   */
  let knexA: ReturnType<typeof knexFactory>;
  let relay: net.Server;
  const relayed = new Set<net.Socket>();
  let a: FleetBackend;
  let b: FleetBackend;

  const replica = (client: unknown) =>
    startFleetBackend({
      runningSim: sim,
      fluxFleet: { persistence: { enabled: true, snapshotIntervalSeconds: 2, leaseSeconds: LEASE_SECONDS } },
      features: [mockServices.database.factory({ knex: client as any })],
    });
  const allSynced = (fleet: FleetBackend) => async () =>
    (await fleet.get('/clusters')).items.every((c: ClusterHealth) => c.status === 'synced');
  const patch = async (o: FleetObject, suspend: boolean) => {
    const cluster = sim.clusters.find(c => c.name === o.ref.cluster)!;
    // a 429 is retried after a moment, as client-go (kubectl) retries it after its Retry-After
    for (let attempt = 0; ; attempt++) {
      const res = await mergePatch(cluster.server, suspendPath(o), cluster.adminToken, { spec: { suspend } });
      if (res.status === 200) return;
      if (res.status !== 429 || attempt >= 50) throw new Error(`patch of ${o.key} answered ${res.status}`);
      await new Promise(r => setTimeout(r, 200));
    }
  };
  const onBoth = (o: FleetObject) => async () =>
    (await Promise.all([a, b].map(f => f.get(`/objects/${o.key}`)))).every(x => x.suspended);
  const kustomizations = async (cluster: string, n: number) =>
    ((await a.get(`/objects?cluster=${cluster}&kind=Kustomization&limit=200`)).items as FleetObject[])
      .filter(o => !o.suspended)
      .slice(0, n);

  beforeAll(async () => {
    sim = await startFleetSim({ size: 'S', seed: 21, port: 0, clusters: 3, services: 40 });
    knex = await databases.init(postgres!);
    const target = new URL(
      String(
        process.env[`BACKSTAGE_TEST_DATABASE_${postgres!.replace('_', '')}_CONNECTION_STRING`] ??
          'postgresql://postgres@127.0.0.1:5432',
      ),
    );
    relay = net.createServer(client => {
      const server = net.connect(Number(target.port || 5432), target.hostname);
      relayed.add(client).add(server);
      client.pipe(server).pipe(client);
      const drop = () => {
        client.destroy();
        server.destroy();
      };
      client.on('error', drop).on('close', drop);
      server.on('error', drop).on('close', drop);
    });
    await new Promise<void>(resolve => relay.listen(0, '127.0.0.1', resolve));
    const connection = { ...(knex.client as any).config.connection };
    if (typeof connection.connectionString === 'string' || typeof (knex.client as any).config.connection === 'string') {
      throw new Error('the chaos suite expects an object connection config from TestDatabases');
    }
    knexA = knexFactory({
      client: 'pg',
      connection: { ...connection, host: '127.0.0.1', port: (relay.address() as net.AddressInfo).port },
      pool: { min: 0, max: 10, acquireTimeoutMillis: 5_000 },
    });
    a = await replica(knexA);
    b = await replica(knex);
    await a.waitFor('a synced', async () => ((await allSynced(a)()) ? true : undefined), 60_000);
    await b.waitFor('b synced', async () => ((await allSynced(b)()) ? true : undefined), 60_000);
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop().catch(() => {});
    relay?.close();
    await sim?.close();
  });

  it('two replicas: a kubectl change is on both within a second, and the leases are spread', async () => {
    await a.waitFor('the leases spread', async () => {
      const rows = await knex('flux_fleet_leases').select('holder');
      return new Set(rows.map(r => r.holder)).size === 2 ? true : undefined;
    });
    const counts = new Map<string, number>();
    for (const r of await knex('flux_fleet_leases').select('holder')) {
      counts.set(r.holder, (counts.get(r.holder) ?? 0) + 1);
    }
    recordFigure({
      scenario: 'two replicas',
      figure: 'leases per replica (3 clusters)',
      value: [...counts.values()].sort().join(' + '),
      source: 'measured, flux_fleet_leases',
    });
    const lags: number[] = [];
    for (const cluster of sim.clusters) {
      for (const o of await kustomizations(cluster.name, 3)) {
        const at = Date.now();
        await patch(o, true);
        await elapsedUntil('the change on both replicas', onBoth(o));
        lags.push(Date.now() - at);
        await patch(o, false);
      }
    }
    lags.sort((x, y) => x - y);
    recordFigure({
      scenario: 'two replicas',
      figure: `kubectl change on both replicas' API, p50 / p99 of ${lags.length}`,
      value: `${percentile(lags, 50)} / ${percentile(lags, 99)} ms`,
      source: 'measured (API polled every 20 ms)',
    });
    expect(percentile(lags, 99)).toBeLessThan(1_000);
  });

  it('an outage: nothing is lost while the cluster is down, and the index matches the truth soon after', async () => {
    const cluster = sim.clusters[0].name;
    const before = (await allObjects(b)).filter((o: FleetObject) => o.ref.cluster === cluster).length;
    await sim.setFault(cluster, { down: true });
    await new Promise(r => setTimeout(r, 10_000));
    const during = (await allObjects(b)).filter((o: FleetObject) => o.ref.cluster === cluster).length;
    recordFigure({
      scenario: 'outage (10 s)',
      figure: 'objects dropped from the index during the outage',
      value: String(before - during),
      source: `measured on replica b, ${before} before`,
    });
    await sim.setFault(cluster, { down: false });
    const back = await elapsedUntil('the index back to the truth', async () =>
      (await Promise.all([a, b].map(f => differences(f, sim, cluster)))).every(d => d === 0),
    );
    recordFigure({
      scenario: 'outage (10 s)',
      figure: 'time from recovery until both replicas match the truth',
      value: `${back} ms`,
      source: 'measured',
    });
    expect(before - during).toBe(0);
  });

  it('rounds of 410 Gone: changes made meanwhile leave no difference from the truth', async () => {
    const cluster = sim.clusters[1].name;
    const targets = await kustomizations(cluster, 4);
    await sim.setFault(cluster, { expireWatches: true });
    for (const o of targets) {
      await patch(o, true);
      await new Promise(r => setTimeout(r, 1_500));
    }
    await sim.setFault(cluster, { expireWatches: false });
    const matched = await elapsedUntil('no difference after the 410 rounds', async () => {
      const ok = await Promise.all([a, b].map(f => differences(f, sim, cluster)));
      const suspended = await Promise.all(targets.map(o => b.get(`/objects/${o.key}`)));
      return ok.every(d => d === 0) && suspended.every(x => x.suspended);
    });
    recordFigure({
      scenario: '410 Gone for 6 s',
      figure: 'time after the last 410 until both replicas match the truth',
      value: `${matched} ms`,
      source: 'measured',
    });
    expect(await differences(a, sim, cluster)).toBe(0);
    for (const o of targets) await patch(o, false);
  });

  it('a 429 storm: a change still arrives, and the other clusters keep their freshness', async () => {
    const cluster = sim.clusters[2].name;
    const [target] = await kustomizations(cluster, 1);
    const [other] = await kustomizations(sim.clusters[0].name, 1);
    await sim.setFault(cluster, { throttleRatio: 0.9, retryAfterSeconds: 1 });
    try {
      const at = Date.now();
      await patch(target, true);
      await patch(other, true);
      const otherLag = await elapsedUntil('the unthrottled change on b', async () =>
        (await b.get(`/objects/${other.key}`)).suspended,
      );
      // the storm in one cluster does not hold the others back
      expect(otherLag).toBeLessThan(2_000);
      recordFigure({
        scenario: '429 storm (90 %)',
        figure: 'a change in another cluster on replica b',
        value: `${otherLag} ms`,
        source: 'measured',
      });
      await elapsedUntil('the throttled change on b', async () =>
        (await b.get(`/objects/${target.key}`)).suspended,
      );
      const lag = Date.now() - at;
      recordFigure({
        scenario: '429 storm (90 %)',
        figure: 'a change in the throttled cluster on replica b, from its patch (retried on 429)',
        value: `${lag} ms`,
        source: 'measured',
      });
    } finally {
      await sim.setFault(cluster, { throttleRatio: 0 });
      await patch(target, false);
      await patch(other, false);
    }
  });

  it('malformed objects: served with their problems, the rest unaffected', async () => {
    const cluster = sim.clusters[2].name;
    await sim.setFault(cluster, { malformed: true });
    try {
      const malformed = sim.truth().malformed.filter(m => m.cluster === cluster);
      const keys = malformed.map(m => `${m.cluster}/${m.namespace}/${m.kind}/${m.name}`);
      const seen = await elapsedUntil('the malformed objects on both replicas', async () =>
        (
          await Promise.all(
            [a, b].flatMap(f => keys.map(k => f.get(`/objects/${k}`).catch(() => undefined))),
          )
        ).every(Boolean),
      );
      const withProblems = (await Promise.all(keys.map(k => b.get(`/objects/${k}`)))).filter(
        o => (o.problems?.length ?? 0) > 0 || o.state.state === 'unknown',
      ).length;
      recordFigure({
        scenario: 'malformed objects',
        figure: 'malformed objects served with a problem or unknown state',
        value: `${withProblems} of ${keys.length} (on both replicas after ${seen} ms)`,
        source: 'measured',
      });
      expect(await differences(b, sim, sim.clusters[0].name)).toBe(0);
    } finally {
      await sim.setFault(cluster, { malformed: false });
    }
  });

  it('a replica dies without releasing its leases: the other takes over within the lease duration', async () => {
    const held = async () => knex('flux_fleet_leases').select('cluster', 'holder');
    const before = await held();
    // a's own database client goes away: it can neither renew nor release, as after kill -9
    const died = Date.now();
    relay.close();
    for (const socket of relayed) socket.destroy();
    const took = await elapsedUntil('b holding every lease', async () => {
      const rows = await held();
      return rows.length === 3 && new Set(rows.map(r => r.holder)).size === 1 &&
        rows.some(r => before.some(x => x.cluster === r.cluster && x.holder !== r.holder));
    });
    await elapsedUntil('b synced by its own watches', allSynced(b));
    const synced = Date.now() - died;
    recordFigure({
      scenario: 'replica dies (no release)',
      figure: `takeover of its leases (lease ${LEASE_SECONDS} s)`,
      value: `${took} ms; synced by its own watch after ${synced} ms`,
      source: 'measured',
    });
    expect(took).toBeLessThan(LEASE_SECONDS * 1_000 * 1.5);
  });

  it('a restart: the restarted replica answers from its snapshots at once', async () => {
    await b.stop();
    const start = Date.now();
    b = await replica(knex);
    const started = Date.now() - start;
    const objects = (await allObjects(b)).length;
    const synced = await elapsedUntil('restarted replica synced', allSynced(b));
    recordFigure({
      scenario: 'restart',
      figure: 'objects answered right after start / time to synced',
      value: `${objects} objects after a start of ${started} ms; synced ${synced} ms later`,
      source: 'measured',
    });
    expect(objects).toBeGreaterThan(0);
  });
});
