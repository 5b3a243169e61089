import { InputError, NotFoundError } from '@backstage/errors';
import {
  CapacityHistory,
  CapacityRecord,
  CapacityReport,
  capacityOfWorkloads,
  ClusterWorkloads,
  controllerWorkloadKey,
  FluxController,
  FluxObjectRecord,
  InstanceCapacity,
  InstanceSummary,
  planSharding,
  ShardingPlan,
  shardingPlanInputOf,
  workloadsOfCluster,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { CapacityHistoryPoint, CapacitySource } from '../capacity/CapacitySource';

/** What the capacity answers read of the fleet index. */
export interface CapacityIndex {
  clusterNames(): string[];
  instances(cluster?: string): InstanceSummary[];
  /** A cluster's records, built with turns of the event loop between batches (for a sharding plan). */
  clusterRecordsInTurns(cluster: string): Promise<FluxObjectRecord[]>;
  /** What capacity reads of the same records, read with turns of the event loop between batches. */
  clusterCapacityRecordsInTurns(cluster: string): Promise<CapacityRecord[]>;
  /**
   * Changes whenever objects of the cluster came or went or it was analysed again (owners, shards and controllers
   * change only then); not when an object's status changed.
   */
  structureVersion(cluster: string): string;
}

/**
 * A cluster's workloads are read again for a status change (the last reconcile durations of the §9 estimate) after
 * this long at the soonest; at once when its structure changed. Either way in the background, while the last ones
 * answer, unless its controllers changed.
 */
export const CAPACITY_STATUS_FRESH_MS = 30_000;

/** A cluster's workloads as last read, from which structure and controllers, and the reading under way. */
interface KeptWorkloads {
  /** The structure and controllers the last finished reading started from. */
  structure: string;
  controllers: string;
  /** When the last reading started. */
  at: number;
  /** The last finished reading. */
  settled?: ClusterWorkloads;
  /** A reading under way, and the structure and controllers it started from. */
  next?: { structure: string; controllers: string; workloads: Promise<ClusterWorkloads> };
}

/** A capacity source that has never measured anything (capacity collection not running). */
export const NO_CAPACITY_SOURCE: CapacitySource = {
  measurements: () => [],
  history: () => [],
};

function controllerKey(c: FluxController): string {
  return `${c.cluster}/${c.instance}/${c.name}`;
}

/** Busy workers ÷ concurrent of one history point, as assessController reads a measurement (rules §12). */
function utilisationAt(point: CapacityHistoryPoint, concurrent: number): number | undefined {
  const c = point.maxConcurrentReconciles && point.maxConcurrentReconciles > 0
    ? point.maxConcurrentReconciles
    : concurrent;
  if (!(c > 0)) return undefined;
  const busy =
    point.activeWorkers ??
    (point.reconcilesPerSecond !== undefined && point.reconcileTimeMeanSeconds !== undefined
      ? point.reconcilesPerSecond * point.reconcileTimeMeanSeconds
      : undefined);
  return busy !== undefined && Number.isFinite(busy) && busy >= 0 ? busy / c : undefined;
}

/**
 * The answers of the capacity routes (docs/api.md, rules §12, §13): the index's controllers and objects joined
 * with the latest measurement of each controller (or why there is none) through the pure derivations of
 * `-common`. Reads only, from memory.
 *
 * Only a cluster's workloads read its objects; they are kept per cluster, and every answer joins them with the
 * measurements as they are now. A collection round therefore costs no object reading: at fleet L (100 clusters,
 * a million objects) reading every object again after each round took about 11 s of CPU, and a `GET /capacity`
 * right after a round waited more than 60 s for it (2026-12-04) behind L's watches. Callers asking at once share
 * one reading; under status churn the kept workloads answer while the next reading runs.
 */
export class CapacityAnswers {
  private readonly workloads = new Map<string, KeptWorkloads>();

  constructor(
    private readonly index: CapacityIndex,
    private readonly source: CapacitySource,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The capacity of every instance (of one cluster and instance, when given). Each cluster's objects are read in
   * turns of the event loop: read at once for the whole of fleet M (107k objects) they held the backend for
   * about a second per request, and with it every signal and page answer meanwhile.
   */
  async report(query: { cluster?: string; instance?: string } = {}): Promise<CapacityReport> {
    if (query.cluster !== undefined) this.requireCluster(query.cluster);
    const clusters = query.cluster !== undefined ? [query.cluster] : this.index.clusterNames();
    const items: InstanceCapacity[] = [];
    for (const cluster of clusters) {
      const workloads = await this.workloadsOf(cluster);
      for (const item of this.clusterCapacity(cluster, workloads)) {
        if (query.instance === undefined || item.instance === query.instance) items.push(item);
      }
    }
    return { items, generatedAt: new Date(this.now()).toISOString() };
  }

  /**
   * A cluster's workloads: the kept ones, read again in the background when its structure changed or they are
   * CAPACITY_STATUS_FRESH_MS old; a reading waited for only when there are none yet or the cluster's controllers
   * changed (a new shard's controller would show no objects). At fleet L the analyses after a collection round
   * change every cluster's structure version, and a `GET /capacity` that waited for a hundred readings in turns
   * behind the watches did not answer within 60 s (2026-12-04).
   */
  private workloadsOf(cluster: string): ClusterWorkloads | Promise<ClusterWorkloads> {
    const structure = this.index.structureVersion(cluster);
    const controllers = this.controllersOf(cluster)
      .map(c => `${controllerWorkloadKey(c)}:${c.shard}`)
      .join(',');
    let kept = this.workloads.get(cluster);
    if (!kept) {
      kept = { structure, controllers, at: this.now() };
      this.workloads.set(cluster, kept);
    }
    const usable = kept.settled && kept.controllers === controllers ? kept.settled : undefined;
    if (usable && kept.structure === structure && this.now() - kept.at < CAPACITY_STATUS_FRESH_MS) return usable;
    // one reading at a time while the kept workloads answer; without them, one of these very inputs
    const under = kept.next;
    if (under && (usable || (under.structure === structure && under.controllers === controllers))) {
      return usable ?? under.workloads;
    }
    const next = this.read(cluster, kept, structure, controllers);
    if (!usable) return next;
    // the kept workloads answer; a failed reading is tried again by the next caller
    next.catch(() => undefined);
    return usable;
  }

  private read(cluster: string, entry: KeptWorkloads, structure: string, controllers: string): Promise<ClusterWorkloads> {
    const workloads = this.index
      .clusterCapacityRecordsInTurns(cluster)
      .then(objects => workloadsOfCluster(this.controllersOf(cluster), objects));
    const next = { structure, controllers, workloads };
    const at = this.now();
    entry.next = next;
    workloads.then(
      settled => {
        if (entry.next !== next) return;
        Object.assign(entry, { structure, controllers, at, settled, next: undefined });
      },
      () => {
        if (entry.next === next) entry.next = undefined;
      },
    );
    return workloads;
  }

  private controllersOf(cluster: string): FluxController[] {
    return this.index.instances(cluster).flatMap(i => i.controllers);
  }

  /** The sharding plan of one instance (rules §13); `shards` the shards wanted besides `main`. */
  async plan(cluster: string, instance: string, shards?: number): Promise<ShardingPlan> {
    const summary = this.requireInstance(cluster, instance);
    const controllers = this.controllersOf(cluster);
    const objects = await this.index.clusterRecordsInTurns(cluster);
    const capacity = this.clusterCapacity(cluster, workloadsOfCluster(controllers, objects)).find(
      i => i.instance === instance,
    );
    return planSharding(
      shardingPlanInputOf({
        cluster,
        instance,
        controllers,
        objects,
        capacity,
        shards,
        fluxInstance: summary.fluxInstance,
      }),
    );
  }

  /** The measured utilisation and queue wait of an instance's controllers over recent hours. */
  history(cluster: string, instance: string): CapacityHistory {
    const summary = this.requireInstance(cluster, instance);
    return {
      cluster,
      instance,
      controllers: summary.controllers.map(c => ({
        controller: c.name,
        component: c.component,
        shard: c.shard,
        points: this.historyOf(c),
      })),
    };
  }

  /** One controller's measured history as `/capacity/history` gives it, oldest point first. */
  private historyOf(c: FluxController) {
    return this.source.history(controllerKey(c)).map(p => ({
      at: p.measuredAt,
      ...optional('utilisation', utilisationAt(p, c.concurrent)),
      ...optional('queueWaitP95Seconds', p.queueWaitP95Seconds),
      ...optional('queueDepth', p.queueDepth),
    }));
  }

  /** Measured utilisation of a cluster's controllers by `instance/deployment` (for the analysis' finding). */
  measuredUtilisation(cluster: string): Map<string, number> {
    const concurrent = new Map(
      this.index.instances(cluster).flatMap(i => i.controllers).map(c => [controllerKey(c), c.concurrent]),
    );
    const out = new Map<string, number>();
    for (const r of this.source.measurements(cluster)) {
      const u = r.measurement && utilisationAt(r.measurement, concurrent.get(r.key) ?? 0);
      if (u !== undefined) out.set(`${r.namespace}/${r.deployment}`, u);
    }
    return out;
  }

  /** A cluster's capacity: its workloads joined with its measurements as they are now. */
  private clusterCapacity(cluster: string, workloads: ClusterWorkloads): InstanceCapacity[] {
    const readings = new Map(this.source.measurements(cluster).map(r => [r.key, r]));
    return capacityOfWorkloads({
      cluster,
      controllers: this.controllersOf(cluster),
      workloads,
      measurements: [...readings.values()].flatMap(r => (r.measurement ? [r.measurement] : [])),
      noMeasurementReason: c => {
        const unmeasured = readings.get(controllerKey(c))?.unmeasured ?? [];
        return unmeasured.length > 0 ? unmeasured.join('; ') : undefined;
      },
      history: c => this.historyOf(c),
    });
  }

  private requireCluster(cluster: string): void {
    if (!this.index.clusterNames().includes(cluster)) {
      throw new NotFoundError(
        `Flux Fleet watches no cluster named '${cluster}' (it watches: ${
          this.index.clusterNames().join(', ') || 'none'
        })`,
      );
    }
  }

  private requireInstance(cluster: string, instance: string): InstanceSummary {
    if (!cluster || !instance) {
      throw new InputError('Both cluster and instance are required');
    }
    this.requireCluster(cluster);
    const instances = this.index.instances(cluster);
    const found = instances.find(i => i.name === instance);
    if (!found) {
      throw new NotFoundError(
        `Cluster '${cluster}' has no Flux instance '${instance}' (its instances: ${
          instances.map(i => i.name).join(', ') || 'none'
        })`,
      );
    }
    return found;
  }
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}
