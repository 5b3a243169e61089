/**
 * The product parts, on one simulated fleet and one running backend: API under load, freshness, entity page views
 * side by side with the Kubernetes plugin, and the same views while one cluster is slow or hangs.
 */
import type { FleetSummary } from '@flux-fleet/plugin-flux-fleet-common';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { BenchOptions, FleetSize } from '../options';
import { startSimulator, type RunningSimulator } from '../simulator';
import { measureApiUnderLoad, type ApiUnderLoad } from './apiUnderLoad';
import { measureCapacityCost, type CapacityCost } from './capacityCost';
import type { BackendClient } from './backendClient';
import { componentsYaml, sampleServices } from './catalogComponents';
import { measureFreshness, type Freshness } from './freshness';
import { pageViewers } from './pageViews';
import { startProductBackend, type ProductBackend } from './productBackend';
import {
  measureFaults,
  measurePageViews,
  type FaultResult,
  type SideBySide,
} from './sideBySide';
import { guestUserToken } from './signalsClient';

/** Figures of the product parts (each part is absent when it failed; `failures` says why). */
export interface ProductResult {
  size: FleetSize;
  seed: number;
  clusters: number;
  fluxObjects: number;
  churnPerSecondPerCluster: number;
  /** Components in the catalog whose pages are viewed. */
  services: number;
  backend?: {
    readyMs: number;
    /**
     * From readiness until every cluster was synced. Until the lists waited for readiness (2026-12-08, ecafe6f) they
     * ran from the plugin's start, and readiness waited behind them (at L 10.6 s on 2026-12-07, 37.6 s on
     * 2026-12-08): results of before then undercount the sync by whatever of it came before readiness.
     */
    syncedMs: number;
    /**
     * From starting the backend's process until every cluster was synced: what a user who starts the backend
     * waits for (absent in results of before 2026-12-08).
     */
    syncedSinceStartMs?: number;
    /** Resident memory of the backend process once synced, and after every part ran. */
    rssMiBSynced: number;
    rssMiBAtEnd?: number;
    /**
     * From every cluster synced (and the catalog holding the viewed Components) until the backend used less than
     * {@link SETTLED_CORES} of a core over {@link SETTLE_WINDOW_MS}: the measurements start then, so that they show
     * the backend as users meet it, not its start-up work (first snapshots, catalog and search ingest).
     */
    settledMs?: number;
    /** The backend's CPU use (cores) over the last window before the measurements started. */
    settledCores?: number;
    /** Node flags added through `BENCH_BACKEND_NODE_FLAGS` (absent when none): figures of another configuration. */
    extraNodeFlags?: string[];
  };
  api?: ApiUnderLoad;
  freshness?: Freshness;
  pageViews?: SideBySide;
  faults?: FaultResult[];
  /** The cost of collecting capacity figures (pod proxy scrapes per minute, backend CPU). */
  capacity?: CapacityCost;
  failures: Array<{ part: string; message: string }>;
}

const SETTLED_CORES = 0.5;
const SETTLE_WINDOW_MS = 5_000;
const SETTLE_MAX_MS = 180_000;

/** Waits until the backend's processes use less than SETTLED_CORES, or SETTLE_MAX_MS has passed. */
async function waitSettled(cpuSeconds: () => number): Promise<{ ms: number; cores: number }> {
  const from = Date.now();
  for (;;) {
    const before = cpuSeconds();
    const t = Date.now();
    await new Promise(r => setTimeout(r, SETTLE_WINDOW_MS));
    const cores = (cpuSeconds() - before) / ((Date.now() - t) / 1000);
    if (cores < SETTLED_CORES || Date.now() - from >= SETTLE_MAX_MS) {
      return { ms: Date.now() - from, cores: Math.round(cores * 100) / 100 };
    }
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === 'object' && address ? address.port : 0),
      );
    });
  });
}

async function waitForCatalog(
  client: BackendClient,
  service: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (
    (
      await client.call(
        `/api/catalog/entities/by-name/component/default/${service}`,
      )
    ).status !== 200
  ) {
    if (Date.now() > deadline) {
      throw new Error(
        `the catalog has no component:default/${service} after ${
          timeoutMs / 1000
        } s`,
      );
    }
    await new Promise(r => setTimeout(r, 500));
  }
}

