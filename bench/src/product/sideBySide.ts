/**
 * The side-by-side parts: entity page views of Flux Fleet and of the Kubernetes plugin (its entity tab, the
 * community Flux cards) on the same backend and fleet, then the same views while one cluster is slow or hangs.
 */
import type { Faults } from '@flux-fleet/fleet-sim';
import type { RunningSimulator } from '../simulator';
import { ratio } from '../stats';
import {
  viewPages,
  type PageKind,
  type PageView,
  type PageViewSeries,
} from './pageViews';

/** The page kinds compared, Flux Fleet first (the baseline of every ratio). */
export const PAGE_KINDS: PageKind[] = [
  'fluxFleet',
  'kubernetesTab',
  'fluxCards',
];

/** Page views of every kind, and the Kubernetes plugin's p50 over Flux Fleet's. */
export interface SideBySide {
  series: PageViewSeries[];
  /** p50 of each Kubernetes-plugin page over Flux Fleet's p50. */
  p50ToFluxFleet: Partial<Record<PageKind, number | undefined>>;
}

/** Page views while one cluster misbehaves. */
export interface FaultResult {
  fault: 'slow' | 'hang';
  cluster: string;
  /** The simulator fault, e.g. `latencyMs=2000`. */
  setting: string;
  series: PageViewSeries[];
}

/** The latency the slow cluster adds to every answer. */
export const SLOW_CLUSTER_LATENCY_MS = 2_000;

interface ViewSettings {
  viewers: Record<PageKind, PageView>;
  services: string[];
  simulator: RunningSimulator;
  timeoutMs: number;
  log(line: string): void;
}

/**
 * Flux Fleet's entity page is viewed at least this many times, whatever `views` the other kinds get: its views
 * take milliseconds, and its p50 is what every ratio divides by. At fleet L, where the Kubernetes tab's views wait
 * out seconds each and get 10, Flux Fleet's p50 over 10 views was 6.0 ms in one run and 13.9 ms in the next.
 */
const FLUX_FLEET_MIN_VIEWS = 50;

/** `views` page views of each kind one after another, each after a warm-up view outside the figures. */
export async function measurePageViews(
  settings: ViewSettings & { views: number; idleSeconds: number },
): Promise<SideBySide> {
  const series: PageViewSeries[] = [];
  for (const kind of PAGE_KINDS) {
    const views = kind === 'fluxFleet' ? Math.max(settings.views, FLUX_FLEET_MIN_VIEWS) : settings.views;
    // connection set-up and JIT belong to no page view
    await settings.viewers[kind](settings.services[0], settings.timeoutMs);
    settings.log(`entity page views: ${kind}, ${views} views one after another`);
    series.push(
      await viewPages({
        kind,
        view: settings.viewers[kind],
        services: settings.services,
        views,
        timeoutMs: settings.timeoutMs,
        simulator: settings.simulator,
        ...(kind === 'fluxFleet' ? { idleSeconds: settings.idleSeconds } : {}),
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
}

/**
 * The page views of every kind while `cluster` answers `SLOW_CLUSTER_LATENCY_MS` late, then while it hangs (the
 * views then at once, so the series costs one timeout). Each fault is cleared afterwards, even on failure.
 */
export async function measureFaults(
  settings: ViewSettings & { views: number; cluster: string },
): Promise<FaultResult[]> {
  const faults: Array<{
    fault: FaultResult['fault'];
    setting: string;
    on: Partial<Faults>;
    off: Partial<Faults>;
  }> = [
    {
      fault: 'slow',
      setting: `latencyMs=${SLOW_CLUSTER_LATENCY_MS}`,
      on: { latencyMs: SLOW_CLUSTER_LATENCY_MS },
      off: { latencyMs: 0 },
    },
    {
      fault: 'hang',
      setting: 'hang',
      on: { hang: true },
      off: { hang: false },
    },
  ];
  const results: FaultResult[] = [];
  for (const { fault, setting, on, off } of faults) {
    settings.log(
      `faults: cluster ${settings.cluster} ${setting}, ${settings.views} views per plugin`,
    );
    await settings.simulator.setFault(settings.cluster, on);
    try {
      const series: PageViewSeries[] = [];
      for (const kind of PAGE_KINDS) {
        series.push(
          await viewPages({
            kind,
            view: settings.viewers[kind],
            services: settings.services,
            views: settings.views,
            timeoutMs: settings.timeoutMs,
            simulator: settings.simulator,
            concurrent: fault === 'hang',
          }),
        );
      }
      results.push({ fault, cluster: settings.cluster, setting, series });
    } finally {
      await settings.simulator.setFault(settings.cluster, off);
    }
  }
  return results;
}
