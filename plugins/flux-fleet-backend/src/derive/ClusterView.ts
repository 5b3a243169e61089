import {
  ClusterAnalysis,
  deriveReconcileState,
  Finding,
  FindingType,
  FLUX_KINDS,
  FluxKind,
  FluxObjectRecord,
  InstanceSummary,
  ObjectQuery,
  Owner,
  RECONCILE_STATES,
  reconcileNotHandledFinding,
  ReconcileState,
  ReconcileStateName,
  ShardSummary,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from './IndexedObject';
import type { RecordTable } from '../records/RecordTable';
import { ServiceIndex } from './ServiceIndex';
import { ViewObject } from './ViewObject';
import { capacityFor, grown, INITIAL_CAPACITY } from '../records/columns';

/** What one pass over a cluster changed, for subscribers and signals. */
export interface ViewChanges {
  keys: Set<string>;
  /** Services of changed objects, before and after. */
  services: Set<string>;
  /** A status change flipped a reconcile request to unhandled (or back): the cluster needs an analysis. */
  needsAnalysis: boolean;
}

const NO_FINDINGS: readonly FindingType[] = Object.freeze([]);

/**
 * Equal lists of finding types are one frozen array, shared by every object of every cluster that has them, and
 * numbered: the view keeps the number. Code 0 is "no findings".
 */
const findingTypeLists: Array<readonly FindingType[]> = [NO_FINDINGS];
const findingTypeCodes = new Map<string, number>([['', 0]]);

function findingTypesCodeOf(findings: readonly Finding[]): number {
  if (findings.length === 0) return 0;
  const types = [...new Set(findings.map(f => f.type))];
  const signature = types.join(',');
  let code = findingTypeCodes.get(signature);
  if (code === undefined) {
    code = findingTypeLists.length;
    findingTypeLists.push(Object.freeze(types));
    findingTypeCodes.set(signature, code);
  }
  return code;
}

/** Which of `names` a filter allows, by position; undefined when the filter is absent (all are). */
function maskOf(names: readonly string[], allowed: readonly string[] | undefined): Uint8Array | undefined {
  if (!allowed?.length) return undefined;
  return Uint8Array.from(names, name => (allowed.includes(name) ? 1 : 0));
}

/** A filter decided for each distinct value once, by code; undefined when there is no filter. */
function decide<T>(values: readonly T[], passes: ((value: T) => boolean) | undefined): Uint8Array | undefined {
  return passes && Uint8Array.from(values, value => (passes(value) ? 1 : 0));
}

function ownerFilter(query: ObjectQuery): ((owner: Owner) => boolean) | undefined {
  const { owner: statuses, instance, shard } = query;
  if (!statuses?.length && !instance?.length && !shard?.length) return undefined;
  return owner =>
    (!statuses?.length || statuses.includes(owner.status)) &&
    (!instance?.length || (owner.instance !== null && instance.includes(owner.instance))) &&
    (!shard?.length || (owner.shard !== null && shard.includes(owner.shard)));
}

/** A boundary's namespace is its object's (rules §5), so the namespace filter is decided per boundary too. */
function boundaryFilter(query: ObjectQuery): ((boundary: TenancyBoundary) => boolean) | undefined {
  const { namespace, tenant } = query;
  if (!namespace?.length && !tenant?.length) return undefined;
  return boundary =>
    (!namespace?.length || namespace.includes(boundary.namespace)) &&
    (!tenant?.length || (boundary.tenant !== null && tenant.includes(boundary.tenant)));
}

const KIND_CODE = new Map<string, number>(FLUX_KINDS.map((k, i) => [k, i]));
const STATE_CODE = new Map<string, number>(RECONCILE_STATES.map((s, i) => [s, i]));

/** The object is in the view (an analysis has derived it). */
const SHOWN = 1;
/** Its reconcile request has gone unhandled (rules §2), as last derived. */
const NOT_HANDLED = 2;
/** Its state's message is its Ready condition's (most are): read from the record, not kept twice. */
const MESSAGE_IS_READY = 4;


/**
 * Numbers the distinct values a column holds (owners, boundaries), for one analysis: the view keeps a number per
 * object, not a reference.
 */
class ValueList<T> {
  readonly values: T[] = [];
  private readonly codes = new Map<T, number>();

  codeOf(value: T): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }
}

