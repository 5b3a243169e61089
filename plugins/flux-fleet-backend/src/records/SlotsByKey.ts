import { textHash } from '@flux-fleet/plugin-flux-fleet-common';

/**
 * The slot of each key of a record table, in an open-addressing hash table of slot numbers (linear probing, and
 * deletion by moving later entries back, so no tombstones), reading keys from the table's own array of keys.
 *
 * Hand-rolled for memory: a `Map<string, number>` of one cluster's keys cost 43 bytes an entry (4.6 MB of the
 * index's heap at fleet M, 107,208 objects, by a heap snapshot); this costs 4 bytes a bucket, 8-16 an entry. A
 * lookup hashes the key's characters (V8's own string hash is not reachable from JavaScript), which is slower than
 * a Map's lookup but far from anything an index pass does per object.
 */
export class SlotsByKey {
  /** Slot + 1 of the entry in each bucket; 0: empty. Its length is a power of two. */
  private buckets = new Int32Array(16);
  private count = 0;

  /** @param keyOf - the key of a slot in use (the record table's array of keys). */
  constructor(private readonly keyOf: (slot: number) => string | undefined) {}

  get size(): number {
    return this.count;
  }

  get(key: string): number | undefined {
    const mask = this.buckets.length - 1;
    for (let i = textHash(key) & mask; ; i = (i + 1) & mask) {
      const entry = this.buckets[i];
      if (entry === 0) return undefined;
      if (this.keyOf(entry - 1) === key) return entry - 1;
    }
  }

  /** Files a slot under its key, which must not be filed yet and must be `keyOf(slot)` from now on. */
  add(key: string, slot: number): void {
    // at most half full: probes stay short
    if ((this.count + 1) * 2 > this.buckets.length) this.rehash(this.buckets.length * 2);
    this.place(textHash(key), slot);
    this.count++;
  }

  /** Removes a key (call while `keyOf` still gives it for its slot). */
  delete(key: string): boolean {
    const mask = this.buckets.length - 1;
    let i = textHash(key) & mask;
    for (; ; i = (i + 1) & mask) {
      const entry = this.buckets[i];
      if (entry === 0) return false;
      if (this.keyOf(entry - 1) === key) break;
    }
    // backward-shift deletion: move back each later entry of the run that the hole would cut off from its bucket
    let hole = i;
    for (let j = (i + 1) & mask; this.buckets[j] !== 0; j = (j + 1) & mask) {
      const home = textHash(this.keyOf(this.buckets[j] - 1)!) & mask;
      // the entry at j may fill the hole when its home is not within (hole, j], cyclically
      const reachable = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (!reachable) {
        this.buckets[hole] = this.buckets[j];
        hole = j;
      }
    }
    this.buckets[hole] = 0;
    this.count--;
    return true;
  }

  private place(hash: number, slot: number) {
    const mask = this.buckets.length - 1;
    let i = hash & mask;
    while (this.buckets[i] !== 0) i = (i + 1) & mask;
    this.buckets[i] = slot + 1;
  }

  private rehash(length: number) {
    const old = this.buckets;
    this.buckets = new Int32Array(length);
    for (const entry of old) {
      if (entry !== 0) this.place(textHash(this.keyOf(entry - 1)!), entry - 1);
    }
  }
}
