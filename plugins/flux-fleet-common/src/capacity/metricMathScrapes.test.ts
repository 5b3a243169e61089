import type { MetricSample, PodScrape } from './exposition';
import { figuresFromScrapes } from './metricMathScrapes';

/** A controller's scrape: every series the figures read, built from a few numbers. */
function scrape(
  pod: string,
  atSeconds: number,
  v: {
    reconciles: number;
    errors?: number;
    timeSum?: number;
    /** cumulative counts for le 0.5, 1, 2, +Inf */
    timeBuckets?: [number, number, number, number];
    depth?: number;
    cpu?: number;
    memory?: number;
    requests?: number;
    throttled?: number;
    controllers?: string[];
  },
): PodScrape {
  const samples: MetricSample[] = [];
  const add = (
    name: string,
    value: number,
    labels: Record<string, string> = {},
  ) => samples.push({ name, labels, value });
  const controllers = v.controllers ?? ['kustomization'];
  for (const controller of controllers) {
    add('controller_runtime_reconcile_total', v.reconciles, {
      controller,
      result: 'success',
    });
    add('controller_runtime_reconcile_errors_total', v.errors ?? 0, {
      controller,
    });
    const buckets = v.timeBuckets ?? [0, 0, 0, 0];
    ['0.5', '1', '2', '+Inf'].forEach((le, i) =>
      add('controller_runtime_reconcile_time_seconds_bucket', buckets[i], {
        controller,
        le,
      }),
    );
    add('controller_runtime_reconcile_time_seconds_sum', v.timeSum ?? 0, {
      controller,
    });
    add('controller_runtime_reconcile_time_seconds_count', buckets[3], {
      controller,
    });
    add('controller_runtime_max_concurrent_reconciles', 4, { controller });
    add('controller_runtime_active_workers', 1, { controller });
    add('workqueue_depth', v.depth ?? 0, { controller, name: controller });
  }
  add('rest_client_requests_total', v.requests ?? 0, {
    code: '200',
    host: 'api',
    method: 'GET',
  });
  if (v.throttled !== undefined) {
    add('rest_client_requests_total', v.throttled, {
      code: '429',
      host: 'api',
      method: 'GET',
    });
  }
  add('process_cpu_seconds_total', v.cpu ?? 0);
  add('process_resident_memory_bytes', v.memory ?? 100e6);
  return { pod, at: atSeconds * 1000, samples };
}

