import { InputError, NotFoundError } from '@backstage/errors';
import {
  CapacityHistory,
  CapacityRecord,
  CapacityReport,
  capacityOfCluster,
  FluxController,
  FluxObjectRecord,
  InstanceCapacity,
  InstanceSummary,
  planSharding,
  ShardingPlan,
  shardingPlanInputOf,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { CapacityHistoryPoint, CapacitySource, ControllerCapacityReading } from '../capacity/CapacitySource';

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
 * A cluster's capacity is computed again for a status change (the last reconcile durations of the §9 estimate)
 * after this long at the soonest; at once when its structure or its measurements changed.
 */
export const CAPACITY_STATUS_FRESH_MS = 30_000;

/** A cluster's capacity as last computed (or being computed), from what, and since when. */
interface ComputedCapacity {
  structure: string;
  measured: string;
  at: number;
  items: Promise<InstanceCapacity[]>;
}

/** A capacity source that has never measured anything (capacity collection not running). */
export const NO_CAPACITY_SOURCE: CapacitySource = {
  measurements: () => [],
  history: () => [],
};

/** What of a cluster's readings its capacity depends on: which measurement each controller has, or why none. */
function measurementsSignature(readings: ControllerCapacityReading[]): string {
  return readings
    .map(r => `${r.key}@${r.measurement?.source ?? ''}:${r.measurement?.measuredAt ?? ''}:${r.unmeasured.join('|')}`)
    .join(',');
}

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
 * `-common`. Reads only, from memory. A cluster's capacity is kept until its structure or measurements change, or
 * for {@link CAPACITY_STATUS_FRESH_MS} under status churn, and callers asking at once share one computation: at
 * fleet L (100 clusters, a million objects) the whole fleet's capacity took about 11 s of CPU, the fleet page and
 * the verdict watch after each collection round both ask for it, and a bench request waited more than 60 s for it
 * (2026-12-04) while the computations of several callers ran side by side.
 */
export class CapacityAnswers {
  private readonly computed = new Map<string, ComputedCapacity>();

  constructor(
    private readonly index: CapacityIndex,
    private readonly source: CapacitySource,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The capacity of every instance (of one cluster and instance, when given). Each cluster's records are built
   * in turns of the event loop: built at once for the whole of fleet M (107k objects) they held the backend for
   * about a second per request, and with it every signal and page answer meanwhile.
   */
  async report(query: { cluster?: string; instance?: string } = {}): Promise<CapacityReport> {
    if (query.cluster !== undefined) this.requireCluster(query.cluster);
    const clusters = query.cluster !== undefined ? [query.cluster] : this.index.clusterNames();
    const items: InstanceCapacity[] = [];
    for (const cluster of clusters) {
      for (const item of await this.capacityOf(cluster)) {
        if (query.instance === undefined || item.instance === query.instance) items.push(item);
      }
    }
    return { items, generatedAt: new Date(this.now()).toISOString() };
  }

  /**
   * A cluster's capacity: the last computation's (finished or under way) while its inputs are the same and it is
   * younger than CAPACITY_STATUS_FRESH_MS, else a new one. A computation from other inputs is never handed out:
   * the verdict watch right after a round must compare the round's figures.
   */
  private capacityOf(cluster: string): Promise<InstanceCapacity[]> {
    const structure = this.index.structureVersion(cluster);
    const measured = measurementsSignature(this.source.measurements(cluster));
    const last = this.computed.get(cluster);
    if (
      last &&
      last.structure === structure &&
      last.measured === measured &&
      this.now() - last.at < CAPACITY_STATUS_FRESH_MS
    ) {
      return last.items;
    }
    const items = this.index
      .clusterCapacityRecordsInTurns(cluster)
      .then(objects => this.clusterCapacity(cluster, objects));
    const entry = { structure, measured, at: this.now(), items };
    this.computed.set(cluster, entry);
    // a failed computation is not kept: the next caller tries again
    items.catch(() => {
      if (this.computed.get(cluster) === entry) this.computed.delete(cluster);
    });
    return items;
  }

  /** The sharding plan of one instance (rules §13); `shards` the shards wanted besides `main`. */
  async plan(cluster: string, instance: string, shards?: number): Promise<ShardingPlan> {
    const summary = this.requireInstance(cluster, instance);
    const controllers = this.index.instances(cluster).flatMap(i => i.controllers);
    const objects = await this.index.clusterRecordsInTurns(cluster);
    const capacity = this.clusterCapacity(cluster, objects).find(i => i.instance === instance);
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

  private clusterCapacity(cluster: string, objects: readonly CapacityRecord[]): InstanceCapacity[] {
    const controllers = this.index.instances(cluster).flatMap(i => i.controllers);
    const readings = new Map(this.source.measurements(cluster).map(r => [r.key, r]));
    return capacityOfCluster({
      cluster,
      controllers,
      objects,
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
