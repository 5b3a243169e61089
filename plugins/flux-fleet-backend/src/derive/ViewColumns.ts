import {
  CapacityRecord,
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
  ReconcileState,
  ReconcileStateName,
  ShardSummary,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from './IndexedObject';
import type { RecordTable } from '../records/RecordTable';
import { ServiceIndex } from './ServiceIndex';
import { ValueSlots } from './ValueSlots';
import { indexedObjectAt, ObjectColumns } from './indexedObjectAt';
import { capacityFor, CodeColumn, grown, INITIAL_CAPACITY } from '../records/columns';
import {
  boundaryFilter,
  decide,
  findingTypeLists,
  KIND_CODE,
  maskOf,
  MESSAGE_IS_READY,
  NOT_HANDLED,
  ownerFilter,
  SHOWN,
  STATE_CODE,
} from './viewCodes';

/**
 * The columns of a cluster's derived view, and every read of them: for each object of its store, in columns indexed by the object's slot, the
 * state name and message, owner, boundary, service and finding types (as numbers into lists of the distinct
 * values), when it last changed and when its state was derived; the counts per kind and state, the objects per
 * service, and the cluster's findings, instances and shards from its last analysis. An object costs the view
 * about 40 bytes; {@link ViewColumns.object} makes an {@link IndexedObject} handle when one is asked for.
 */
export class ViewColumns implements ObjectColumns {
  findings: Finding[] = [];
  /** Findings about each object (only objects that have some). */
  findingsByKey = new Map<string, Finding[]>();
  instances: InstanceSummary[] = [];
  shards: ShardSummary[] = [];
  analysedAt?: number;
  protected capacity = INITIAL_CAPACITY;
  protected flags = new Uint8Array(INITIAL_CAPACITY);
  protected kindCodes = new Uint8Array(INITIAL_CAPACITY);
  protected stateCodes = new Uint8Array(INITIAL_CAPACITY);
  protected findingCodes = new Uint16Array(INITIAL_CAPACITY);
  protected ownerCodes: CodeColumn = new Uint16Array(INITIAL_CAPACITY);
  protected boundaryCodes: CodeColumn = new Uint16Array(INITIAL_CAPACITY);
  protected derivedAts = new Float64Array(INITIAL_CAPACITY);
  protected updatedAts = new Float64Array(INITIAL_CAPACITY);
  /** Bumped (from one counter of the view) whenever a slot's state is derived again: see {@link revisionOf}. */
  protected revisions = new Uint32Array(INITIAL_CAPACITY);
  private revisionCount = 0;
  /** Bumped by each analysis (it replaces the owners, boundaries, services and findings of every object). */
  protected analysisCount = 0;
  /** The owners and boundaries of the last analysis, by code. */
  protected owners: Owner[] = [];
  protected boundaries: TenancyBoundary[] = [];
  /** State messages that are not the Ready condition's, by slot. */
  protected readonly otherMessages = new Map<number, string>();
  protected shown = 0;
  private membershipCount = 0;
  private readonly kindCounts = new Int32Array(FLUX_KINDS.length);
  private readonly stateCounts = new Int32Array(RECONCILE_STATES.length);
  /** The shown slots by kind and by state: where a kind or state filter starts. */
  private readonly kindSlots = new ValueSlots(FLUX_KINDS.length);
  private readonly stateSlots = new ValueSlots(RECONCILE_STATES.length);
  protected serviceIndex = ServiceIndex.empty();

  constructor(
    readonly cluster: string,
    /** The cluster store's records, whose slots the columns follow. */
    readonly table: RecordTable,
  ) {}

  /** Objects in the view (as of the last analysis). */
  get size(): number {
    return this.shown;
  }

  /**
   * Bumped whenever an object comes into the view or leaves it (not when one changes): what depends only on which
   * keys are shown (their order) is valid while it stays the same.
   */
  get membership(): number {
    return this.membershipCount;
  }

  /** Whether the view holds answers about the object of a slot (its slot may not be given to another yet). */
  holds(slot: number): boolean {
    return slot < this.capacity && (this.flags[slot] & SHOWN) !== 0;
  }

  /** Whether the slot is in the view and its object still in the store (so it can be shown). */
  isShown(slot: number): boolean {
    return slot < this.capacity && (this.flags[slot] & SHOWN) !== 0 && this.table.isLive(slot);
  }

  /** A handle on the object in a slot, when it is shown. */
  object(slot: number): IndexedObject | undefined {
    return this.isShown(slot) ? indexedObjectAt(this, slot) : undefined;
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
    const { test, kinds, states } = this.filtersOf(query);
    const visitMatch = (slot: number) => {
      if (test(slot)) visit(slot);
    };
    if (query.service?.length) {
      // a service filter starts from the services' objects
      for (const service of new Set(query.service)) this.serviceIndex.forEach(service, visitMatch);
      return;
    }
    // a kind or state filter starts from the smaller of its lists of slots; the other filters are tested on those
    const byKind = kinds && this.codesOf(kinds, this.kindSlots);
    const byState = states && this.codesOf(states, this.stateSlots);
    const start =
      byKind && (!byState || byKind.size <= byState.size) ? byKind : byState;
    if (start) {
      for (const code of start.codes) start.slots.forEach(code, visitMatch);
      return;
    }
    const limit = Math.min(this.table.slotLimit, this.capacity);
    for (let slot = 0; slot < limit; slot++) visitMatch(slot);
  }

  /**
   * Whether the object of one slot is shown and passes the filters of a query the columns answer (all but the
   * free text): what {@link forEachMatch} visits, asked of one slot.
   */
  matchTest(query: ObjectQuery): (slot: number) => boolean {
    const { test } = this.filtersOf(query);
    if (!query.service?.length) return test;
    const services = new Set(query.service);
    return slot => {
      const service = this.serviceIndex.serviceOf(slot);
      return service !== null && services.has(service) && test(slot);
    };
  }

  private filtersOf(query: ObjectQuery) {
    const kinds = maskOf(FLUX_KINDS, query.kind);
    const states = maskOf(RECONCILE_STATES, query.state);
    const owners = decide(this.owners, ownerFilter(query));
    const boundaries = decide(this.boundaries, boundaryFilter(query));
    const findings = query.finding?.length
      ? decide(findingTypeLists, list => list.some(f => query.finding!.includes(f)))
      : undefined;
    const test = (slot: number) => {
      if (!this.isShown(slot)) return false;
      if (kinds && !kinds[this.kindCodes[slot]]) return false;
      if (states && !states[this.stateCodes[slot]]) return false;
      if (owners && !owners[this.ownerCodes[slot]]) return false;
      if (boundaries && !boundaries[this.boundaryCodes[slot]]) return false;
      if (findings && !findings[this.findingCodes[slot]]) return false;
      return true;
    };
    return { test, kinds, states };
  }

  /**
   * The view's revision now: the highest {@link revisionOf} of any slot. With {@link forEachRevisedSince}, what
   * a cache of answers about many slots keeps to learn later which of them changed.
   */
  get revision(): number {
    return this.revisionCount;
  }

  /** Calls `visit` with each slot whose columns changed after the view's {@link revision} was `revision`. */
  forEachRevisedSince(revision: number, visit: (slot: number) => void): void {
    const revisions = this.revisions;
    const limit = Math.min(this.table.slotLimit, this.capacity);
    for (let slot = 0; slot < limit; slot++) {
      if (revisions[slot] > revision) visit(slot);
    }
  }

  private codesOf(mask: Uint8Array, slots: ValueSlots) {
    const codes: number[] = [];
    let size = 0;
    mask.forEach((allowed, code) => {
      if (!allowed) return;
      codes.push(code);
      size += slots.size(code);
    });
    return { codes, size, slots };
  }

  /**
   * How many shown objects have each pair of boundary and owner that occurs: what per-tenant and per-shard
   * summaries need, without a step per object for them.
   */
  countsByBoundaryAndOwner(): ReadonlyArray<{ boundary: TenancyBoundary; owner: Owner; count: number }> {
    // only an analysis changes which objects are shown and their owners and boundaries, so they are counted once
    // per analysis: at fleet L this count was 42 % of the fleet summary's CPU under load (profile of 2026-12-05)
    if (this.boundaryOwnerCounts?.analysis !== this.analysisCount) {
      this.boundaryOwnerCounts = { analysis: this.analysisCount, counts: this.countBoundariesAndOwners() };
    }
    return this.boundaryOwnerCounts.counts;
  }

  private boundaryOwnerCounts?: {
    analysis: number;
    counts: ReadonlyArray<{ boundary: TenancyBoundary; owner: Owner; count: number }>;
  };

  private countBoundariesAndOwners(): Array<{ boundary: TenancyBoundary; owner: Owner; count: number }> {
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

  nameAt(slot: number): string {
    return this.table.nameAt(slot);
  }

  recordOf(slot: number): FluxObjectRecord {
    return this.table.recordAt(slot)!;
  }

  /** What capacity reads of a shown object's record (the fields of {@link recordOf}'s), without building it. */
  capacityRecordOf(slot: number): CapacityRecord {
    return this.table.capacityRecordAt(slot);
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

  /**
   * What a cache of a shown slot's answer checks: every column of a slot changes only together with its state,
   * which bumps this. Owner, boundary, service and findings change only by an analysis, which sets the state of
   * every slot it changes any of them for (`ClusterView.applyAnalysis`), so an analysis that changed nothing of a
   * slot leaves its revision, and its cached answers, as they were.
   */
  revisionOf(slot: number): number {
    return this.revisions[slot];
  }

  /** The number of analyses applied so far. */
  get analysis(): number {
    return this.analysisCount;
  }

  /** The state of a slot as its position in `RECONCILE_STATES`: what a sort reads without a string. */
  stateCodeOf(slot: number): number {
    return this.stateCodes[slot];
  }

  /** The kind of a slot as its position in `FLUX_KINDS`. */
  kindCodeOf(slot: number): number {
    return this.kindCodes[slot];
  }

  /** The boundary of a slot as its position in {@link ViewColumns.boundaryList}. */
  boundaryCodeOf(slot: number): number {
    return this.boundaryCodes[slot];
  }

  /** The distinct boundaries of the last analysis, by code: a filter decides each once. */
  boundaryList(): readonly TenancyBoundary[] {
    return this.boundaries;
  }

  // ------------------------------------------------------------------ writing columns, for the passes

  protected ensureCapacity(slot: number) {
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
    this.revisions = grown(this.revisions, capacity);
    this.capacity = capacity;
  }

  /** Sets the state columns of a slot from a state derived at `now` from its applied record, keeping the counts. */
  protected setState(slot: number, state: ReconcileState, now: number) {
    const code = STATE_CODE.get(state.state)!;
    if (this.flags[slot] & SHOWN) {
      this.stateCounts[this.stateCodes[slot]]--;
      this.stateCounts[code]++;
      this.stateSlots.move(slot, this.stateCodes[slot], code);
    }
    this.stateCodes[slot] = code;
    this.derivedAts[slot] = now;
    this.revisions[slot] = ++this.revisionCount;
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
  protected stateDiffers(slot: number, state: ReconcileState): boolean {
    return (
      this.stateCodes[slot] !== STATE_CODE.get(state.state) ||
      this.stateMessageOf(slot) !== state.message ||
      ((this.flags[slot] & NOT_HANDLED) !== 0) !== (state.reconcileNotHandled === true)
    );
  }

  protected show(slot: number, kind: FluxKind) {
    this.flags[slot] |= SHOWN;
    this.kindCodes[slot] = KIND_CODE.get(kind)!;
    this.kindCounts[this.kindCodes[slot]]++;
    this.stateCounts[this.stateCodes[slot]]++;
    this.kindSlots.add(slot, this.kindCodes[slot]);
    this.stateSlots.add(slot, this.stateCodes[slot]);
    this.shown++;
    this.membershipCount++;
  }

  protected hide(slot: number) {
    this.kindSlots.remove(slot, this.kindCodes[slot]);
    this.stateSlots.remove(slot, this.stateCodes[slot]);
    this.flags[slot] = 0;
    this.kindCounts[this.kindCodes[slot]]--;
    this.stateCounts[this.stateCodes[slot]]--;
    this.shown--;
    this.membershipCount++;
    this.otherMessages.delete(slot);
    this.findingCodes[slot] = 0;
  }
}
