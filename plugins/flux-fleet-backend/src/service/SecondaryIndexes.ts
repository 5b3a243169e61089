import type { ObjectQuery } from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from './IndexedObject';

/** The object filters of `GET /objects` that a secondary index answers. */
export type IndexedFilter =
  | 'state'
  | 'kind'
  | 'namespace'
  | 'tenant'
  | 'instance'
  | 'shard'
  | 'service'
  | 'finding'
  | 'owner';

/** Separates instance and shard in the owner index's keys (neither can contain it). */
const SEP = '\u0000';

/** Objects by one value of one field. */
class ValueIndex {
  readonly sets = new Map<string, Set<IndexedObject>>();

  add(value: string, object: IndexedObject) {
    let set = this.sets.get(value);
    if (!set) {
      set = new Set();
      this.sets.set(value, set);
    }
    set.add(object);
  }

  delete(value: string, object: IndexedObject) {
    const set = this.sets.get(value);
    if (!set) return;
    set.delete(object);
    if (set.size === 0) this.sets.delete(value);
  }

  size(value: string): number {
    return this.sets.get(value)?.size ?? 0;
  }
}

/** How many objects have each value of a field (for fields not worth a set per value). */
class ValueCounts {
  readonly counts = new Map<string, number>();

  add(value: string) {
    this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
  }

  delete(value: string) {
    const n = (this.counts.get(value) ?? 0) - 1;
    if (n > 0) this.counts.set(value, n);
    else this.counts.delete(value);
  }
}

/** Most objects are ready: a set of them would cost memory for a filter that selects nearly everything. */
const COMMON_STATE = 'ready';

/** The values an object is indexed under. */
interface Entry {
  state: string;
  kind: string;
  namespace: string;
  tenant: string | null;
  /** `instance␀shard` when the owner is ok. */
  placement: string | null;
  service: string | null;
  findings: readonly string[];
  owner: string;
}

function entryOf(o: IndexedObject): Entry {
  return {
    state: o.state.state,
    kind: o.record.kind,
    namespace: o.record.namespace,
    tenant: o.boundary.tenant,
    placement:
      o.owner.status === 'ok' && o.owner.instance !== null
        ? `${o.owner.instance}${SEP}${o.owner.shard ?? ''}`
        : null,
    service: o.service,
    findings: o.findings,
    owner: o.owner.status,
  };
}

/**
 * The secondary indexes of one cluster's objects: by namespace, tenant, instance and shard, service, finding,
 * state (other than `ready`) and owner status (other than `ok`), with counts per kind and per state. A query
 * starts from the smallest index set among its filters and checks the rest on each object. Values that most
 * objects share (`ready`, `ok`, a kind) get no set: each costs memory per object for a filter that narrows
 * little, and checking the objects directly is as fast.
 */
export class SecondaryIndexes {
  private count = 0;
  /** Objects per state; sets only for the states other than `ready`. */
  readonly stateCounts = new ValueCounts();
  private readonly state = new ValueIndex();
  /** Objects per kind (a kind filter checks each object: kinds are few and large). */
  readonly kindCounts = new ValueCounts();
  private readonly namespace = new ValueIndex();
  private readonly tenant = new ValueIndex();
  private readonly placement = new ValueIndex();
  private readonly service = new ValueIndex();
  private readonly finding = new ValueIndex();
  /** Only `orphan` and `contested`: `ok` is the rest. */
  private readonly owner = new ValueIndex();

  get size(): number {
    return this.count;
  }

  /** Indexes a new object under its current values. */
  add(o: IndexedObject): void {
    this.count++;
    this.index(o, entryOf(o));
  }

  /** Removes an object, indexed under its current values. */
  remove(o: IndexedObject): void {
    this.count--;
    this.unindex(o, entryOf(o));
  }

  /**
   * Changes an indexed object and re-indexes it where its values moved. The index keeps no copy of each
   * object's values (that would cost as much as the sets), so every change must go through here.
   */
  update(o: IndexedObject, change: (o: IndexedObject) => void): void {
    const before = entryOf(o);
    change(o);
    const after = entryOf(o);
    if (sameEntry(before, after)) return;
    this.unindex(o, before);
    this.index(o, after);
  }

