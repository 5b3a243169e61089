// Benchmark, not a test (`yarn test` runs `src/**/*.test.ts` only): how many entities the catalog module emits for a
// simulated fleet, and how long until all of them are in the catalog. From the package folder:
//
//   CI=true yarn backstage-cli package test --roots '<rootDir>/../bench' --testMatch '**/*.bench.ts'
//
// Environment: FLEET_SIZE (S, M, L; default M), FLEET_KINDS (comma-separated Flux kinds; default the module's
// default, Kustomization and HelmRelease), BENCH_DATABASE (sqlite, the default: SQLite in memory; pg: the PostgreSQL
// of BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING, as `scripts/postgres.sh url` prints it, in a fresh
// database), FLEET_CLUSTERS (only the first N clusters of the fleet: a fraction of it, for profiling). It prints one
// JSON line `catalog ingest benchmark` with the figures, among them the database statements that took the most wall
// time (the profile) and, every 30 s, how many entities were received, processed and stitched.
// The simulator runs in a child process; the Flux Fleet backend, the catalog and this module run in this one, as in a
// one-process Backstage backend.
import {
  coreServices,
  createServiceFactory,
  LoggerService,
  RootLoggerService,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
  TestDatabases,
} from '@backstage/backend-test-utils';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import type { GroundTruth, SimCluster } from '@flux-fleet/fleet-sim';
import type { FluxKind } from '@flux-fleet/plugin-flux-fleet-common';
// The benchmark runs the real Flux Fleet backend, whose index this module reads in the app.
// eslint-disable-next-line @backstage/no-mixed-plugin-imports
import fluxFleetFeature from '@flux-fleet/plugin-flux-fleet-backend';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import catalogModule from '../src/index';
import { catalogTableRows, CatalogTableRows, profileStatements } from './catalogProfile';
import { countsFromTruth, shardsServedBy, sortKeys } from '../src/__testUtils__/fleetExpectations';

jest.setTimeout(60 * 60_000);

const SIZE = process.env.FLEET_SIZE ?? 'M';
const POLL_MS = SIZE === 'S' ? 1_000 : 10_000;
const KINDS = (process.env.FLEET_KINDS ?? 'Kustomization,HelmRelease').split(',') as FluxKind[];
const DATABASE = process.env.BENCH_DATABASE ?? 'sqlite';
const CLUSTER_LIMIT = process.env.FLEET_CLUSTERS ? Number(process.env.FLEET_CLUSTERS) : undefined;

if (DATABASE !== 'sqlite' && DATABASE !== 'pg') {
  throw new Error(`BENCH_DATABASE must be sqlite or pg, got '${DATABASE}'`);
}
// created at the top level: it registers Jest hooks that drop the databases it made
const DATABASE_ID = DATABASE === 'pg' ? 'POSTGRES_15' : 'SQLITE_3';
const databases = TestDatabases.create({ ids: [DATABASE_ID], disableDocker: true });

/**
 * The database every plugin of the backend uses (SQLite in memory, as the embedded default, or a fresh PostgreSQL
 * database), made here so the benchmark can time its statements and count the catalog's rows.
 */
async function database() {
  if (!databases.supports(DATABASE_ID)) {
    throw new Error('BENCH_DATABASE=pg needs BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING');
  }
  const knex = await databases.init(DATABASE_ID);
  return { knex, features: [mockServices.database.factory({ knex })] };
}

async function startSim(dir: string): Promise<{ child: ChildProcess; clusters: SimCluster[]; truth: GroundTruth }> {
  const truthFile = join(dir, 'truth.json');
  const child = spawn(process.execPath, [join(__dirname, 'simProcess.cjs'), SIZE, '1', truthFile], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', chunk => {
      out += chunk;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', code => reject(new Error(`the simulator exited with ${code}`)));
  });
  const all: SimCluster[] = JSON.parse(line).clusters;
  const clusters = CLUSTER_LIMIT ? all.slice(0, CLUSTER_LIMIT) : all;
  const names = new Set(clusters.map(c => c.name));
  const fullTruth: GroundTruth = JSON.parse(readFileSync(truthFile, 'utf8'));
  const truth: GroundTruth = {
    ...fullTruth,
    clusters: fullTruth.clusters.filter(c => names.has(c.name)),
    objects: fullTruth.objects.filter(o => names.has(o.cluster)),
  };
  return { child, clusters, truth };
}

/**
 * A root logger that prints warnings and errors and counts the entities the provider reports emitting, with the
 * time of its last emission: that separates the provider's work from the catalog's processing.
 */
function emissionLogger() {
  const emitted = { entities: 0, lastAt: 0 };
  const make = (): RootLoggerService => {
    const logger: LoggerService = {
      error: (message: string) => process.stderr.write(`error: ${message}\n`),
      warn: (message: string) => process.stderr.write(`warn: ${message}\n`),
      info: (message: string) => {
        const match = message.match(/^Flux Fleet .*: (\d+) entities emitted/);
        if (match) {
          emitted.entities += Number(match[1]);
          emitted.lastAt = Date.now();
        }
      },
      debug: () => {},
      child: () => logger,
    };
    return logger as RootLoggerService;
  };
  return {
    emitted,
    factory: createServiceFactory({ service: coreServices.rootLogger, deps: {}, factory: make }),
  };
}

