/**
 * What collecting capacity figures costs (issue 12): over whole collection rounds on the product backend
 * (capacity collection on, its default 60 s interval, scraping controller pods through the pod proxy), the
 * controller pods scraped per minute (pods of the measured controllers × rounds seen in /capacity),
 * the pod proxy requests per minute the clusters received, every request per minute the clusters received
 * (watches, probes and controller lookups included; only the backend sends any during the window), and the
 * backend's CPU over the window.
 */
import type { CapacityReport } from '@flux-fleet/plugin-flux-fleet-common';
import type { RunningSimulator } from '../simulator';
import type { BackendClient } from './backendClient';
import { RoundEnds } from './roundEnds';

/** The figures of the capacity part. */
export interface CapacityCost {
  /** From the end of one round to the end of the last measured (or the time waited, without whole rounds). */
  windowSeconds: number;
  /** Whether the window spans whole rounds; absent from results of runs before it did. */
  wholeRounds?: boolean;
  controllers: number;
  /** Controllers whose figures came from their metrics at the end of the window. */
  measuredControllers: number;
  /** Collection rounds the window spans (without whole rounds: the most distinct `measuredAt` of a controller). */
  rounds: number;
  /** Controller scrapes per minute: one per measured controller per round (the simulator runs one pod each). */
  scrapesPerMinute: number;
  /** Requests through the pod proxy (the scrapes, retries included), per minute, over the window. */
  podProxyRequestsPerMinute: number;
  /** Metrics the simulated clusters answered those scrapes, in MB (10^6 bytes) per minute, over the window. */
  metricsMBPerMinute?: number;
  /** Every request the simulated clusters received, per minute, over the window (watches and scrapes included). */
  clusterRequestsPerMinute: number;
  /** The backend's CPU over the window, in cores (collection, watches, churn, everything). */
  backendCores: number;
}

/** How long the pod proxy requests must stand still for a round to count as ended (rounds take 2-40 s). */
const QUIET_MS = 10_000;
/** How often the simulator's counts are read while waiting for round ends. */
const POLL_MS = 1_000;
/** How often the backend's capacity report is read for the controllers' measurement times. */
const REPORT_POLL_MS = 5_000;

/** The counters at one moment. */
interface Reading {
  at: number;
  proxied: number;
  bytes: number;
  requests: number;
  cpu: number;
}

/**
 * Measures over `rounds` whole collection rounds: from the end of one round (RoundEnds) to the end of the
 * `rounds`-th after it, so each figure per minute is what the rounds cost over the time they take. When no round
 * ends come within `rounds + 2` intervals (rounds overrunning their interval), it reports the time it waited, with
 * `wholeRounds: false`.
 */
export async function measureCapacityCost(options: {
  client: BackendClient;
  simulator: RunningSimulator;
  cpuSeconds: () => number;
  rounds: number;
  intervalSeconds: number;
  log(line: string): void;
}): Promise<CapacityCost> {
  const { client, simulator, rounds, intervalSeconds, log } = options;
  log(`capacity: ${rounds} whole collection rounds (pod proxy, every controller pod)`);
  const read = async (): Promise<Reading> => ({
    at: Date.now(),
    proxied: await simulator.podProxyRequests(),
    bytes: await simulator.metricsBytesServed(),
    requests: await simulator.allRequests(),
    cpu: options.cpuSeconds(),
  });
  const first = await read();
  const deadline = first.at + (rounds + 2) * intervalSeconds * 1000;
  const tracker = new RoundEnds(QUIET_MS);
  tracker.observe(first.at, first.proxied);
  /** Each controller's distinct measurement times: one per round that scraped it. */
  const measuredAt = new Map<string, Set<number>>();
  let from: Reading | undefined;
  let ends = 0;
  let to: Reading;
  let reportReadAt = 0;
  for (;;) {
    await new Promise(r => setTimeout(r, POLL_MS));
    const now = Date.now();
    if (now - reportReadAt >= REPORT_POLL_MS) {
      reportReadAt = now;
      noteMeasurements(await client.get<CapacityReport>('/api/flux-fleet/capacity'), measuredAt);
    }
    // only the pod proxy count each second; every counter at a round's end and at the last reading
    const proxied = await simulator.podProxyRequests();
    const at = Date.now();
    if (tracker.observe(at, proxied)) {
      if (from) ends++;
      else from = await read();
    }
    if (from && ends >= rounds) {
      to = await read();
      break;
    }
    if (at >= deadline) {
      log(`capacity: no ${rounds} whole rounds within ${Math.round((deadline - first.at) / 1000)} s; figures over that time`);
      from = first;
      to = await read();
      break;
    }
  }
  const last = await client.get<CapacityReport>('/api/flux-fleet/capacity');
  noteMeasurements(last, measuredAt);
  const wholeRounds = ends >= rounds;
  const seconds = (to.at - from.at) / 1000;
  const perMinute = (n: number) => Math.round((n / seconds) * 60);
  const within = (t: number) => t > from!.at && t <= to.at;
  const scrapes = [...measuredAt.values()].reduce((a, times) => a + [...times].filter(within).length, 0);
  const controllers = last.items.flatMap(i => i.controllers);
  return {
    windowSeconds: Math.round(seconds),
    wholeRounds,
    controllers: controllers.length,
    measuredControllers: controllers.filter(c => c.source === 'metrics').length,
    rounds: wholeRounds
      ? ends
      : Math.max(0, ...[...measuredAt.values()].map(times => [...times].filter(within).length)),
    scrapesPerMinute: perMinute(scrapes),
    podProxyRequestsPerMinute: perMinute(to.proxied - from.proxied),
    metricsMBPerMinute: Math.round((((to.bytes - from.bytes) / 1e6) * 60) / seconds),
    clusterRequestsPerMinute: perMinute(to.requests - from.requests),
    backendCores: Math.round(((to.cpu - from.cpu) / seconds) * 100) / 100,
  };
}

function noteMeasurements(report: CapacityReport, measuredAt: Map<string, Set<number>>) {
  for (const c of report.items.flatMap(i => i.controllers)) {
    if (!c.measuredAt) continue;
    const key = `${c.cluster}/${c.instance}/${c.controller}`;
    measuredAt.set(key, (measuredAt.get(key) ?? new Set()).add(Date.parse(c.measuredAt)));
  }
}
