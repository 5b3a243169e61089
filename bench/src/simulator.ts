/**
 * The fleet simulator as the benchmark runs it: its CLI in a process of its own (so its CPU and memory are never
 * counted as a plugin's), and a client of its admin API (faults, ground truth, request counts).
 */
import type {
  EventLoopLoad,
  Faults,
  GroundTruth,
  RequestCounts,
} from '@flux-fleet/fleet-sim';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSimulatedClusters, type SimulatedCluster } from './kubeconfig';
import type { FleetSize } from './options';
import {
  startGroup,
  stopGroup,
  waitForLogLine,
  type ProcessGroup,
} from './processGroup';

/** A cluster as the admin API lists it. */
interface AdminCluster {
  name: string;
  fluxObjects: number;
  requests: RequestCounts;
  /** Bytes of metrics expositions the cluster answered so far (pod-proxy scrapes and scrape targets). */
  metricsBytesServed: number;
}

/** A running simulated fleet. */
export interface RunningSimulator {
  size: FleetSize;
  adminUrl: string;
  kubeconfigPath: string;
  clusters: SimulatedCluster[];
  /** Flux objects, as the ready line says. */
  fluxObjects: number;
  /** From the start of the process to its ready line. */
  readyMs: number;
  /**
   * API requests every cluster received so far, summed, by user (`flux-fleet-admin`, `flux-fleet-readonly`…):
   * every request but those that follow their own schedule whatever pages are viewed: capacity collection's (pod
   * proxy scrapes, controller lookups), a watcher's (opening watches, `GET /version` probes) and Flux Fleet's write
   * checks (a `SelfSubjectAccessReview` per cluster every five minutes: one round of them fell within Flux Fleet's
   * 50 page views at L once, and read as 2 requests per view, 2026-12-06). A page view that
   * reads a cluster makes other requests (lists, gets, discovery), which stay counted.
   */
  requestsByUser(): Promise<Record<string, number>>;
  /** Requests through the pod proxy (metrics scrapes) every cluster received so far, summed. */
  podProxyRequests(): Promise<number>;
  /** Bytes of metrics every cluster answered so far, summed: what scraping the controllers moves. */
  metricsBytesServed(): Promise<number>;
  /** Every request every cluster received so far, summed: all users, watches, probes and scrapes included. */
  allRequests(): Promise<number>;
  setFault(cluster: string, faults: Partial<Faults>): Promise<void>;
  /**
   * How busy the simulator's thread (every cluster's and the admin API's) has been since the last reset; `reset`
   * starts the next reading.
   */
  eventLoop(reset: boolean): Promise<EventLoopLoad>;
  truth(): Promise<GroundTruth>;
  stop(): Promise<void>;
}

/** Where the simulator lives in the repository. */
export function fleetSimBin(root: string): string {
  return join(root, 'packages/fleet-sim/bin/fleet-sim');
}

async function admin<T>(
  adminUrl: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${adminUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(
      `simulator admin API ${path} answered ${
        response.status
      }: ${await response.text()}`,
    );
  }
  return (await response.json()) as T;
}

/**
 * Starts `fleet-sim --size <size> --seed <seed> --port 0` with a kubeconfig in `dir`; resolves when it prints its
 * ready line (L takes minutes to generate).
 */
export async function startSimulator(options: {
  /** Names its log and kubeconfig files, e.g. `baseline`. */
  label: string;
  root: string;
  dir: string;
  size: FleetSize;
  seed: number;
  churn: number;
  tls: boolean;
}): Promise<RunningSimulator> {
  const kubeconfigPath = join(
    options.dir,
    `kubeconfig-${options.label}-${options.size}`,
  );
  const logFile = join(options.dir, `sim-${options.label}-${options.size}.log`);
  const started = Date.now();
  const group: ProcessGroup = startGroup(
    `fleet simulator ${options.size}`,
    process.execPath,
    [
      // L holds about 4 GB
      '--max-old-space-size=12288',
      // e.g. BENCH_SIM_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the simulator
      ...(process.env.BENCH_SIM_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      fleetSimBin(options.root),
      '--size',
      options.size,
      '--seed',
      String(options.seed),
      '--port',
      '0',
      '--churn',
      String(options.churn),
      '--kubeconfig',
      kubeconfigPath,
      ...(options.tls ? ['--tls'] : []),
    ],
    { cwd: options.root, logFile },
  );
  try {
    const ready = await waitForLogLine(
      group,
      /fleet-sim ready: (\d+) clusters, (\d+) objects, admin (\S+)/,
      options.size === 'L' ? 15 * 60_000 : 180_000,
    );
    const readyMs = Date.now() - started;
    const adminUrl = ready[3];
    const clusters = readSimulatedClusters(
      readFileSync(kubeconfigPath, 'utf8'),
    );
    const adminClusters = async (): Promise<AdminCluster[]> =>
      (await admin<{ items: AdminCluster[] }>(adminUrl, '/clusters')).items;
    /** Every cluster's request counts, from the admin API. */
    const requestCounts = async (): Promise<RequestCounts[]> =>
      (await adminClusters()).map(c => c.requests);
    return {
      size: options.size,
      adminUrl,
      kubeconfigPath,
      clusters,
      fluxObjects: Number(ready[2]),
      readyMs,
      async requestsByUser() {
        const sum: Record<string, number> = {};
        for (const requests of await requestCounts()) {
          for (const [user, count] of Object.entries(requests.byUser)) {
            sum[user] =
              (sum[user] ?? 0) +
              count -
              (requests.podProxyByUser[user] ?? 0) -
              (requests.controllerLookupsByUser[user] ?? 0) -
              (requests.watchesByUser[user] ?? 0) -
              (requests.versionProbesByUser[user] ?? 0) -
              (requests.accessReviewsByUser[user] ?? 0);
          }
        }
        return sum;
      },
      async allRequests() {
        return (await requestCounts()).reduce((sum, r) => sum + r.total, 0);
      },
      async metricsBytesServed() {
        return (await adminClusters()).reduce((sum, c) => sum + c.metricsBytesServed, 0);
      },
      async podProxyRequests() {
        return (await requestCounts())
          .flatMap(r => Object.values(r.podProxyByUser))
          .reduce((a, b) => a + b, 0);
      },
      async setFault(cluster, faults) {
        await admin(
          adminUrl,
          `/clusters/${encodeURIComponent(cluster)}/faults`,
          faults,
        );
      },
      eventLoop: reset =>
        admin<EventLoopLoad>(adminUrl, `/event-loop${reset ? '?reset=1' : ''}`),
      truth: () => admin<GroundTruth>(adminUrl, '/truth'),
      stop: () => stopGroup(group),
    };
  } catch (error) {
    await stopGroup(group);
    throw error;
  }
}