/**
 * The derived view of one cluster: for each object of its store, in columns indexed by the object's slot, the
 * state name and message, owner, boundary, service and finding types (as numbers into lists of the distinct
 * values), when it last changed and when its state was derived; the counts per kind and state, the objects per
 * service, and the cluster's findings, instances and shards from its last analysis. An object costs the view
 * about 40 bytes; {@link ClusterView.object} makes an {@link IndexedObject} handle when one is asked for.
 */
export class ClusterView {
  findings: Finding[] = [];
  /** Findings about each object (only objects that have some). */
  findingsByKey = new Map<string, Finding[]>();
  instances: InstanceSummary[] = [];
  shards: ShardSummary[] = [];
  analysedAt?: number;
  /**
   * Owners and boundaries by content. An analysis shares equal answers between the objects it derives; this
   * keeps them shared across analyses too, so an unchanged answer is the same object and comparing is `===`.
   */
  private readonly canonical = new Map<string, object>();
  /** When objects of a snapshot last changed, for the next analysis (which would otherwise say "now"). */
  private seededUpdatedAt?: Map<string, number>;

  private capacity = INITIAL_CAPACITY;
  private flags = new Uint8Array(INITIAL_CAPACITY);
  private kindCodes = new Uint8Array(INITIAL_CAPACITY);
  private stateCodes = new Uint8Array(INITIAL_CAPACITY);
  private findingCodes = new Uint16Array(INITIAL_CAPACITY);
  private ownerCodes = new Uint32Array(INITIAL_CAPACITY);
  private boundaryCodes = new Uint32Array(INITIAL_CAPACITY);
  private derivedAts = new Float64Array(INITIAL_CAPACITY);
  private updatedAts = new Float64Array(INITIAL_CAPACITY);
  /** The owners and boundaries of the last analysis, by code. */
  private owners: Owner[] = [];
  private boundaries: TenancyBoundary[] = [];
  /** State messages that are not the Ready condition's, by slot. */
  private readonly otherMessages = new Map<number, string>();
  private shown = 0;
  private readonly kindCounts = new Int32Array(FLUX_KINDS.length);
  private readonly stateCounts = new Int32Array(RECONCILE_STATES.length);
  private serviceIndex = ServiceIndex.empty();

  constructor(
    readonly cluster: string,
    /** The cluster store's records, whose slots the columns follow. */
    readonly table: RecordTable,
  ) {}

  /** Objects in the view (as of the last analysis). */
  get size(): number {
    return this.shown;
  }

  /** Whether the slot is in the view and its object still in the store (so it can be shown). */
  isShown(slot: number): boolean {
    return slot < this.capacity && (this.flags[slot] & SHOWN) !== 0 && this.table.isLive(slot);
  }

  /** A handle on the object in a slot, when it is shown. */
  object(slot: number): IndexedObject | undefined {
    return this.isShown(slot) ? new ViewObject(this, slot) : undefined;
  }

  /** A handle on an object by key, when it is shown. */
  get(key: string): IndexedObject | undefined {
    const slot = this.table.slotOf(key);
    return slot === undefined ? undefined : this.object(slot);
  }

  /** The slots of the objects shown, in slot order. */
  *slots(): IterableIterator<number> {
    const limit = Math.min(this.table.slotLimit, this.capacity);
    for (let slot = 0; slot < limit; slot++) {
      if (this.isShown(slot)) yield slot;
    }
  }

  /** The keys of the objects in the view. */
  *keys(): IterableIterator<string> {
    for (const slot of this.slots()) yield this.table.keyOf(slot)!;
  }

  /** Calls `visit` with the slot of each shown object of a service (rules §6). */
  forEachOfService(service: string, visit: (slot: number) => void): void {
    this.serviceIndex.forEach(service, slot => {
      if (this.isShown(slot)) visit(slot);
    });
  }

  /** The services of the objects in the view. */
  serviceNames(): readonly string[] {
    return this.serviceIndex.services;
  }

