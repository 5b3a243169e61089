/**
 * A controller's figures from two scrapes of each of its pods (rules §12): counters become rates, histogram
 * buckets become quantiles over the time between the scrapes, gauges are read from the later scrape. Pure.
 */
import type { ControllerMeasurement } from './measurement';
import { samplesOf, seriesKey, seriesText } from './exposition';
import type { MetricSample, PodScrape } from './exposition';
import {
  bucketIncreases,
  counterIncrease,
  counterWasReset,
  histogramQuantile,
  sumBuckets,
} from './metricMath';
import type { HistogramBucket } from './metricMath';

/** The figures of a {@link ControllerMeasurement} (everything but who and when). */
export type MeasuredFigures = Pick<
  ControllerMeasurement,
  | 'maxConcurrentReconciles'
  | 'activeWorkers'
  | 'reconcilesPerSecond'
  | 'reconcileErrorsPerSecond'
  | 'reconcileTimeMeanSeconds'
  | 'reconcileTimeP95Seconds'
  | 'queueDepth'
  | 'queueDepthTrendPerMinute'
  | 'queueWaitP95Seconds'
  | 'apiRequestsPerSecond'
  | 'apiThrottledPerSecond'
  | 'cpuCores'
  | 'memoryBytes'
>;

/** One pod's scrape now and, when there was one, at the start of the window. */
export interface PodScrapePair {
  previous?: PodScrape;
  current: PodScrape;
}

/** What two scrapes of a controller's pods say. */
export interface ScrapedFigures {
  figures: MeasuredFigures;
  /** The longest time between a pod's two scrapes, in seconds; 0 when no pod had two. */
  windowSeconds: number;
  /** Sentences naming the pod and series that could not be read, or that were reset. */
  problems: string[];
}

const RECONCILES = 'controller_runtime_reconcile_total';
const ERRORS = 'controller_runtime_reconcile_errors_total';
const RECONCILE_TIME = 'controller_runtime_reconcile_time_seconds';
const MAX_CONCURRENT = 'controller_runtime_max_concurrent_reconciles';
const ACTIVE_WORKERS = 'controller_runtime_active_workers';
const QUEUE_DEPTH = 'workqueue_depth';
const QUEUE_WAIT = 'workqueue_queue_duration_seconds';
const API_REQUESTS = 'rest_client_requests_total';
const CPU = 'process_cpu_seconds_total';
const MEMORY = 'process_resident_memory_bytes';

/**
 * Every series name the figures read. A scrape needs no other line: a Flux controller also exports
 * `gotk_reconcile_duration_seconds` per object (13 lines each): nearly all of the exposition of a controller
 * with thousands of objects.
 */
export const SCRAPED_SERIES: ReadonlySet<string> = new Set([
  RECONCILES,
  ERRORS,
  ...[RECONCILE_TIME, QUEUE_WAIT].flatMap(h => [`${h}_bucket`, `${h}_sum`, `${h}_count`]),
  MAX_CONCURRENT,
  ACTIVE_WORKERS,
  QUEUE_DEPTH,
  API_REQUESTS,
  CPU,
  MEMORY,
]);

/** Series every controller exports; one missing from a pod's scrape is a problem worth naming. */
const EXPECTED = [
  RECONCILES,
  `${RECONCILE_TIME}_bucket`,
  MAX_CONCURRENT,
  ACTIVE_WORKERS,
  QUEUE_DEPTH,
  CPU,
  MEMORY,
];

/** Reads one pod: its gauges from the current scrape, its increases since the previous one. */
class PodReader {
  readonly seconds: number;
  private readonly before: Map<string, number>;
  private readonly reported = new Set<string>();

  constructor(
    private readonly pair: PodScrapePair,
    private readonly problems: string[],
  ) {
    this.seconds = pair.previous
      ? (pair.current.at - pair.previous.at) / 1000
      : 0;
    this.before = new Map(
      (this.seconds > 0 ? pair.previous!.samples : []).map(s => [
        seriesKey(s),
        s.value,
      ]),
    );
    for (const name of EXPECTED) {
      if (!pair.current.samples.some(s => s.name === name)) {
        problems.push(
          `pod ${pair.current.pod}: the scrape has no ${name} series`,
        );
      }
    }
  }

