import type {
  ControllerMeasurement,
  FluxController,
  MeasuredFigures,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { PrometheusSettings } from '../config/FleetConfig';
import { PrometheusClient } from './PrometheusClient';
import type { VectorSample } from './PrometheusClient';

const BY = 'namespace, deployment';

/** Escapes a PromQL string literal. */
const literal = (value: string) => JSON.stringify(value);

/**
 * The PromQL behind each figure, grouped by the target labels `namespace` and `deployment` (rules §12). Summed over
 * a Deployment's pods and controller-runtime controllers as the pod proxy figures are; workers and memory are of
 * the pod with the most.
 */
export function figureQueries(
  clusterLabel: string,
  cluster: string,
  windowSeconds: number,
): Record<keyof MeasuredFigures | 'pods', string> {
  const sel = `${clusterLabel}=${literal(cluster)}`;
  const w = `[${windowSeconds}s]`;
  const rate = (metric: string, extra = '') =>
    `sum by (${BY}) (rate(${metric}{${sel}${extra}}${w}))`;
  const p95 = (metric: string) =>
    `histogram_quantile(0.95, sum by (le, ${BY}) (rate(${metric}_bucket{${sel}}${w})))`;
  return {
    pods: `max by (${BY}, pod) (up{${sel}})`,
    maxConcurrentReconciles: `max by (${BY}) (sum by (${BY}, pod) (controller_runtime_max_concurrent_reconciles{${sel}}))`,
    activeWorkers: `sum by (${BY}) (avg_over_time(controller_runtime_active_workers{${sel}}${w}))`,
    reconcilesPerSecond: rate('controller_runtime_reconcile_total'),
    reconcileErrorsPerSecond: rate('controller_runtime_reconcile_errors_total'),
    reconcileTimeMeanSeconds: `${rate(
      'controller_runtime_reconcile_time_seconds_sum',
    )} / ${rate('controller_runtime_reconcile_time_seconds_count')}`,
    reconcileTimeP95Seconds: p95('controller_runtime_reconcile_time_seconds'),
    queueDepth: `sum by (${BY}) (workqueue_depth{${sel}})`,
    queueDepthTrendPerMinute: `sum by (${BY}) (deriv(workqueue_depth{${sel}}${w})) * 60`,
    queueWaitP95Seconds: p95('workqueue_queue_duration_seconds'),
    apiRequestsPerSecond: rate('rest_client_requests_total'),
    apiThrottledPerSecond: rate('rest_client_requests_total', ',code="429"'),
    cpuCores: rate('process_cpu_seconds_total'),
    memoryBytes: `max by (${BY}) (process_resident_memory_bytes{${sel}})`,
  };
}

/** What Prometheus said about one cluster's controllers. */
export interface PrometheusClusterAnswer {
  /** One per controller Prometheus has series for. */
  measurements: ControllerMeasurement[];
  /** Why a controller has none: keyed by Deployment (`namespace/name`), or `*` for every controller. */
  unmeasured: Map<string, string>;
}

/** Measures controllers through a Prometheus server that scrapes them (rules §12). Never throws. */
export class PrometheusSource {
  private readonly client: PrometheusClient;

  constructor(
    private readonly settings: PrometheusSettings,
    private readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.client = new PrometheusClient(settings);
  }

  async measureCluster(
    cluster: string,
    controllers: readonly FluxController[],
    signal?: AbortSignal,
  ): Promise<PrometheusClusterAnswer> {
    const at = this.now();
    const queries = Object.entries(
      figureQueries(this.settings.clusterLabel, cluster, this.windowSeconds),
    );
    const answers = await Promise.allSettled(
      queries.map(([, q]) => this.client.query(q, at, signal)),
    );
    const failures = [
      ...new Set(
        answers.flatMap(a =>
          a.status === 'rejected' ? [(a.reason as Error).message] : [],
        ),
      ),
    ];
    const unmeasured = new Map<string, string>();
    if (answers.every(a => a.status === 'rejected')) {
      unmeasured.set('*', failures.join('; '));
      return { measurements: [], unmeasured };
    }
    const byDeployment = new Map<string, Map<string, VectorSample>>();
    queries.forEach(([figure], i) => {
      const answer = answers[i];
      if (answer.status !== 'fulfilled') return;
      for (const sample of answer.value) {
        const key = `${sample.labels.namespace}/${sample.labels.deployment}`;
        const figures =
          byDeployment.get(key) ?? new Map<string, VectorSample>();
        byDeployment.set(key, figures);
        if (figure === 'pods') figures.set(`pod:${sample.labels.pod}`, sample);
        else figures.set(figure, sample);
      }
    });
    const measurements: ControllerMeasurement[] = [];
    for (const c of controllers) {
      const key = `${c.instance}/${c.name}`;
      const found = byDeployment.get(key);
      if (!found || ![...found.keys()].some(k => !k.startsWith('pod:'))) {
        unmeasured.set(
          key,
          `Prometheus at ${
            this.settings.url
          } has no series of deployment ${literal(
            c.name,
          )} in namespace ${literal(c.instance)} with ${
            this.settings.clusterLabel
          }=${literal(cluster)}`,
        );
        continue;
      }
      measurements.push(this.measurement(cluster, c, found, at, failures));
    }
    return { measurements, unmeasured };
  }

  private measurement(
    cluster: string,
    c: FluxController,
    found: Map<string, VectorSample>,
    at: number,
    failures: string[],
  ): ControllerMeasurement {
    const problems = [...failures];
    const figures: MeasuredFigures = {};
    for (const [figure, sample] of found) {
      if (figure.startsWith('pod:')) continue;
      if (Number.isNaN(sample.value)) continue; // no observations in the window (a quantile or mean of nothing)
      if (!Number.isFinite(sample.value)) {
        problems.push(
          `Prometheus answered ${
            sample.value > 0 ? '+Inf' : '-Inf'
          } for ${figure}; left out`,
        );
        continue;
      }
      figures[figure as keyof MeasuredFigures] = sample.value;
    }
    if (
      figures.apiRequestsPerSecond !== undefined &&
      figures.apiThrottledPerSecond === undefined
    ) {
      figures.apiThrottledPerSecond = 0; // no 429 series: never throttled in the window
    }
    return {
      cluster,
      namespace: c.instance,
      deployment: c.name,
      component: c.component,
      source: 'prometheus',
      pods: [...found.keys()]
        .filter(k => k.startsWith('pod:'))
        .map(k => k.slice(4))
        .sort(),
      measuredAt: new Date(at).toISOString(),
      windowSeconds: this.windowSeconds,
      ...figures,
      problems,
    };
  }
}