  /**
   * Calls `visit` with the slot of each shown object that passes the filters of a query the columns answer (all
   * but the free text): each filter is first decided once per distinct value (owner, boundary, finding list),
   * so that each object costs a few reads of numbers.
   */
  forEachMatch(query: ObjectQuery, visit: (slot: number) => void): void {
    const kinds = maskOf(FLUX_KINDS, query.kind);
    const states = maskOf(RECONCILE_STATES, query.state);
    const owners = decide(this.owners, ownerFilter(query));
    const boundaries = decide(this.boundaries, boundaryFilter(query));
    const findings = query.finding?.length
      ? decide(findingTypeLists, list => list.some(f => query.finding!.includes(f)))
      : undefined;
    const test = (slot: number) => {
      if (!this.isShown(slot)) return;
      if (kinds && !kinds[this.kindCodes[slot]]) return;
      if (states && !states[this.stateCodes[slot]]) return;
      if (owners && !owners[this.ownerCodes[slot]]) return;
      if (boundaries && !boundaries[this.boundaryCodes[slot]]) return;
      if (findings && !findings[this.findingCodes[slot]]) return;
      visit(slot);
    };
    if (query.service?.length) {
      // a service filter starts from the services' objects
      for (const service of new Set(query.service)) this.serviceIndex.forEach(service, test);
      return;
    }
    const limit = Math.min(this.table.slotLimit, this.capacity);
    for (let slot = 0; slot < limit; slot++) test(slot);
  }

  /**
   * How many shown objects have each pair of boundary and owner that occurs: what per-tenant and per-shard
   * summaries need, without a step per object for them.
   */
  countsByBoundaryAndOwner(): Array<{ boundary: TenancyBoundary; owner: Owner; count: number }> {
    const owners = this.owners.length;
    const counts = new Map<number, number>();
    for (const slot of this.slots()) {
      const pair = this.boundaryCodes[slot] * owners + this.ownerCodes[slot];
      counts.set(pair, (counts.get(pair) ?? 0) + 1);
    }
    return [...counts].map(([pair, count]) => ({
      boundary: this.boundaries[Math.floor(pair / owners)],
      owner: this.owners[pair % owners],
      count,
    }));
  }

  /** Objects per kind. */
  countsByKind(): Partial<Record<FluxKind, number>> {
    const counts: Partial<Record<FluxKind, number>> = {};
    this.kindCounts.forEach((n, code) => {
      if (n > 0) counts[FLUX_KINDS[code]] = n;
    });
    return counts;
  }

  /** Objects per reconcile state. */
  countsByState(): Partial<Record<ReconcileStateName, number>> {
    const counts: Partial<Record<ReconcileStateName, number>> = {};
    this.stateCounts.forEach((n, code) => {
      if (n > 0) counts[RECONCILE_STATES[code]] = n;
    });
    return counts;
  }

  // ------------------------------------------------------------------ columns, by slot of a shown object

  keyOf(slot: number): string {
    return this.table.keyOf(slot)!;
  }

  recordOf(slot: number): FluxObjectRecord {
    return this.table.recordAt(slot)!;
  }

  kindOf(slot: number): FluxKind {
    return FLUX_KINDS[this.kindCodes[slot]];
  }

  stateNameOf(slot: number): ReconcileStateName {
    return RECONCILE_STATES[this.stateCodes[slot]];
  }

  stateMessageOf(slot: number): string | undefined {
    return this.flags[slot] & MESSAGE_IS_READY
      ? this.table.readyMessageAt(slot)
      : this.otherMessages.get(slot);
  }

  /** The reconcile state, derived again from the record at the time it was last derived (so it is the same). */
  stateOf(slot: number): ReconcileState {
    return deriveReconcileState(this.recordOf(slot), this.derivedAts[slot]);
  }

  ownerOf(slot: number): Owner {
    return this.owners[this.ownerCodes[slot]];
  }

  boundaryOf(slot: number): TenancyBoundary {
    return this.boundaries[this.boundaryCodes[slot]];
  }

  serviceOf(slot: number): string | null {
    return this.serviceIndex.serviceOf(slot);
  }

  findingTypesOf(slot: number): readonly FindingType[] {
    return findingTypeLists[this.findingCodes[slot]];
  }

