import type { CapacityRecord, FluxKind, FluxObjectRecord } from '@flux-fleet/plugin-flux-fleet-common';
import { capacityFor, grown, INITIAL_CAPACITY } from './columns';
import { PackedRecords } from './PackedRecords';
import { SlotsByKey } from './SlotsByKey';

/**
 * The Flux objects of one cluster, each in a numbered slot. The store fills the slots; the view keeps what it
 * derives about each object in columns indexed by the same slot numbers, so an object costs no object of its
 * own in the view and no entry in secondary maps.
 *
 * Each slot holds the record the view has taken in (the *applied* record, which reads answer from) and, while
 * the index has not yet re-derived it, the newer record the cluster sent or its deletion (*pending*). So what is
 * served is always a record together with what was derived from it. A new object is applied at once: the view
 * shows nothing of it before its first analysis anyway. Applied records are packed in columns
 * ({@link PackedRecords}) and built back when read; pending ones are kept as they came, briefly.
 *
 * A deleted object keeps its slot (and key) until the view has taken the deletion in and releases the slot
 * ({@link RecordTable.releaseDeleted}): a slot is never reused while the view may hold answers about the object
 * that had it.
 */
export class RecordTable {
  /** The key of each slot in use. */
  private readonly keys: Array<string | undefined> = [];
  private readonly slotByKey = new SlotsByKey(slot => this.keys[slot]);
  /** The applied record of each slot; none for deleted and free slots. */
  private readonly records = new PackedRecords();
  /** Newer records (null: deleted) of slots that have an applied one, until applied. */
  private readonly pending = new Map<number, FluxObjectRecord | null>();
  private readonly freeSlots: number[] = [];
  /** Bumped (from one counter) whenever a slot's applied record is written: see {@link revisionAt}. */
  private revisions = new Uint32Array(INITIAL_CAPACITY);
  private revisionCount = 0;
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

  /**
   * The table's own string for a key in use, else the key itself: a map keyed by objects' keys (their events)
   * holds this one, not a second equal string (about 80 bytes each).
   */
  sharedKey(key: string): string {
    const slot = this.slotByKey.get(key);
    return slot === undefined ? key : this.keys[slot]!;
  }

  /** The key of a slot in use. */
  keyOf(slot: number): string | undefined {
    return this.keys[slot];
  }

  /** Whether the slot has an applied record. */
  isLive(slot: number): boolean {
    return this.records.has(slot);
  }

  /** The applied record of a slot, built from its columns. */
  recordAt(slot: number): FluxObjectRecord | undefined {
    const key = this.keys[slot];
    return key === undefined ? undefined : this.records.read(slot, key);
  }

  /** What capacity reads of the applied record of a live slot, without building the record. */
  capacityRecordAt(slot: number): CapacityRecord {
    return this.records.capacityRecordAt(slot);
  }

  /** The Ready condition's message of the applied record of a live slot. */
  readyMessageAt(slot: number): string | undefined {
    return this.records.readyMessageAt(slot, this.keys[slot]!);
  }

  /** The kind of the object in a slot in use (an object's kind never changes). */
  kindAt(slot: number): FluxKind {
    const pending = this.pending.get(slot);
    return pending ? pending.kind : this.records.kindAt(slot);
  }

  /** The name of the object in a slot in use, read from its key. */
  nameAt(slot: number): string {
    const key = this.keys[slot]!;
    return key.slice(key.lastIndexOf('/') + 1);
  }

  /** The labels of the applied record of a live slot. */
  labelsAt(slot: number): Readonly<Record<string, string>> {
    return this.records.labelsAt(slot);
  }

  /**
   * What the labels of a live slot's inventory come from (rules §6), without building its record: its inventory,
   * namespace (against which the inventory is packed), and whether it applies to another cluster.
   */
  inventoryOf(slot: number): { inventory?: string; namespace: string; remote: boolean } {
    return {
      inventory: this.records.inventoryAt(slot),
      namespace: this.records.namespaceAt(slot),
      remote: this.records.remoteAt(slot),
    };
  }

  /** The source URL of an object (rules: `FleetObject.sourceUrl`), without building its record. */
  urlOf(key: string): string | undefined {
    const slot = this.slotByKey.get(key);
    if (slot === undefined) return undefined;
    const pending = this.pending.get(slot);
    if (pending !== undefined) return pending?.url;
    return this.records.urlAt(slot);
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
    return this.recordAt(slot);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Stores a record (new, changed, or back after a deletion); returns its slot. */
  set(record: FluxObjectRecord): number {
    let slot = this.slotByKey.get(record.key);
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.keys.length;
      this.keys[slot] = record.key;
      this.slotByKey.add(record.key, slot);
    }
    if (!this.existsAt(slot)) this.latestCount++;
    if (!this.records.has(slot)) this.writeApplied(slot, record);
    else this.pending.set(slot, record);
    return slot;
  }

  /** Deletes an object; its slot stays taken until released. Returns whether it existed. */
  delete(key: string): boolean {
    const slot = this.slotByKey.get(key);
    if (slot === undefined || !this.existsAt(slot)) return false;
    this.pending.set(slot, null);
    this.latestCount--;
    return true;
  }

  /** Applies the pending changes of some slots, or of all. */
  applyPending(slots?: Iterable<number>): void {
    for (const slot of slots ?? [...this.pending.keys()]) {
      const pending = this.pending.get(slot);
      if (pending === undefined) continue;
      if (pending) this.writeApplied(slot, pending);
      else this.records.clear(slot);
      this.pending.delete(slot);
    }
  }

  /** Frees the slots of deleted objects that the view no longer shows. */
  releaseDeleted(isShown: (slot: number) => boolean): void {
    for (let slot = 0; slot < this.keys.length; slot++) {
      const key = this.keys[slot];
      if (key === undefined || this.existsAt(slot) || isShown(slot)) continue;
      this.pending.delete(slot);
      this.records.clear(slot);
      this.slotByKey.delete(key);
      this.keys[slot] = undefined;
      this.freeSlots.push(slot);
    }
  }

  /** Changes whenever the applied record of the slot is written: a cache of what was built from it checks it. */
  revisionAt(slot: number): number {
    return slot < this.revisions.length ? this.revisions[slot] : 0;
  }

  private writeApplied(slot: number, record: FluxObjectRecord) {
    this.records.write(slot, record);
    if (slot >= this.revisions.length) {
      this.revisions = grown(this.revisions, capacityFor(this.revisions.length, slot));
    }
    this.revisions[slot] = ++this.revisionCount;
  }

  /** Whether the object of a slot exists, as the cluster last said (pending changes included). */
  private existsAt(slot: number): boolean {
    const pending = this.pending.get(slot);
    return pending !== undefined ? pending !== null : this.records.has(slot);
  }

  /** Drops what the packed columns no longer need (see {@link PackedRecords.compactCodes}). */
  compact(): void {
    this.records.compactCodes(this.keys.length);
  }

  /** The slots of the objects that exist (pending changes included), in slot order. */
  *existingSlots(): IterableIterator<number> {
    for (let slot = 0; slot < this.keys.length; slot++) {
      if (this.keys[slot] !== undefined && this.existsAt(slot)) yield slot;
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