  get pod(): string {
    return this.pair.current.pod;
  }

  get hasWindow(): boolean {
    return this.seconds > 0;
  }

  /** The finite values of a gauge's series; a NaN or infinite one is named once. */
  gauge(name: string, match: Record<string, string> = {}): number[] {
    return samplesOf(this.pair.current.samples, name, match).flatMap(s =>
      this.finite(s) ? [s.value] : [],
    );
  }

  /** The summed increase of a counter's series over the window; undefined when none could be read. */
  increase(
    name: string,
    match: Record<string, string> = {},
  ): number | undefined {
    if (!this.hasWindow) return undefined;
    let summed: number | undefined = undefined;
    for (const s of samplesOf(this.pair.current.samples, name, match)) {
      const delta = this.delta(s);
      if (delta !== undefined) summed = (summed ?? 0) + delta;
    }
    return summed;
  }

  /** How much a gauge's series (present in both scrapes, finite) changed over the window, summed. */
  change(name: string): number | undefined {
    if (!this.hasWindow) return undefined;
    let summed: number | undefined = undefined;
    for (const s of samplesOf(this.pair.current.samples, name)) {
      const then = this.before.get(seriesKey(s));
      if (
        then === undefined ||
        !Number.isFinite(then) ||
        !Number.isFinite(s.value)
      )
        continue;
      summed = (summed ?? 0) + (s.value - then);
    }
    return summed;
  }

  /** The increase of a histogram's buckets over the window, summed over its series (`sum by (le)`). */
  bucketIncrease(name: string): HistogramBucket[] | undefined {
    if (!this.hasWindow) return undefined;
    const series = new Map<
      string,
      { now: HistogramBucket[]; then: HistogramBucket[]; text: string }
    >();
    for (const s of samplesOf(this.pair.current.samples, `${name}_bucket`)) {
      const { le, ...rest } = s.labels;
      const bound = le === '+Inf' ? Infinity : Number(le);
      if (le === undefined || Number.isNaN(bound)) continue;
      const key = seriesKey({ name, labels: rest });
      const entry = series.get(key) ?? {
        now: [],
        then: [],
        text: seriesText({ name, labels: rest }),
      };
      series.set(key, entry);
      const then = this.before.get(seriesKey(s));
      entry.now.push({ le: bound, count: s.value });
      if (then !== undefined) entry.then.push({ le: bound, count: then });
    }
    const increases: HistogramBucket[][] = [];
    for (const { now, then, text } of series.values()) {
      if (then.length === 0) continue; // a series new in this window has no increase yet, as in Prometheus
      const delta = bucketIncreases(then, now);
      if (delta) increases.push(delta);
      else
        this.note(
          `${text} buckets`,
          'has a bucket count that is NaN or infinite; left out',
        );
    }
    return increases.length ? sumBuckets(increases) : undefined;
  }

  private delta(s: MetricSample): number | undefined {
    const then = this.before.get(seriesKey(s));
    if (then === undefined) return undefined; // new series: no increase yet
    if (!this.finite(s) || !Number.isFinite(then)) {
      if (Number.isFinite(s.value))
        this.note(
          seriesText(s),
          'was NaN or infinite in the previous scrape; left out',
        );
      return undefined;
    }
    if (counterWasReset(then, s.value)) {
      this.note(
        'counters',
        `went down (${seriesText(s)} from ${then} to ${
          s.value
        }): the controller restarted, so rates count from the restart`,
      );
    }
    return counterIncrease(then, s.value);
  }

  private finite(s: MetricSample): boolean {
    if (Number.isFinite(s.value)) return true;
    this.note(seriesText(s), `is ${valueText(s.value)}; left out`);
    return false;
  }

  private note(subject: string, problem: string) {
    if (this.reported.has(subject)) return;
    this.reported.add(subject);
    this.problems.push(`pod ${this.pod}: ${subject} ${problem}`);
  }
}

/** A value as the exposition format writes the ones that are not finite. */
function valueText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

