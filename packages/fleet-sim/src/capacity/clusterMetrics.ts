/**
 * The metrics of every controller pod of one simulated cluster. The model's load is computed from the store's
 * current records and Deployments, again after any write that may change it (a Flux object, a controller
 * Deployment); before switching, every pod's counters are integrated up to the change with the old load, so a
 * change shows in the very next scrape. The churn's status writes change only how many reconciles fail: the
 * loads follow them at most once a second (under churn every scrape found the loads changed and computed its
 * whole cluster's again: 55 s of the simulator's CPU in the product's first sync at fleet L). Serves a pod's metrics with its faults (garbage, a huge body, a hang, a
 * slow answer, NaN/Inf values, missing series; a counter reset restarts the process's counters).
 */
import type { ServerResponse } from 'node:http';
import { coreResourceType } from '../api/resourceTypes';
import { parseStored } from '../store/clusterStore';
import type { ControlPlane } from '../sim/controlPlane';
import type { ControllerPod, ControllerPods } from '../sim/controllerPods';
import type { Faults, PodMetricsFault } from '../sim/faults';
import type { ClusterStore } from '../store/clusterStore';
import type { SimulatedObject } from '../fleet/model';
import {
  deploymentLoads,
  limitsOf,
  type DeploymentLoad,
} from './controllerLoad';
import { writeChunks } from '../server/httpBasics';
import { EXPOSITION_CONTENT_TYPE, renderMetricsChunks } from './exposition';
import { PodMetrics } from './podMetrics';

const DEPLOYMENT_TYPE = coreResourceType('Deployment');
/** Size of the `huge` fault's body. */
export const HUGE_BODY_BYTES = 64 * 2 ** 20;
const WARM_UP_MS = 10 * 60_000;
const IGNORED_KINDS = new Set(['Pod', 'Event', 'Namespace', 'ServiceAccount']);
/** How long the loads may lag the churn's status writes. */
const STATUS_FOLLOW_MS = 1000;

/**
 * What the metrics read of their cluster: a narrow view of the SimulatedCluster that creates them, so the two
 * modules do not import each other.
 */
export interface MetricsSource {
  readonly store: ClusterStore;
  readonly records: ReadonlyMap<string, SimulatedObject>;
  readonly controlPlane: Pick<ControlPlane, 'all'>;
  readonly pods: ControllerPods;
  readonly faults: Faults;
}

/** The metrics of one cluster's controller pods. */
export class ClusterMetrics {
  private readonly states = new Map<string, PodMetrics>();
  private current: DeploymentLoad[] = [];
  private dirty = true;
  /** When the churn first wrote a status the loads do not hold yet. */
  private statusChangedAt: number | undefined;
  private computedAt = 0;
  private initialised = false;
  /**
   * The controllers that run when the simulator starts started 10 minutes earlier: their counters already
   * hold a history (Prometheus rates need two samples, not a fresh process) and an overload has built a queue.
   */
  private readonly startedAt = Date.now() - WARM_UP_MS;
  /** Bytes of the expositions served (pod proxy and scrape targets alike), for what a scraper costs the cluster. */
  private served = 0;

  constructor(private readonly cluster: MetricsSource) {
    cluster.store.subscribe(event => {
      if (IGNORED_KINDS.has(event.resource.kind)) return;
      if (event.statusOnly) this.statusChangedAt ??= Date.now();
      else this.invalidate();
    });
    cluster.pods.onChange(() => this.invalidate());
  }

  private invalidate(): void {
    if (this.dirty) return;
    const now = Date.now();
    for (const state of this.states.values())
      state.advance(now, this.cluster.faults.throttleRatio);
    this.dirty = true;
  }

  /** Integrates every pod's counters up to now (before a fault changes how they grow). */
  advanceAll(): void {
    this.loads();
    const now = Date.now();
    for (const state of this.states.values())
      state.advance(now, this.cluster.faults.throttleRatio);
  }

