/**
 * The product parts, on one simulated fleet and one running backend: API under load, freshness, entity page views
 * side by side with the Kubernetes plugin, and the same views while one cluster is slow or hangs.
 */
import type { FleetSummary } from '@flux-fleet/plugin-flux-fleet-common';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { BenchOptions } from '../options';
import { startSimulator, type RunningSimulator } from '../simulator';
import { ratio } from '../stats';
import { loadRoute, type RouteLoad } from './apiLoad';
import type { BackendClient } from './backendClient';
import { componentsYaml, sampleServices } from './catalogComponents';
import { measureFreshness, type Freshness } from './freshness';
import {
  pageViewers,
  viewPages,
  type PageKind,
  type PageViewSeries,
} from './pageViews';
import { startProductBackend, type ProductBackend } from './productBackend';
import { guestUserToken } from './signalsClient';

/** Page views while one cluster misbehaves. */
export interface FaultResult {
  fault: 'slow' | 'hang';
  cluster: string;
  /** The simulator fault, e.g. `latencyMs=2000`. */
  setting: string;
  series: PageViewSeries[];
}

/** Figures of the product parts (each part is absent when it failed; `failures` says why). */
export interface ProductResult {
  size: 'S' | 'M';
  seed: number;
  clusters: number;
  fluxObjects: number;
  churnPerSecondPerCluster: number;
  /** Components in the catalog whose pages are viewed. */
  services: number;
  backend?: {
    readyMs: number;
    syncedMs: number;
    /** Resident memory of the backend process once synced, and after every part ran. */
    rssMiBSynced: number;
    rssMiBAtEnd?: number;
  };
  api?: {
    connections: number;
    seconds: number;
    routes: RouteLoad[];
    /** The route every other is compared with: the catalog's own entity lookup on the same backend. */
    baseline: string;
    /** p50 of each route over the baseline's p50. */
    p50ToBaseline: Record<string, number | undefined>;
  };
  freshness?: Freshness;
  pageViews?: {
    series: PageViewSeries[];
    /** p50 of each Kubernetes-plugin page over Flux Fleet's p50. */
    p50ToFluxFleet: Partial<Record<PageKind, number | undefined>>;
  };
  faults?: FaultResult[];
  failures: Array<{ part: string; message: string }>;
}

const SLOW_CLUSTER_LATENCY_MS = 2_000;

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

/** Paths of the object list with filters a fleet page uses (every one must answer 200). */
function objectQueries(clusters: string[]): string[] {
  const base = '/api/flux-fleet/objects';
  return [
    `${base}?kind=HelmRelease&state=failed&limit=100`,
    `${base}?state=failed,stalled,blocked&sort=updatedAt&order=desc&limit=100`,
    `${base}?q=api&sort=name&limit=100`,
    ...clusters.map(
      c =>
        `${base}?cluster=${encodeURIComponent(
          c,
        )}&kind=Kustomization&sort=state&limit=100`,
    ),
  ];
}

