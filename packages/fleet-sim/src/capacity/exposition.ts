/**
 * Renders a simulated controller's metrics in the Prometheus text exposition format (version 0.0.4), with the
 * names and labels controller-runtime, client-go's workqueue and REST client, the Go process collector and
 * Flux export. Counts are whole numbers (the integrated model floored), sums and gauges are floats.
 */
import {
  GOTK_BUCKETS,
  type Histogram,
  type ObjectCounts,
  type PodMetrics,
} from './podMetrics';

const GOTK_LE = GOTK_BUCKETS.map(String);

/**
 * One object's `gotk_reconcile_duration_seconds` histogram, written directly: at fleet M a controller owns
 * thousands of objects (13 lines each), and the generic writer took most of a scrape's time there.
 */
function gotkHistogram(lines: string[], o: ObjectCounts): void {
  const series = `kind="${escape(o.kind)}",name="${escape(
    o.name,
  )}",namespace="${escape(o.namespace)}"`;
  const count = Math.floor(o.count);
  for (let i = 0; i < GOTK_BUCKETS.length; i++) {
    lines.push(
      `gotk_reconcile_duration_seconds_bucket{${series},le="${GOTK_LE[i]}"} ${
        o.reconcileSeconds <= GOTK_BUCKETS[i] ? count : 0
      }`,
    );
  }
  lines.push(
    `gotk_reconcile_duration_seconds_bucket{${series},le="+Inf"} ${count}`,
    `gotk_reconcile_duration_seconds_sum{${series}} ${formatValue(o.sum)}`,
    `gotk_reconcile_duration_seconds_count{${series}} ${count}`,
  );
}

/** Content type of the text format. */
export const EXPOSITION_CONTENT_TYPE =
  'text/plain; version=0.0.4; charset=utf-8';

/** What a `nan` or `missing` fault changes in an answer. */
export interface ExpositionOptions {
  /** Some gauges and sums are NaN, +Inf or -Inf. */
  nonFinite?: boolean;
  /** Some families are left out (max concurrent reconciles, queue waits, CPU). */
  missing?: boolean;
}

/** Families a `missing` fault leaves out. */
export const MISSING_FAMILIES: ReadonlySet<string> = new Set([
  'controller_runtime_max_concurrent_reconciles',
  'workqueue_queue_duration_seconds',
  'process_cpu_seconds_total',
]);

function escape(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n');
}

function labels(pairs: Record<string, string>): string {
  const parts = Object.entries(pairs).map(([k, v]) => `${k}="${escape(v)}"`);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
}

/** A float as Go's client writes it: `NaN`, `+Inf`, `-Inf`, or a plain number. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  // Model values below a billionth are rounding noise (Erlang C at low load): shown as 0.
  if (Math.abs(value) < 1e-9) return '0';
  return String(Number.isInteger(value) ? value : Number(value.toPrecision(9)));
}

class Writer {
  readonly lines: string[] = [];
  constructor(private readonly options: ExpositionOptions) {}

  family(name: string, type: string, help: string): boolean {
    if (this.options.missing && MISSING_FAMILIES.has(name)) return false;
    this.lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    return true;
  }

  sample(name: string, pairs: Record<string, string>, value: number): void {
    this.lines.push(`${name}${labels(pairs)} ${formatValue(value)}`);
  }

  histogram(
    name: string,
    pairs: Record<string, string>,
    histogram: Pick<Histogram, 'bounds' | 'buckets' | 'count' | 'sum'>,
  ): void {
    const count = Math.floor(histogram.count);
    histogram.bounds.forEach((le, i) =>
      this.sample(
        `${name}_bucket`,
        { ...pairs, le: String(le) },
        Math.min(count, Math.floor(histogram.buckets[i] + 1e-9)),
      ),
    );
    this.sample(`${name}_bucket`, { ...pairs, le: '+Inf' }, count);
    this.sample(`${name}_sum`, pairs, histogram.sum);
    this.sample(`${name}_count`, pairs, count);
  }
}

/**
 * Objects whose histograms make one chunk of {@link renderMetricsChunks}: about 64 KB of text (1.6 KB each), under
 * the size from which V8 puts a string in its large-object space.
 */
const OBJECTS_PER_CHUNK = 40;

/**
 * The exposition text of one pod's metrics in chunks: the controller's own series, then the objects' histograms a
 * few dozen at a time. At fleet L every scrape round is 1.7 GB of text (a controller of 10,000 objects answers
 * 16 MB); rendered as one string per answer, those strings filled the old generation and the simulator spent
 * about half of its thread on full collections of its 4 GB heap, late by seconds for its watches (two rounds,
 * 55-76 s each, busy 97 %). Chunks written as the connection takes them die young.
 */
