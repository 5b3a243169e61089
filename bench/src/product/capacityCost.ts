/**
 * What collecting capacity figures costs (issue 12): over a window of whole collection rounds on the product
 * backend (capacity collection on, its default 60 s interval, scraping every controller pod through the pod
 * proxy), the controller pods scraped per minute (pods of the measured controllers × rounds seen in /capacity),
 * the pod proxy requests per minute the clusters received, every request per minute the clusters received
 * (watches, probes and controller lookups included; only the backend sends any during the window), and the
 * backend's CPU over the window.
 */
import type { CapacityReport } from '@flux-fleet/plugin-flux-fleet-common';
import type { RunningSimulator } from '../simulator';
import type { BackendClient } from './backendClient';

/** The figures of the capacity part. */
export interface CapacityCost {
  windowSeconds: number;
  controllers: number;
  /** Controllers whose figures came from their metrics at the end of the window. */
  measuredControllers: number;
  /** Collection rounds that ended within the window (distinct `measuredAt`). */
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

export async function measureCapacityCost(options: {
  client: BackendClient;
  simulator: RunningSimulator;
  cpuSeconds: () => number;
  windowSeconds: number;
  log(line: string): void;
}): Promise<CapacityCost> {
  const { client, simulator, windowSeconds, log } = options;
  log(`capacity: ${windowSeconds} s of collection rounds (pod proxy, every controller pod)`);
  const started = Date.now();
  const requestsBefore = await simulator.allRequests();
  const proxyBefore = await simulator.podProxyRequests();
  const bytesBefore = await simulator.metricsBytesServed();
  const cpuBefore = options.cpuSeconds();
  /** Each controller's distinct measurement times within the window: one per round that measured it. */
  const rounds = new Map<string, Set<string>>();
  let last: CapacityReport | undefined;
  while (Date.now() - started < windowSeconds * 1000) {
    last = await client.get<CapacityReport>('/api/flux-fleet/capacity');
    for (const c of last.items.flatMap(i => i.controllers)) {
      if (c.measuredAt && Date.parse(c.measuredAt) >= started) {
        const key = `${c.cluster}/${c.instance}/${c.controller}`;
        rounds.set(key, (rounds.get(key) ?? new Set()).add(c.measuredAt));
      }
    }
    await new Promise(r => setTimeout(r, 5_000));
  }
  const seconds = (Date.now() - started) / 1000;
  const proxied = (await simulator.podProxyRequests()) - proxyBefore;
  const bytes = (await simulator.metricsBytesServed()) - bytesBefore;
  const requests = (await simulator.allRequests()) - requestsBefore;
  const cores = (options.cpuSeconds() - cpuBefore) / seconds;
  const controllers = last?.items.flatMap(i => i.controllers) ?? [];
  const measured = controllers.filter(c => c.source === 'metrics').length;
  const perMinute = (n: number) => Math.round((n / seconds) * 60);
  const roundsSeen = Math.max(0, ...[...rounds.values()].map(r => r.size));
  const scrapes = [...rounds.values()].reduce((a, r) => a + r.size, 0);
  return {
    windowSeconds: Math.round(seconds),
    controllers: controllers.length,
    measuredControllers: measured,
    rounds: roundsSeen,
    scrapesPerMinute: perMinute(scrapes),
    podProxyRequestsPerMinute: perMinute(proxied),
    metricsMBPerMinute: Math.round(((bytes / 1e6) * 60) / seconds),
    clusterRequestsPerMinute: perMinute(requests),
    backendCores: Math.round(cores * 100) / 100,
  };
}
