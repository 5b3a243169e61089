/**
 * The metrics of one simulated controller process, integrated over wall time from the queueing model: counters
 * only grow (until the process restarts: a new pod, or the `reset` fault), histograms are cumulative, gauges
 * are the model's time averages. `advance` moves the clock with the load in force since the last call, so a
 * change of load (a new `--concurrent`, objects moved to a shard) shows from the moment it was made.
 */
import type { DeploymentLoad, QueueLoad } from './controllerLoad';
import { waitShareAtOrBelow } from './queueModel';

/** controller-runtime's `controller_runtime_reconcile_time_seconds` buckets. */
export const RECONCILE_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5,
  0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9,
  10, 15, 20, 25, 30, 40, 50, 60,
];
/** The work queue histograms' buckets: 10 ns to 1,000 s, ×10 each (client-go's workqueue metrics). */
export const WORKQUEUE_BUCKETS: readonly number[] = Array.from(
  { length: 12 },
  (_, i) => 10 ** (i - 8),
);
/** Flux's `gotk_reconcile_duration_seconds` buckets: 10 ns to 10 s, ×10 each. */
export const GOTK_BUCKETS: readonly number[] = Array.from(
  { length: 10 },
  (_, i) => 10 ** (i - 8),
);

/** A cumulative histogram. */
export class Histogram {
  readonly buckets: Float64Array;
  count = 0;
  sum = 0;

  constructor(readonly bounds: readonly number[]) {
    this.buckets = new Float64Array(bounds.length);
  }

  /** Adds `n` observations totalling `sum`, `shares[i]` of them at or below bound i. */
  observe(n: number, sum: number, shares: ArrayLike<number>): void {
    if (n <= 0) return;
    this.count += n;
    this.sum += sum;
    for (let i = 0; i < this.bounds.length; i++)
      this.buckets[i] += n * shares[i];
  }
}

function serviceShares(queue: QueueLoad, bounds: readonly number[]): number[] {
  return bounds.map(le => {
    if (queue.arrivalsPerSecond <= 0) return 1;
    let at = 0;
    for (const o of queue.objects)
      if (o.reconcileSeconds <= le) at += o.arrivalsPerSecond;
    return at / queue.arrivalsPerSecond;
  });
}

/**
 * The share of a queue's backlog that stays when its load changes to `next`: the arrivals of the objects it
 * still owns. The items of objects it no longer owns (moved to another shard, deleted) leave at once, as in a
 * real controller: the reconcile finds the object gone from its informer cache and returns without work.
 */
export function remainingShare(
  previous: QueueLoad | undefined,
  next: QueueLoad,
): number {
  if (!previous || previous.arrivalsPerSecond <= 0) return 1;
  const kept = new Set(
    next.objects.map(o => `${o.namespace}/${o.kind}/${o.name}`),
  );
  let stays = 0;
  for (const o of previous.objects)
    if (kept.has(`${o.namespace}/${o.kind}/${o.name}`))
      stays += o.arrivalsPerSecond;
  return stays / previous.arrivalsPerSecond;
}

/** Per object: reconciles done and their total duration (for `gotk_reconcile_duration_seconds`). */
export interface ObjectCounts {
  kind: string;
  namespace: string;
  name: string;
  reconcileSeconds: number;
  count: number;
  sum: number;
}

/** One controller-runtime controller's queue and its counters. */
export class QueueState {
  adds = 0;
  readonly results = { success: 0, error: 0, requeue: 0, requeue_after: 0 };
  depth = 0;
  /** Mean wait of the items leaving the queue now (seconds). */
  currentWait = 0;
  /**
   * Workers busy now: every one of them while a backlog is queued (an overload, or one draining), else the
   * steady state's λ·E[S].
   */
  busyWorkers = 0;
  readonly reconcileTime = new Histogram(RECONCILE_BUCKETS);
  readonly queueDuration = new Histogram(WORKQUEUE_BUCKETS);
  readonly workDuration = new Histogram(WORKQUEUE_BUCKETS);
  readonly perObject = new Map<string, ObjectCounts>();
  load!: QueueLoad;
  private reconcileShares: number[] = [];
  private workShares: number[] = [];
  /** The per-object counters of `load.objects`, in the same order. */
  private counts: ObjectCounts[] = [];

  constructor(readonly controller: string) {}

  setLoad(load: QueueLoad): void {
    this.depth *= remainingShare(this.load, load);
    this.load = load;
    this.reconcileShares = serviceShares(load, RECONCILE_BUCKETS);
    this.workShares = serviceShares(load, WORKQUEUE_BUCKETS);
    // Series of objects the controller no longer owns stay, as in a real process (until it restarts).
    this.counts = load.objects.map(o => {
      const key = `${o.namespace}/${o.kind}/${o.name}`;
      let counts = this.perObject.get(key);
      if (!counts) {
        counts = {
          kind: o.kind,
          namespace: o.namespace,
          name: o.name,
          reconcileSeconds: o.reconcileSeconds,
          count: 0,
          sum: 0,
        };
        this.perObject.set(key, counts);
      }
      counts.reconcileSeconds = o.reconcileSeconds;
      return counts;
    });
  }