  updatedAtOf(slot: number): number {
    return this.updatedAts[slot];
  }

  // ------------------------------------------------------------------ changes

  private canonicalOf<T extends object>(value: T, seen: Map<object, object>): T {
    const known = seen.get(value);
    if (known) return known as T;
    const signature = JSON.stringify(value);
    let found = this.canonical.get(signature);
    if (!found) {
      found = value;
      this.canonical.set(signature, value);
    }
    seen.set(value, found);
    return found as T;
  }

  /** Says when the objects about to be restored from a snapshot last changed. */
  seedUpdatedAt(updatedAt: Map<string, number>): void {
    this.seededUpdatedAt = updatedAt;
  }

  private ensureCapacity(slot: number) {
    if (slot < this.capacity) return;
    const capacity = capacityFor(this.capacity, slot);
    this.flags = grown(this.flags, capacity);
    this.kindCodes = grown(this.kindCodes, capacity);
    this.stateCodes = grown(this.stateCodes, capacity);
    this.findingCodes = grown(this.findingCodes, capacity);
    this.ownerCodes = grown(this.ownerCodes, capacity);
    this.boundaryCodes = grown(this.boundaryCodes, capacity);
    this.derivedAts = grown(this.derivedAts, capacity);
    this.updatedAts = grown(this.updatedAts, capacity);
    this.capacity = capacity;
  }

  /** Sets the state columns of a slot from a state derived at `now` from its applied record, keeping the counts. */
  private setState(slot: number, state: ReconcileState, now: number) {
    const code = STATE_CODE.get(state.state)!;
    if (this.flags[slot] & SHOWN) {
      this.stateCounts[this.stateCodes[slot]]--;
      this.stateCounts[code]++;
    }
    this.stateCodes[slot] = code;
    this.derivedAts[slot] = now;
    let flags = this.flags[slot] & ~(NOT_HANDLED | MESSAGE_IS_READY);
    if (state.reconcileNotHandled) flags |= NOT_HANDLED;
    if (state.message !== undefined && state.message === this.table.readyMessageAt(slot)) {
      flags |= MESSAGE_IS_READY;
      this.otherMessages.delete(slot);
    } else if (state.message !== undefined) {
      this.otherMessages.set(slot, state.message);
    } else {
      this.otherMessages.delete(slot);
    }
    this.flags[slot] = flags;
  }

  /** Whether a newly derived state differs from the one kept (in what the view keeps of it). */
  private stateDiffers(slot: number, state: ReconcileState): boolean {
    return (
      this.stateCodes[slot] !== STATE_CODE.get(state.state) ||
      this.stateMessageOf(slot) !== state.message ||
      ((this.flags[slot] & NOT_HANDLED) !== 0) !== (state.reconcileNotHandled === true)
    );
  }

  private show(slot: number, kind: FluxKind) {
    this.flags[slot] |= SHOWN;
    this.kindCodes[slot] = KIND_CODE.get(kind)!;
    this.kindCounts[this.kindCodes[slot]]++;
    this.stateCounts[this.stateCodes[slot]]++;
    this.shown++;
  }

  private hide(slot: number) {
    this.flags[slot] = 0;
    this.kindCounts[this.kindCodes[slot]]--;
    this.stateCounts[this.stateCodes[slot]]--;
    this.shown--;
    this.otherMessages.delete(slot);
    this.findingCodes[slot] = 0;
  }

