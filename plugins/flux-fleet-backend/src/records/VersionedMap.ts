/** One counter for every versioned map, so that no two maps, nor two states of one, share a version. */
let lastVersion = 0;

/**
 * A map that changes its `version` whenever its content changes, so that what was last sent of it is known by a
 * number instead of a copy of the map. The delta replication kept a copy of each supporting map of every cluster
 * it watches and walked it at every delta (`deltaSource.ts`).
 */
export class VersionedMap<K, V> extends Map<K, V> {
  private current = ++lastVersion;

  get version(): number {
    return this.current;
  }

  set(key: K, value: V): this {
    // also called by Map's constructor, before the field above is set: the field then gives the first version
    this.current = ++lastVersion;
    return super.set(key, value);
  }

  delete(key: K): boolean {
    const deleted = super.delete(key);
    if (deleted) this.current = ++lastVersion;
    return deleted;
  }

  clear(): void {
    if (this.size > 0) this.current = ++lastVersion;
    super.clear();
  }
}