  private index(o: IndexedObject, e: Entry) {
    this.stateCounts.add(e.state);
    if (e.state !== COMMON_STATE) this.state.add(e.state, o);
    this.kindCounts.add(e.kind);
    this.namespace.add(e.namespace, o);
    if (e.tenant !== null) this.tenant.add(e.tenant, o);
    if (e.placement !== null) this.placement.add(e.placement, o);
    if (e.service !== null) this.service.add(e.service, o);
    for (const f of e.findings) this.finding.add(f, o);
    if (e.owner !== 'ok') this.owner.add(e.owner, o);
  }

  private unindex(o: IndexedObject, e: Entry) {
    this.stateCounts.delete(e.state);
    if (e.state !== COMMON_STATE) this.state.delete(e.state, o);
    this.kindCounts.delete(e.kind);
    this.namespace.delete(e.namespace, o);
    if (e.tenant !== null) this.tenant.delete(e.tenant, o);
    if (e.placement !== null) this.placement.delete(e.placement, o);
    if (e.service !== null) this.service.delete(e.service, o);
    for (const f of e.findings) this.finding.delete(f, o);
    if (e.owner !== 'ok') this.owner.delete(e.owner, o);
  }

  /** The objects of a service (rules §6). */
  ofService(service: string): ReadonlySet<IndexedObject> | undefined {
    return this.service.sets.get(service);
  }

  /** Services present, with their objects. */
  services(): ReadonlyMap<string, ReadonlySet<IndexedObject>> {
    return this.service.sets;
  }

  /** `instance/shard` pairs present, with their objects. */
  placements(): Array<{ instance: string; shard: string; objects: ReadonlySet<IndexedObject> }> {
    return [...this.placement.sets].map(([key, objects]) => {
      const [instance, shard] = key.split(SEP);
      return { instance, shard, objects };
    });
  }

  /** Tenants present, with their objects. */
  tenants(): ReadonlyMap<string, ReadonlySet<IndexedObject>> {
    return this.tenant.sets;
  }

  /**
   * The smallest candidate set the indexed filters of a query allow (the union of the sets of a filter's
   * values), or undefined when the query has no indexed filter (every object is a candidate).
   */
  candidates(query: ObjectQuery): Iterable<IndexedObject> | undefined {
    let best: { size: number; sets: Array<ReadonlySet<IndexedObject>> } | undefined;
    const consider = (sets: Array<ReadonlySet<IndexedObject> | undefined>) => {
      const present = sets.filter(
        (s): s is ReadonlySet<IndexedObject> => s !== undefined,
      );
      const size = present.reduce((n, s) => n + s.size, 0);
      if (!best || size < best.size) best = { size, sets: present };
    };
    const simple: Array<[IndexedFilter, ValueIndex, string[] | undefined]> = [
      [
        'state',
        this.state,
        query.state?.includes(COMMON_STATE) ? undefined : query.state,
      ],
      ['namespace', this.namespace, query.namespace],
      ['tenant', this.tenant, query.tenant],
      ['service', this.service, query.service],
      ['finding', this.finding, query.finding],
    ];
    for (const [, index, values] of simple) {
      if (values?.length) consider(values.map(v => index.sets.get(v)));
    }
    if (query.owner?.length && !query.owner.includes('ok')) {
      consider(query.owner.map(v => this.owner.sets.get(v)));
    }
    if (query.instance?.length || query.shard?.length) {
      const sets: Array<ReadonlySet<IndexedObject>> = [];
      for (const [key, set] of this.placement.sets) {
        const [instance, shard] = key.split(SEP);
        if (
          (!query.instance?.length || query.instance.includes(instance)) &&
          (!query.shard?.length || query.shard.includes(shard))
        ) {
          sets.push(set);
        }
      }
      consider(sets);
    }
    if (!best) return undefined;
    const sets = best.sets;
    // A filter's value sets are disjoint (an object has one state, one kind…), except findings: dedupe those.
    return sets.length === 1 ? sets[0] : new Set(sets.flatMap(s => [...s]));
  }
}

function sameEntry(a: Entry, b: Entry): boolean {
  return (
    a.state === b.state &&
    a.kind === b.kind &&
    a.namespace === b.namespace &&
    a.tenant === b.tenant &&
    a.placement === b.placement &&
    a.service === b.service &&
    a.owner === b.owner &&
    (a.findings === b.findings ||
      (a.findings.length === b.findings.length &&
        a.findings.every((f, i) => f === b.findings[i])))
  );
}