async function checkPaths(
  client: BackendClient,
  paths: string[],
): Promise<void> {
  for (const path of new Set(paths)) {
    const answer = await client.call(path);
    if (answer.status !== 200) {
      throw new Error(
        `GET ${path} answered ${answer.status}: ${JSON.stringify(
          answer.body,
        )?.slice(0, 300)}`,
      );
    }
  }
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
    backend = await startProductBackend({
      root: options.root,
      dir: options.dir,
      settings: {
        port: await freePort(),
        apiToken: randomBytes(24).toString('hex'),
        kubeconfigPath: sim.kubeconfigPath,
        clusters: sim.clusters,
        catalogFile,
      },
    });
    const syncedMs = await backend.waitSynced(600_000);
    result.backend = {
      readyMs: backend.readyMs,
      syncedMs,
      rssMiBSynced: Math.round(backend.rssBytes() / 2 ** 20),
    };
    log(
      `product ${size}: backend ready in ${backend.readyMs} ms, every cluster synced ${syncedMs} ms later`,
    );
    const { client } = backend;
    await waitForCatalog(client, services[0], 120_000);
    const summary = await client.get<FleetSummary>('/api/flux-fleet/summary');
    result.fluxObjects = summary.objects;

    result.api = await part('API under load', async () => {
      const routes: Record<string, string[]> = {
        'entity view': services.map(
          s => `/api/flux-fleet/entity/component/default/${s}`,
        ),
        'objects, filtered': objectQueries(sim.clusters.map(c => c.name)),
        'fleet summary': ['/api/flux-fleet/summary'],
        'baseline: catalog entity by name': services.map(
          s => `/api/catalog/entities/by-name/component/default/${s}`,
        ),
      };
      const loads: RouteLoad[] = [];
      for (const [name, paths] of Object.entries(routes)) {
        await checkPaths(client, paths);
        log(
          `API under load: ${name}, ${bench.connections} connections, ${bench.loadSeconds} s`,
        );
        loads.push(
          await loadRoute({
            name,
            baseUrl: client.baseUrl,
            token: client.token,
            paths,
            seconds: bench.loadSeconds,
            connections: bench.connections,
          }),
        );
      }
      const baseline = loads[loads.length - 1];
      return {
        connections: bench.connections,
        seconds: bench.loadSeconds,
        routes: loads,
        baseline: baseline.name,
        p50ToBaseline: Object.fromEntries(
          loads.map(l => [
            l.name,
            ratio(l.latencyMs.p50, baseline.latencyMs.p50),
          ]),
        ),
      };
    });

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
      });
    });

    const viewers = await part('page views (setup)', () =>
      pageViewers(client, services),
    );
    if (viewers) {
      const kinds: PageKind[] = ['fluxFleet', 'kubernetesTab', 'fluxCards'];
      result.pageViews = await part('entity page views', async () => {
        const series: PageViewSeries[] = [];
        for (const kind of kinds) {
          // a first view outside the figures: connection set-up, JIT
          await viewers[kind](services[0], bench.pageTimeoutMs);
          log(
            `entity page views: ${kind}, ${bench.pageViews} views one after another`,
          );
          series.push(
            await viewPages({
              kind,
              view: viewers[kind],
              services,
              views: bench.pageViews,
              timeoutMs: bench.pageTimeoutMs,
              simulator: sim,
              ...(kind === 'fluxFleet'
                ? { idleSeconds: bench.quick ? 2 : 5 }
                : {}),
            }),
          );
        }
        const ours = series[0].latencyMs.p50;
        return {
          series,
          p50ToFluxFleet: Object.fromEntries(
            series.slice(1).map(s => [s.kind, ratio(s.latencyMs.p50, ours)]),
          ),
        };
      });

      result.faults = await part('faults', async () => {
        const cluster = sim.clusters[Math.min(1, sim.clusters.length - 1)].name;
        const faults: FaultResult[] = [];
        for (const fault of ['slow', 'hang'] as const) {
          const setting =
            fault === 'slow' ? `latencyMs=${SLOW_CLUSTER_LATENCY_MS}` : 'hang';
          log(
            `faults: cluster ${cluster} ${setting}, ${bench.faultViews} views per plugin`,
          );
          await sim.setFault(
            cluster,
            fault === 'slow'
              ? { latencyMs: SLOW_CLUSTER_LATENCY_MS }
              : { hang: true },
          );
          try {
            const series: PageViewSeries[] = [];
            for (const kind of kinds) {
              series.push(
                await viewPages({
                  kind,
                  view: viewers[kind],
                  services,
                  views: bench.faultViews,
                  timeoutMs: bench.pageTimeoutMs,
                  simulator: sim,
                  concurrent: fault === 'hang',
                }),
              );
            }
            faults.push({ fault, cluster, setting, series });
          } finally {
            await sim.setFault(
              cluster,
              fault === 'slow' ? { latencyMs: 0 } : { hang: false },
            );
          }
        }
        return faults;
      });
    }
    result.backend.rssMiBAtEnd = Math.round(backend.rssBytes() / 2 ** 20);
    return result;
  } finally {
    await backend?.stop();
    await sim.stop();
    log(`product ${size}: backend and simulator stopped`);
  }
}