describe('figuresFromScrapes', () => {
  it('rates, mean and p95 over the 60 s between two scrapes', () => {
    const { figures, windowSeconds, problems } = figuresFromScrapes([
      {
        previous: scrape('kc-1', 0, {
          reconciles: 100,
          errors: 1,
          timeSum: 50,
          timeBuckets: [10, 20, 30, 30],
          cpu: 10,
          requests: 1000,
          depth: 2,
        }),
        current: scrape('kc-1', 60, {
          reconciles: 160,
          errors: 4,
          timeSum: 80,
          timeBuckets: [15, 28, 40, 40],
          cpu: 40,
          requests: 1600,
          throttled: 6,
          depth: 8,
        }),
      },
    ]);
    expect(problems).toEqual([]);
    expect(windowSeconds).toBe(60);
    expect(figures.reconcilesPerSecond).toBeCloseTo(1);
    expect(figures.reconcileErrorsPerSecond).toBeCloseTo(0.05);
    // 30 s of reconciling over 10 reconciles
    expect(figures.reconcileTimeMeanSeconds).toBeCloseTo(3);
    // increases 5, 8, 10, 10: rank 9.5 in (1,2] → 1 + (9.5 − 8) / 2
    expect(figures.reconcileTimeP95Seconds).toBeCloseTo(1.75);
    expect(figures.cpuCores).toBeCloseTo(0.5);
    // the 429 series is new in this window: like Prometheus' rate, it has no increase yet
    expect(figures.apiRequestsPerSecond).toBeCloseTo(10);
    expect(figures.apiThrottledPerSecond).toBe(0);
    expect(figures.queueDepth).toBe(8);
    expect(figures.queueDepthTrendPerMinute).toBeCloseTo(6);
    expect(figures.maxConcurrentReconciles).toBe(4);
    expect(figures.activeWorkers).toBe(1);
    expect(figures.memoryBytes).toBe(100e6);
  });

  it('sums the controllers of one process (source-controller) and the pods of one Deployment', () => {
    const kinds = ['gitrepository', 'helmchart', 'ocirepository'];
    const { figures } = figuresFromScrapes([
      {
        previous: scrape('sc-a', 0, { reconciles: 0, controllers: kinds }),
        current: scrape('sc-a', 30, {
          reconciles: 30,
          controllers: kinds,
          memory: 300e6,
        }),
      },
      {
        previous: scrape('sc-b', 0, { reconciles: 0, controllers: kinds }),
        current: scrape('sc-b', 30, {
          reconciles: 0,
          controllers: kinds,
          memory: 80e6,
        }),
      },
    ]);
    // 3 kinds × 30 reconciles on one pod over 30 s
    expect(figures.reconcilesPerSecond).toBeCloseTo(3);
    // each kind has its own 4 workers; the replicas do not add workers (one leads)
    expect(figures.maxConcurrentReconciles).toBe(12);
    expect(figures.activeWorkers).toBe(6);
    expect(figures.memoryBytes).toBe(300e6);
  });

  it('a counter reset (restart) counts from the new value and says so', () => {
    const { figures, problems } = figuresFromScrapes([
      {
        previous: scrape('kc-1', 0, { reconciles: 5000, cpu: 900 }),
        current: scrape('kc-1', 60, { reconciles: 30, cpu: 6 }),
      },
    ]);
    expect(figures.reconcilesPerSecond).toBeCloseTo(0.5);
    expect(figures.cpuCores).toBeCloseTo(0.1);
    expect(problems).toEqual([
      expect.stringMatching(
        /^pod kc-1: counters went down .*controller_runtime_reconcile_total.* the controller restarted/,
      ),
    ]);
  });

  it('NaN and Inf values are left out and named; the other figures stay', () => {
    const current = scrape('kc-1', 60, { reconciles: 160, cpu: 40 });
    const poison: Record<string, number> = {
      process_cpu_seconds_total: NaN,
      process_resident_memory_bytes: Infinity,
    };
    const poisoned = current.samples.map(s =>
      s.name in poison ? { ...s, value: poison[s.name] } : s,
    );
    const { figures, problems } = figuresFromScrapes([
      {
        previous: scrape('kc-1', 0, { reconciles: 100, cpu: 10 }),
        current: { ...current, samples: poisoned },
      },
    ]);
    expect(figures.cpuCores).toBeUndefined();
    expect(figures.memoryBytes).toBeUndefined();
    expect(figures.reconcilesPerSecond).toBeCloseTo(1);
    expect(problems).toEqual([
      'pod kc-1: process_cpu_seconds_total is NaN; left out',
      'pod kc-1: process_resident_memory_bytes is +Inf; left out',
    ]);
  });

  it('missing series are named and their figures absent', () => {
    const current = scrape('kc-1', 60, { reconciles: 10 });
    const { figures, problems } = figuresFromScrapes([
      {
        previous: scrape('kc-1', 0, { reconciles: 0 }),
        current: {
          ...current,
          samples: current.samples.filter(
            s => !s.name.startsWith('workqueue_'),
          ),
        },
      },
    ]);
    expect(figures.queueDepth).toBeUndefined();
    expect(figures.reconcilesPerSecond).toBeCloseTo(10 / 60);
    expect(problems).toEqual([
      'pod kc-1: the scrape has no workqueue_depth series',
    ]);
  });

  it('one scrape only: gauges, no rates', () => {
    const { figures, windowSeconds } = figuresFromScrapes([
      { current: scrape('kc-1', 60, { reconciles: 10, depth: 3 }) },
    ]);
    expect(windowSeconds).toBe(0);
    expect(figures).toEqual({
      maxConcurrentReconciles: 4,
      activeWorkers: 1,
      queueDepth: 3,
      memoryBytes: 100e6,
    });
  });
});