  /** The modelled load of every controller Deployment now. */
  loads(): DeploymentLoad[] {
    if (
      !this.dirty &&
      this.statusChangedAt !== undefined &&
      Date.now() - this.computedAt >= STATUS_FOLLOW_MS
    )
      this.invalidate();
    if (!this.dirty) return this.current;
    const { store } = this.cluster;
    this.current = deploymentLoads(
      this.cluster.records.values(),
      this.cluster.controlPlane.all(),
      c => {
        const stored = store.get(DEPLOYMENT_TYPE, c.instance, c.name);
        return limitsOf(stored ? parseStored(stored) : undefined);
      },
    );
    const byDeployment = new Map(
      this.current.map(l => [`${l.instance}/${l.deployment}`, l]),
    );
    const live = new Set<string>();
    const leaders = new Set<string>();
    const now = Date.now();
    for (const pod of this.cluster.pods.all()) {
      const load = byDeployment.get(`${pod.namespace}/${pod.deployment}`);
      if (!load) continue;
      const key = `${pod.namespace}/${pod.name}`;
      live.add(key);
      // Leader election: the first replica reconciles, the others stand by.
      const leader = !leaders.has(`${pod.namespace}/${pod.deployment}`);
      leaders.add(`${pod.namespace}/${pod.deployment}`);
      let state = this.states.get(key);
      if (!state) {
        state = new PodMetrics(this.initialised ? now : this.startedAt);
        this.states.set(key, state);
      }
      state.setLoad(load, !leader);
    }
    for (const key of [...this.states.keys()])
      if (!live.has(key)) this.states.delete(key);
    this.dirty = false;
    this.statusChangedAt = undefined;
    this.computedAt = now;
    this.initialised = true;
    return this.current;
  }

  /** The metrics of a pod integrated up to now, or undefined when it is not a controller pod. */
  metricsOf(pod: ControllerPod): PodMetrics | undefined {
    this.loads();
    const state = this.states.get(`${pod.namespace}/${pod.name}`);
    state?.advance(Date.now(), this.cluster.faults.throttleRatio);
    return state;
  }

  /** Restarts a pod's counters (the `reset` fault: what a crash or an OOM kill looks like to a scraper). */
  reset(pod: ControllerPod): void {
    this.loads();
    const key = `${pod.namespace}/${pod.name}`;
    const old = this.states.get(key);
    if (!old) return;
    const fresh = new PodMetrics(Date.now());
    fresh.setLoad(old.load, old.standby);
    this.states.set(key, fresh);
  }

  /** Bytes of metrics answered so far: the expositions of every scrape, through the pod proxy or a scrape target. */
  bytesServed(): number {
    return this.served;
  }

  /** Answers a scrape of a pod's `/metrics`, with the pod's fault. */
  serve(pod: ControllerPod, res: ServerResponse): void {
    const fault = this.cluster.faults.podMetrics[pod.name];
    if (fault === 'hang') return; // accepted, never answered
    if (fault === 'slow') {
      const timer = setTimeout(
        () => this.answer(pod, res, undefined),
        this.cluster.faults.metricsDelayMs,
      );
      res.on('close', () => clearTimeout(timer));
      return;
    }
    this.answer(pod, res, fault);
  }

  private answer(
    pod: ControllerPod,
    res: ServerResponse,
    fault: PodMetricsFault | undefined,
  ): void {
    if (res.destroyed) return;
    if (fault === 'garbage') {
      res.writeHead(200, { 'Content-Type': EXPOSITION_CONTENT_TYPE });
      res.end(
        '<html><body>502 Bad Gateway</body></html>\ncontroller_runtime_reconcile_total{controller="kustomization" 12 oops\n\u0000\u00ff{{{\n',
      );
      return;
    }
    if (fault === 'huge') {
      streamHuge(res);
      return;
    }
    const metrics = this.metricsOf(pod);
    if (!metrics) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': EXPOSITION_CONTENT_TYPE });
    const chunks = renderMetricsChunks(metrics, {
      nonFinite: fault === 'nan',
      missing: fault === 'missing',
    });
    // counted as the connection takes each chunk (an exposition is ASCII: a character is a byte)
    writeChunks(res, {
      next: () => {
        const chunk = chunks.next();
        if (!chunk.done) this.served += chunk.value.length;
        return chunk;
      },
    });
  }
}

/** A valid but huge body (64 MiB of series), streamed so that it costs the simulator no memory. */
function streamHuge(res: ServerResponse): void {
  const line = (i: number) =>
    `flux_fleet_sim_padding_total{series="${i}",padding="${'x'.repeat(
      200,
    )}"} ${i}\n`;
  const chunk = Buffer.from(
    Array.from({ length: 4096 }, (_, i) => line(i)).join(''),
  );
  res.writeHead(200, { 'Content-Type': EXPOSITION_CONTENT_TYPE });
  let sent = 0;
  const write = () => {
    while (sent < HUGE_BODY_BYTES && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', write);
        return;
      }
    }
    res.end();
  };
  write();
}