/** Runs every product part; never throws for one part's failure (it is recorded, the others still run). */
export async function measureProduct(options: {
  root: string;
  dir: string;
  bench: BenchOptions;
  log(line: string): void;
}): Promise<ProductResult> {
  const { bench, log } = options;
  const size = bench.productSize;
  const failures: ProductResult['failures'] = [];
  const part = async <T>(
    name: string,
    run: () => Promise<T>,
  ): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      log(`!! ${name} failed: ${message.split('\n')[0]}`);
      failures.push({ part: name, message });
      return undefined;
    }
  };

  log(
    `product ${size}: starting the simulated fleet (seed ${bench.seed}, TLS, churn ${bench.churn}/s per cluster)`,
  );
  const sim: RunningSimulator = await startSimulator({
    label: 'product',
    root: options.root,
    dir: options.dir,
    size,
    seed: bench.seed,
    churn: bench.churn,
    tls: true,
  });
  const result: ProductResult = {
    size,
    seed: bench.seed,
    clusters: sim.clusters.length,
    fluxObjects: sim.fluxObjects,
    churnPerSecondPerCluster: bench.churn,
    services: 0,
    failures,
  };
  let backend: ProductBackend | undefined;
  try {
    const truth = await sim.truth();
    const services = sampleServices(truth.objects, bench.quick ? 10 : 100);
    result.services = services.length;
    const catalogFile = join(options.dir, 'components.yaml');
    writeFileSync(catalogFile, componentsYaml(services));

    log(
      `product ${size}: starting the backend (packages/backend) on ${sim.clusters.length} clusters`,
    );
    const extraNodeFlags = (process.env.BENCH_BACKEND_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    backend = await startProductBackend({
      root: options.root,
      dir: options.dir,
      ...(size === 'L' && { maxOldSpaceMiB: 16_384 }),
      // e.g. BENCH_BACKEND_NODE_FLAGS='--cpu-prof --cpu-prof-interval=5000 --cpu-prof-dir=/tmp/prof' to profile it
      nodeFlags: extraNodeFlags,
      settings: {
        port: await freePort(),
        apiToken: randomBytes(24).toString('hex'),
        kubeconfigPath: sim.kubeconfigPath,
        clusters: sim.clusters,
        catalogFile,
      },
    });
    const syncedMs = await backend.waitSynced(600_000);
    const syncedSinceStartMs = Date.now() - backend.startedAt;
    result.backend = {
      readyMs: backend.readyMs,
      syncedMs,
      syncedSinceStartMs,
      rssMiBSynced: Math.round(backend.rssBytes() / 2 ** 20),
      ...(extraNodeFlags.length > 0 && { extraNodeFlags }),
    };
    log(
      `product ${size}: every cluster synced ${syncedSinceStartMs} ms after the backend started (ready in ${backend.readyMs} ms, synced ${syncedMs} ms after that)`,
    );
    const { client } = backend;
    await waitForCatalog(client, services[0], 120_000);
    const settled = await waitSettled(backend.cpuSeconds);
    result.backend.settledMs = settled.ms;
    result.backend.settledCores = settled.cores;
    log(
      `product ${size}: backend settled ${settled.ms} ms later (${settled.cores} cores over the last ${
        SETTLE_WINDOW_MS / 1000
      } s)`,
    );
    const summary = await client.get<FleetSummary>('/api/flux-fleet/summary');
    result.fluxObjects = summary.objects;

    result.api = await part('API under load', () =>
      measureApiUnderLoad({
        client,
        services,
        clusters: sim.clusters.map(c => c.name),
        connections: bench.connections,
        seconds: bench.loadSeconds,
        log,
      }),
    );

    result.freshness = await part('freshness', async () => {
      log(
        `freshness: ${bench.freshnessChanges} changes through the simulator's API, signals on entity and object channels`,
      );
      return measureFreshness({
        client,
        userToken: await guestUserToken(client.baseUrl),
        services: services.slice(0, bench.quick ? 3 : 10),
        clusters: sim.clusters,
        changes: bench.freshnessChanges,
        simulatorEventLoop: reset => sim.eventLoop(reset),
      });
    });

    const viewers = await part('page views (setup)', () =>
      pageViewers(client, services),
    );
    if (viewers) {
      const settings = {
        viewers,
        services,
        simulator: sim,
        timeoutMs: bench.pageTimeoutMs,
        log,
      };
      result.pageViews = await part('entity page views', () =>
        measurePageViews({
          ...settings,
          views: bench.pageViews,
          idleSeconds: bench.quick ? 2 : 5,
        }),
      );
      result.faults = await part('faults', () =>
        measureFaults({
          ...settings,
          views: bench.faultViews,
          // any cluster would do; a fixed one keeps runs comparable
          cluster: sim.clusters[Math.min(1, sim.clusters.length - 1)].name,
        }),
      );
    }
    result.capacity = await part('capacity collection', () =>
      measureCapacityCost({
        client,
        simulator: sim,
        cpuSeconds: backend!.cpuSeconds,
        rounds: bench.quick ? 1 : 2,
        // the backend's default (fluxFleet.capacity.intervalSeconds), which the bench does not change
        intervalSeconds: 60,
        log,
      }),
    );
    result.backend.rssMiBAtEnd = Math.round(backend.rssBytes() / 2 ** 20);
    return result;
  } finally {
    await backend?.stop();
    await sim.stop();
    log(`product ${size}: backend and simulator stopped`);
  }
}