  /**
   * Applies a full analysis of the cluster: adds, updates and removes objects. `changedKeys`: the objects whose
   * record changed since the last pass.
   */
  applyAnalysis(
    analysis: ClusterAnalysis,
    changedKeys: ReadonlySet<string>,
    now: number,
  ): ViewChanges {
    const changes: ViewChanges = {
      keys: new Set(),
      services: new Set(),
      needsAnalysis: false,
    };
    const table = this.table;
    // the analysis derived from the newest records: from now on they are what is served
    table.applyPending();
    const findingsByKey = new Map<string, Finding[]>();
    const seen = new Map<object, object>();
    const owners = new ValueList<Owner>();
    const boundaries = new ValueList<TenancyBoundary>();
    /** The service of each analysed slot, until the service index is rebuilt. */
    const services: Array<string | null> = [];
    const analysed = new Uint8Array(table.slotLimit);
    for (const [key, derived] of analysis.objects) {
      const slot = table.slotOf(key);
      if (slot === undefined || !table.isLive(slot)) continue;
      analysed[slot] = 1;
      this.ensureCapacity(slot);
      const owner = this.canonicalOf(derived.owner, seen);
      const boundary = this.canonicalOf(derived.boundary, seen);
      if (derived.findings.length > 0) findingsByKey.set(key, derived.findings);
      const findingCode = findingTypesCodeOf(derived.findings);
      const changedAt = this.seededUpdatedAt?.get(key) ?? now;
      const service = derived.service;
      services[slot] = service;
      const shown = (this.flags[slot] & SHOWN) !== 0;
      const before = shown ? this.serviceOf(slot) : null;
      const unchanged =
        shown &&
        !changedKeys.has(key) &&
        !this.stateDiffers(slot, derived.state) &&
        this.ownerOf(slot) === owner &&
        this.boundaryOf(slot) === boundary &&
        before === service &&
        this.findingCodes[slot] === findingCode;
      // the codes are the new analysis's, changed or not
      this.ownerCodes[slot] = owners.codeOf(owner);
      this.boundaryCodes[slot] = boundaries.codeOf(boundary);
      if (unchanged) continue;
      this.setState(slot, derived.state, now);
      this.findingCodes[slot] = findingCode;
      this.updatedAts[slot] = changedAt;
      if (!shown) this.show(slot, table.kindAt(slot));
      changes.keys.add(key);
      if (before !== null) changes.services.add(before);
      if (service !== null) changes.services.add(service);
    }
    const limit = Math.min(table.slotLimit, this.capacity);
    for (let slot = 0; slot < limit; slot++) {
      if (!(this.flags[slot] & SHOWN) || analysed[slot]) continue;
      const service = this.serviceOf(slot);
      changes.keys.add(table.keyOf(slot)!);
      if (service !== null) changes.services.add(service);
      this.hide(slot);
    }
    this.owners = owners.values;
    this.boundaries = boundaries.values;
    this.serviceIndex = ServiceIndex.of(limit, slot => services[slot] ?? null);
    // slots of deleted objects can be given to new ones now that the view shows them no more
    table.releaseDeleted(slot => slot < this.capacity && (this.flags[slot] & SHOWN) !== 0);
    // forget answers no object has any more
    const used = new Set<object>([...owners.values, ...boundaries.values]);
    for (const [signature, value] of this.canonical) {
      if (!used.has(value)) this.canonical.delete(signature);
    }
    table.compact();
    this.seededUpdatedAt = undefined;
    this.findings = analysis.findings;
    this.findingsByKey = findingsByKey;
    this.instances = analysis.instances;
    this.shards = analysis.shards;
    this.analysedAt = now;
    return changes;
  }

  /**
   * Re-derives the state of objects whose status alone changed (rules §2 depends on the record only). When a
   * reconcile request becomes unhandled, or handled, the cluster's findings change: that asks for an analysis.
   */
  applyStatus(keys: Iterable<string>, now: number): ViewChanges {
    const changes: ViewChanges = {
      keys: new Set(),
      services: new Set(),
      needsAnalysis: false,
    };
    for (const key of keys) {
      const slot = this.table.slotOf(key);
      if (slot === undefined) continue;
      this.table.applyPending([slot]);
      // new objects arrive with the next analysis, which a structural change has scheduled
      if (!this.isShown(slot)) continue;
      const record = this.recordOf(slot);
      const state = deriveReconcileState(record, now);
      const unhandled = reconcileNotHandledFinding(record, state, now) !== undefined;
      if (unhandled !== this.findingTypesOf(slot).includes('reconcile-not-handled')) {
        changes.needsAnalysis = true;
      }
      this.setState(slot, state, now);
      this.updatedAts[slot] = now;
      changes.keys.add(key);
      const service = this.serviceOf(slot);
      if (service !== null) changes.services.add(service);
    }
    return changes;
  }
}