  /** Integrates `dt` seconds with the current load. */
  advance(dt: number, concurrent: number): void {
    const load = this.load;
    const { figures } = load;
    const lambda = load.arrivalsPerSecond;
    if (dt <= 0 || lambda <= 0) {
      if (lambda <= 0) {
        this.depth = 0;
        this.busyWorkers = 0;
      }
      return;
    }
    const service = load.meanServiceSeconds;
    const capacity = concurrent / service;
    let done: number;
    let waitShares: number[];
    if (figures.unbounded) {
      const start = this.depth;
      // A work queue holds each key once (client-go deduplicates): never more items than the objects it owns.
      this.depth = Math.min(
        load.objects.length,
        this.depth + figures.growthPerSecond * dt,
      );
      // An item leaving now waited for the items ahead of it to be served.
      this.currentWait = (start + this.depth) / 2 / capacity;
      done = capacity * dt;
      this.busyWorkers = concurrent;
      const wait = this.currentWait;
      waitShares = WORKQUEUE_BUCKETS.map(le => (wait <= le ? 1 : 0));
    } else if (this.depth > figures.meanDepth) {
      // A backlog from an overload drains at the spare capacity c/E[S] − λ; while it does, every worker is busy
      // and reconciles finish at c/E[S] (for the part of `dt` the backlog lasts).
      const start = this.depth;
      const drainSeconds = Math.min(
        dt,
        (start - figures.meanDepth) / (capacity - lambda),
      );
      this.depth = Math.max(
        figures.meanDepth,
        start - (capacity - lambda) * dt,
      );
      this.currentWait = Math.max(
        figures.meanWaitSeconds,
        (start + this.depth) / 2 / capacity,
      );
      done = capacity * drainSeconds + lambda * (dt - drainSeconds);
      this.busyWorkers =
        this.depth > figures.meanDepth
          ? concurrent
          : (concurrent * drainSeconds +
              figures.busyWorkers * (dt - drainSeconds)) /
            dt;
      const wait = this.currentWait;
      waitShares = WORKQUEUE_BUCKETS.map(le => (wait <= le ? 1 : 0));
    } else {
      this.depth = figures.meanDepth;
      this.currentWait = figures.meanWaitSeconds;
      done = lambda * dt;
      this.busyWorkers = figures.busyWorkers;
      waitShares = WORKQUEUE_BUCKETS.map(le =>
        waitShareAtOrBelow(figures, lambda, service, concurrent, le),
      );
    }
    this.adds += lambda * dt;
    this.results.error += done * load.errorShare;
    this.results.requeue_after += done * (1 - load.errorShare);
    this.queueDuration.observe(done, done * this.currentWait, waitShares);
    this.reconcileTime.observe(done, done * service, this.reconcileShares);
    this.workDuration.observe(done, done * service, this.workShares);
    const served = done / (lambda * dt);
    load.objects.forEach((o, i) => {
      const n = o.arrivalsPerSecond * served * dt;
      this.counts[i].count += n;
      this.counts[i].sum += n * o.reconcileSeconds;
    });
  }
}

/** Requests to the API server per reconcile, by method and code (client-go's `rest_client_requests_total`). */
const REQUESTS_PER_RECONCILE: ReadonlyArray<[string, string, number]> = [
  ['GET', '200', 3],
  ['PATCH', '200', 1.2],
  ['POST', '201', 0.1],
  ['PATCH', '409', 0.01],
  ['GET', '404', 0.02],
];

/** The metrics of one controller process (one pod). */
export class PodMetrics {
  private t: number;
  cpuSeconds = 0;
  readonly requests = new Map<string, number>();
  readonly queues = new Map<string, QueueState>();
  load!: DeploymentLoad;
  /** A standby replica (leader election): registered controllers, no work. */
  standby = false;

  constructor(readonly startedAt: number) {
    this.t = startedAt;
  }

  /** Switches to a new load (after advancing with the old one). */
  setLoad(load: DeploymentLoad, standby: boolean): void {
    this.load = load;
    this.standby = standby;
    for (const queue of load.queues) {
      let state = this.queues.get(queue.controller);
      if (!state) {
        state = new QueueState(queue.controller);
        this.queues.set(queue.controller, state);
      }
      state.setLoad(
        standby
          ? {
              ...queue,
              objects: [],
              arrivalsPerSecond: 0,
              figures: { ...queue.figures, throughput: 0 },
            }
          : queue,
      );
    }
  }

  /**
   * Integrates up to `now` (ms) with the load in force. `throttleRatio`: the share of API requests the cluster
   * answers 429 (its `throttleRatio` fault); client-go retries them, so they add to the requests.
   */
  advance(now: number, throttleRatio = 0): void {
    const dt = (now - this.t) / 1000;
    if (dt <= 0) return;
    this.t = now;
    let done = 0;
    for (const queue of this.queues.values()) {
      const before = queue.reconcileTime.count;
      queue.advance(dt, this.load.concurrent);
      done += queue.reconcileTime.count - before;
    }
    const busy = this.standby ? 0 : this.load.cpuCores;
    this.cpuSeconds += (this.standby ? 0.002 : busy) * dt;
    for (const [method, code, perReconcile] of REQUESTS_PER_RECONCILE) {
      const key = `${code}\u0000${method}`;
      this.requests.set(
        key,
        (this.requests.get(key) ?? 0) + done * perReconcile,
      );
    }
    const throttled = Math.min(0.95, throttleRatio);
    if (throttled > 0) {
      const retries = throttled / (1 - throttled);
      for (const [method, perReconcile] of [
        ['GET', 3],
        ['PATCH', 1.2],
      ] as const) {
        const key = `429\u0000${method}`;
        this.requests.set(
          key,
          (this.requests.get(key) ?? 0) + done * perReconcile * retries,
        );
      }
    }
  }
}
