/**
 * The low-level part of generating a cluster: identities, times, API versions, and putting objects into the
 * store together with the simulator's record of each Flux object.
 */
import {
  groupVersion,
  type ResourceType,
  type ServedResource,
} from '../api/resourceTypes';
import { objectLoadOf } from '../capacity/objectLoad';
import type { Random } from '../random';
import { ClusterStore } from '../store/clusterStore';
import type { ClusterPlan } from './clusterPlan';
import {
  recordKey,
  type ControllerSpec,
  type SimulatedObject,
  type Placement,
} from './model';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Collects one cluster's objects and records while the generator builds them. */
export class ClusterBuilder {
  readonly store: ClusterStore;
  readonly records = new Map<string, SimulatedObject>();
  private readonly types = new Map<string, ServedResource>();
  private readonly placements = new Map<string, Placement>();

  constructor(
    readonly plan: ClusterPlan,
    readonly random: Random,
    readonly epoch: number,
    readonly served: ServedResource[],
    watchWindow: number,
  ) {
    this.store = new ClusterStore(watchWindow);
    for (const entry of served) this.types.set(entry.type.kind, entry);
  }

  /** An RFC 3339 time `ms` before the fleet's epoch. */
  ago(ms: number): string {
    return new Date(this.epoch - Math.max(0, Math.round(ms / 1000) * 1000))
      .toISOString()
      .replace('.000Z', 'Z');
  }

  /** A random time between `min` and `max` ago. */
  between(min: number, max: number): string {
    return this.ago(min + this.random.next() * (max - min));
  }

  uid(): string {
    const h = this.random.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(
      17,
      20,
    )}-${h.slice(20, 32)}`;
  }

  serves(kind: string): boolean {
    return this.types.has(kind);
  }

  type(kind: string): ResourceType {
    const entry = this.types.get(kind);
    if (!entry) throw new Error(`${this.plan.name} does not serve ${kind}`);
    return entry.type;
  }

  /** The preferred (storage) API version of a kind on this cluster. */
  apiVersion(kind: string): string {
    const entry = this.types.get(kind);
    if (!entry) throw new Error(`${this.plan.name} does not serve ${kind}`);
    return groupVersion(entry.type.group, entry.versions[0]);
  }

  /** Stores a non-Flux object. */
  put(object: Record<string, any>): void {
    this.store.put(this.type(object.kind), object);
  }

  /** Stores a Flux object with its record. */
  putFlux(
    object: Record<string, any>,
    record: Omit<SimulatedObject, 'kind' | 'namespace' | 'name'>,
  ): void {
    const { kind } = object;
    const { name, namespace } = object.metadata;
    this.store.put(this.type(kind), object);
    const load = objectLoadOf(this.plan.name, kind, object);
    this.records.set(recordKey(kind, namespace, name), {
      kind,
      namespace,
      name,
      ...record,
      ...(load ? { load } : {}),
    });
  }

  /** The controller of an instance for a component and shard (the generator's placement). */
  controller(
    instance: string,
    component: string,
    shard: string,
  ): ControllerSpec {
    for (const i of this.plan.instances) {
      if (i.namespace !== instance) continue;
      const found = i.controllers.find(
        c => c.component === component && c.shard === shard,
      );
      if (found) return found;
    }
    throw new Error(
      `${this.plan.name}: no ${component} on shard ${shard} of instance ${instance}`,
    );
  }

  /** Placement on one controller. */
  placed(instance: string, component: string, shard: string): Placement {
    // Shared: a record's placement is replaced, never changed in place.
    const key = `${instance}/${component}/${shard}`;
    let placement = this.placements.get(key);
    if (!placement) {
      placement = {
        status: 'ok',
        controllers: [this.controller(instance, component, shard)],
      };
      this.placements.set(key, placement);
    }
    return placement;
  }
}