export function* renderMetricsChunks(
  metrics: PodMetrics,
  options: ExpositionOptions = {},
): Generator<string, void, undefined> {
  const w = new Writer(options);
  const queues = [...metrics.queues.values()];
  const bad = options.nonFinite === true;
  const c = metrics.load.concurrent;

  if (
    w.family(
      'controller_runtime_active_workers',
      'gauge',
      'Number of currently used workers per controller',
    )
  )
    for (const q of queues)
      w.sample(
        'controller_runtime_active_workers',
        { controller: q.controller },
        metrics.standby ? 0 : q.busyWorkers,
      );
  if (
    w.family(
      'controller_runtime_max_concurrent_reconciles',
      'gauge',
      'Maximum number of concurrent reconciles per controller',
    )
  )
    for (const q of queues)
      w.sample(
        'controller_runtime_max_concurrent_reconciles',
        { controller: q.controller },
        c,
      );
  if (
    w.family(
      'controller_runtime_reconcile_errors_total',
      'counter',
      'Total number of reconciliation errors per controller',
    )
  )
    for (const q of queues)
      w.sample(
        'controller_runtime_reconcile_errors_total',
        { controller: q.controller },
        Math.floor(q.results.error),
      );
  if (
    w.family(
      'controller_runtime_reconcile_time_seconds',
      'histogram',
      'Length of time per reconciliation per controller',
    )
  )
    for (const q of queues)
      w.histogram(
        'controller_runtime_reconcile_time_seconds',
        { controller: q.controller },
        bad
          ? {
              ...q.reconcileTime,
              bounds: q.reconcileTime.bounds,
              buckets: q.reconcileTime.buckets,
              count: q.reconcileTime.count,
              sum: NaN,
            }
          : q.reconcileTime,
      );
  if (
    w.family(
      'controller_runtime_reconcile_total',
      'counter',
      'Total number of reconciliations per controller',
    )
  )
    for (const q of queues)
      for (const result of [
        'error',
        'requeue',
        'requeue_after',
        'success',
      ] as const)
        w.sample(
          'controller_runtime_reconcile_total',
          { controller: q.controller, result },
          Math.floor(q.results[result]),
        );

  const wq = (q: { controller: string }) => ({
    controller: q.controller,
    name: q.controller,
  });
  if (
    w.family(
      'workqueue_adds_total',
      'counter',
      'Total number of adds handled by workqueue',
    )
  )
    for (const q of queues)
      w.sample('workqueue_adds_total', wq(q), Math.floor(q.adds));
  if (w.family('workqueue_depth', 'gauge', 'Current depth of workqueue'))
    for (const q of queues)
      w.sample('workqueue_depth', wq(q), bad ? Infinity : q.depth);
  if (
    w.family(
      'workqueue_longest_running_processor_seconds',
      'gauge',
      'How many seconds has the longest running processor for workqueue been running.',
    )
  )
    for (const q of queues) {
      const longest = q.load.objects.reduce(
        (m, o) => Math.max(m, o.reconcileSeconds),
        0,
      );
      w.sample(
        'workqueue_longest_running_processor_seconds',
        wq(q),
        q.busyWorkers > 0 && !metrics.standby ? longest / 2 : 0,
      );
    }
  if (
    w.family(
      'workqueue_queue_duration_seconds',
      'histogram',
      'How long in seconds an item stays in workqueue before being requested',
    )
  )
    for (const q of queues)
      w.histogram('workqueue_queue_duration_seconds', wq(q), q.queueDuration);
  if (
    w.family(
      'workqueue_retries_total',
      'counter',
      'Total number of retries handled by workqueue',
    )
  )
    for (const q of queues)
      w.sample('workqueue_retries_total', wq(q), Math.floor(q.results.error));
  if (
    w.family(
      'workqueue_unfinished_work_seconds',
      'gauge',
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
    )
  )
    for (const q of queues)
      w.sample(
        'workqueue_unfinished_work_seconds',
        wq(q),
        metrics.standby
          ? 0
          : (q.busyWorkers * q.load.meanServiceSeconds) / 2,
      );
  if (
    w.family(
      'workqueue_work_duration_seconds',
      'histogram',
      'How long in seconds processing an item from workqueue takes.',
    )
  )
    for (const q of queues)
      w.histogram('workqueue_work_duration_seconds', wq(q), q.workDuration);

  if (
    w.family(
      'rest_client_requests_total',
      'counter',
      'Number of HTTP requests, partitioned by status code, method, and host.',
    )
  )
    for (const [key, value] of [...metrics.requests.entries()].sort()) {
      const [code, method] = key.split('\u0000');
      w.sample(
        'rest_client_requests_total',
        { code, host: '10.96.0.1:443', method },
        Math.floor(value),
      );
    }

  if (
    w.family(
      'process_cpu_seconds_total',
      'counter',
      'Total user and system CPU time spent in seconds.',
    )
  )
    w.sample('process_cpu_seconds_total', {}, metrics.cpuSeconds);
  if (
    w.family(
      'process_resident_memory_bytes',
      'gauge',
      'Resident memory size in bytes.',
    )
  )
    w.sample(
      'process_resident_memory_bytes',
      {},
      bad ? NaN : Math.round(metrics.load.memoryBytes),
    );
  if (
    w.family(
      'process_start_time_seconds',
      'gauge',
      'Start time of the process since unix epoch in seconds.',
    )
  )
    w.sample(
      'process_start_time_seconds',
      {},
      Math.floor(metrics.startedAt / 1000),
    );

  const perObject = w.family(
    'gotk_reconcile_duration_seconds',
    'histogram',
    'The duration in seconds of a GitOps Toolkit resource reconciliation.',
  );
  yield `${w.lines.join('\n')}\n`;
  if (!perObject) return;
  let lines: string[] = [];
  let objects = 0;
  for (const q of queues)
    for (const o of q.perObject.values()) {
      gotkHistogram(lines, o);
      if (++objects % OBJECTS_PER_CHUNK === 0) {
        yield `${lines.join('\n')}\n`;
        lines = [];
      }
    }
  if (lines.length > 0) yield `${lines.join('\n')}\n`;
}