const sum = (values: number[]) =>
  values.length ? values.reduce((a, b) => a + b, 0) : undefined;

/** Adds per-pod values; undefined when no pod had one. */
function total(values: Array<number | undefined>): number | undefined {
  return sum(values.filter((v): v is number => v !== undefined));
}

/** A per-pod rate summed over the pods that have a window. */
function rate(
  pods: PodReader[],
  read: (p: PodReader) => number | undefined,
): number | undefined {
  return total(
    pods
      .filter(p => p.hasWindow)
      .map(p => {
        const v = read(p);
        return v === undefined ? undefined : v / p.seconds;
      }),
  );
}

/**
 * The figures of one controller Deployment from its pods' scrapes. Counters and histograms are summed over the
 * controller-runtime controllers of each process (source-controller runs one per source kind) and over pods;
 * `maxConcurrentReconciles` is the workers of the pod with the most (only the leader of several replicas works),
 * `memoryBytes` the pod using the most (it is compared with one container's limit).
 */
export function figuresFromScrapes(
  pairs: readonly PodScrapePair[],
): ScrapedFigures {
  const problems: string[] = [];
  const pods = pairs.map(p => new PodReader(p, problems));
  const windowed = pods.filter(p => p.hasWindow);
  const windowSeconds = Math.max(0, ...windowed.map(p => p.seconds));

  const reconcileTimeSum = rate(pods, p => p.increase(`${RECONCILE_TIME}_sum`));
  const reconcileTimeCount = rate(pods, p =>
    p.increase(`${RECONCILE_TIME}_count`),
  );
  const quantile = (name: string) => {
    const buckets = windowed.flatMap(p => {
      const b = p.bucketIncrease(name);
      return b ? [b] : [];
    });
    return buckets.length
      ? histogramQuantile(0.95, sumBuckets(buckets))
      : undefined;
  };
  const depthNow = pods.map(p => sum(p.gauge(QUEUE_DEPTH)));
  const depthTrend = total(
    windowed.map(p => {
      const then = p.change(QUEUE_DEPTH);
      return then === undefined ? undefined : (then / p.seconds) * 60;
    }),
  );
  const maxOverPods = (values: Array<number | undefined>) => {
    const present = values.filter((v): v is number => v !== undefined);
    return present.length ? Math.max(...present) : undefined;
  };

  const figures: MeasuredFigures = {
    maxConcurrentReconciles: maxOverPods(
      pods.map(p => sum(p.gauge(MAX_CONCURRENT))),
    ),
    activeWorkers: total(pods.map(p => sum(p.gauge(ACTIVE_WORKERS)))),
    reconcilesPerSecond: rate(pods, p => p.increase(RECONCILES)),
    reconcileErrorsPerSecond: rate(pods, p => p.increase(ERRORS)),
    reconcileTimeMeanSeconds:
      reconcileTimeSum !== undefined && reconcileTimeCount
        ? reconcileTimeSum / reconcileTimeCount
        : undefined,
    reconcileTimeP95Seconds: quantile(RECONCILE_TIME),
    queueDepth: total(depthNow),
    queueDepthTrendPerMinute: depthTrend,
    queueWaitP95Seconds: quantile(QUEUE_WAIT),
    apiRequestsPerSecond: rate(pods, p => p.increase(API_REQUESTS)),
    apiThrottledPerSecond: rate(pods, p =>
      p.increase(API_REQUESTS, { code: '429' }),
    ),
    cpuCores: rate(pods, p => p.increase(CPU)),
    memoryBytes: maxOverPods(pods.map(p => maxOverPods(p.gauge(MEMORY)))),
  };
  // no series with code 429 means the API never throttled this controller in the window
  if (
    figures.apiRequestsPerSecond !== undefined &&
    figures.apiThrottledPerSecond === undefined
  ) {
    figures.apiThrottledPerSecond = 0;
  }
  for (const key of Object.keys(figures) as Array<keyof MeasuredFigures>) {
    if (figures[key] === undefined) delete figures[key];
  }
  return { figures, windowSeconds, problems };
}