it(`ingests the fleet ${SIZE} into the catalog`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flux-fleet-bench-'));
  const sim = await startSim(dir);
  let backend: Awaited<ReturnType<typeof startTestBackend>> | undefined;
  try {
    const expected = sortKeys(countsFromTruth(sim.truth, await shardsServedBy(sim.clusters), KINDS));
    const expectedTotal = Object.values(expected).reduce((a, b) => a + b, 0);

    const logs = emissionLogger();
    const db = await database();
    const profile = profileStatements(db.knex);
    let rows: CatalogTableRows | undefined;
    const started = Date.now();
    backend = await startTestBackend({
      features: [
        logs.factory,
        ...db.features,
        catalogPlugin,
        fluxFleetFeature,
        catalogModule,
        mockServices.rootConfig.factory({
          data: {
            fluxFleet: {
              clusters: sim.clusters.map(c => ({ name: c.name, url: c.server, serviceAccountToken: c.readOnlyToken })),
              persistence: { enabled: false },
            },
            catalog: {
              processingInterval: { minutes: 30 },
              providers: { fluxFleet: { kinds: KINDS } },
            },
          },
        }),
      ],
    });
    const get = async (path: string) =>
      (await request(backend!.server).get(path).set('Authorization', mockCredentials.user.header())).body;

    let syncedAt: number | undefined;
    let firstEntityAt: number | undefined;
    let counts: Record<string, number> = {};
    let lastProgressAt = Date.now();
    for (;;) {
      if (syncedAt === undefined) {
        const { items } = await get('/api/flux-fleet/clusters');
        if (items?.every((c: any) => c.status === 'synced')) syncedAt = Date.now();
      }
      const facets = await get(
        '/api/catalog/entity-facets?facet=spec.type&filter=metadata.annotations.flux-fleet.io/provider=default',
      );
      counts = sortKeys(
        Object.fromEntries((facets.facets?.['spec.type'] ?? []).map((f: any) => [f.value, f.count])),
      );
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      if (total > 0) firstEntityAt ??= Date.now();
      if (Date.now() - lastProgressAt >= 30_000) {
        lastProgressAt = Date.now();
        rows = await catalogTableRows(db.knex);
        // Straight to stderr: jest holds console output until the end.
        const seconds = (at: number) => Math.round((at - started) / 1000);
        process.stderr.write(
          `catalog ingest: ${total} of ${expectedTotal} entities in the catalog after ${seconds(Date.now())} s; ` +
            `${syncedAt ? `index synced at ${seconds(syncedAt)} s` : 'index syncing'}; ` +
            `provider emitted ${logs.emitted.entities}${
              logs.emitted.lastAt ? `, the last at ${seconds(logs.emitted.lastAt)} s` : ''
            }; catalog ${JSON.stringify(rows)}; slowest statements ${JSON.stringify(profile.top(4))}\n`,
        );
      }
      if (JSON.stringify(counts) === JSON.stringify(expected)) break;
      if (Date.now() - started > 55 * 60_000) {
        throw new Error(`not complete after 55 min: ${JSON.stringify(counts)} of ${JSON.stringify(expected)}`);
      }
      // Counting entities is a query over the catalog's search table, which blocks the event loop on SQLite: not
      // too often, so the benchmark does not slow down what it measures.
      await new Promise(resolve => setTimeout(resolve, POLL_MS));
    }
    const doneAt = Date.now();
    profile.stop();
    rows = await catalogTableRows(db.knex);
    const result = {
      fleet: SIZE,
      database: DATABASE,
      clusters: sim.clusters.length,
      fluxObjects: sim.truth.objects.length,
      kinds: KINDS,
      entities: expectedTotal,
      entitiesByType: expected,
      secondsUntilIndexSynced: syncedAt ? (syncedAt - started) / 1000 : null,
      secondsUntilFirstEntity: firstEntityAt ? (firstEntityAt - started) / 1000 : null,
      entitiesEmittedByProvider: logs.emitted.entities,
      secondsUntilProviderLastEmitted: logs.emitted.lastAt ? (logs.emitted.lastAt - started) / 1000 : null,
      secondsUntilAllEntities: (doneAt - started) / 1000,
      secondsFromIndexSyncedToAllEntities: syncedAt ? (doneAt - syncedAt) / 1000 : null,
      catalogRows: rows,
      // wall time of the database statements of every plugin (the catalog's, mostly), by statement and table
      slowestStatements: profile.top(15),
    };
    // eslint-disable-next-line no-console
    console.log(`catalog ingest benchmark ${JSON.stringify(result)}`);
    expect(counts).toEqual(expected);
  } finally {
    await backend?.stop();
    sim.child.stdin!.end();
    await new Promise(resolve => sim.child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
