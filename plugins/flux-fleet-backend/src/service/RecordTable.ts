import type { FluxObjectRecord } from '@flux-fleet/plugin-flux-fleet-common';

/**
 * The Flux objects of one cluster, each in a numbered slot. The store fills the slots; the view keeps what it
 * derives about each object in columns indexed by the same slot numbers, so an object costs no object of its
 * own in the view and no entry in secondary maps.
 *
 * Each slot holds the record the view has taken in (the *applied* record, which reads answer from) and, while
 * the index has not yet re-derived it, the newer record the cluster sent or its deletion (*pending*). So what is
 * served is always a record together with what was derived from it. A new object is applied at once: the view
 * shows nothing of it before its first analysis anyway.
 *
 * A deleted object keeps its slot (and key) until the view has taken the deletion in and releases the slot
 * ({@link RecordTable.releaseDeleted}): a slot is never reused while the view may hold answers about the object
 * that had it.
 */
export class RecordTable {
  private readonly slotByKey = new Map<string, number>();
  /** The key of each slot in use. */
  private readonly keys: Array<string | undefined> = [];
  /** The applied record of each slot; undefined for deleted and free slots. */
  private readonly records: Array<FluxObjectRecord | undefined> = [];
  /** Newer records (null: deleted) of slots that have an applied one, until applied. */
  private readonly pending = new Map<number, FluxObjectRecord | null>();
  private readonly freeSlots: number[] = [];
  private latestCount = 0;

  /** Objects as the cluster last sent them (pending changes included). */
  get size(): number {
    return this.latestCount;
  }

  /** One more than the highest slot ever used: slots are below it. */
  get slotLimit(): number {
    return this.keys.length;
  }

  /** The slot of a key still in use. */
  slotOf(key: string): number | undefined {
    return this.slotByKey.get(key);
  }

  /** The key of a slot in use. */
  keyOf(slot: number): string | undefined {
    return this.keys[slot];
  }

  /** Whether the slot has an applied record. */
  isLive(slot: number): boolean {
    return this.records[slot] !== undefined;
  }

  /** The applied record of a slot. */
  recordAt(slot: number): FluxObjectRecord | undefined {
    return this.records[slot];
  }

  /** The newest record of an object (pending or applied); undefined when it is deleted. */
  get(key: string): FluxObjectRecord | undefined {
    const slot = this.slotByKey.get(key);
    return slot === undefined ? undefined : this.latestAt(slot);
  }

  /** The newest record of a slot (pending or applied). */
  latestAt(slot: number): FluxObjectRecord | undefined {
    const pending = this.pending.get(slot);
    if (pending !== undefined) return pending ?? undefined;
    return this.records[slot];
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Stores a record (new, changed, or back after a deletion); returns its slot. */
  set(record: FluxObjectRecord): number {
    let slot = this.slotByKey.get(record.key);
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.keys.length;
      this.slotByKey.set(record.key, slot);
      this.keys[slot] = record.key;
    }
    if (this.latestAt(slot) === undefined) this.latestCount++;
    if (this.records[slot] === undefined) this.records[slot] = record;
    else this.pending.set(slot, record);
    return slot;
  }

  /** Deletes an object; its slot stays taken until released. Returns whether it existed. */
  delete(key: string): boolean {
    const slot = this.slotByKey.get(key);
    if (slot === undefined || this.latestAt(slot) === undefined) return false;
    this.pending.set(slot, null);
    this.latestCount--;
    return true;
  }

  /** Applies the pending changes of some slots, or of all. */
  applyPending(slots?: Iterable<number>): void {
    for (const slot of slots ?? [...this.pending.keys()]) {
      const pending = this.pending.get(slot);
      if (pending === undefined) continue;
      this.records[slot] = pending ?? undefined;
      this.pending.delete(slot);
    }
  }

  /** Frees the slots of deleted objects that the view no longer shows. */
  releaseDeleted(isShown: (slot: number) => boolean): void {
    for (let slot = 0; slot < this.keys.length; slot++) {
      const key = this.keys[slot];
      if (key === undefined || this.latestAt(slot) !== undefined || isShown(slot)) continue;
      this.pending.delete(slot);
      this.records[slot] = undefined;
      this.slotByKey.delete(key);
      this.keys[slot] = undefined;
      this.freeSlots.push(slot);
    }
  }

  /** The newest records of the objects that exist, in slot order. */
  *values(): IterableIterator<FluxObjectRecord> {
    for (let slot = 0; slot < this.keys.length; slot++) {
      const record = this.latestAt(slot);
      if (record !== undefined) yield record;
    }
  }
}
