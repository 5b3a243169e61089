import type { StoredEvent } from './fluxEvents';
import { sameValue } from './recordChange';

/**
 * The recent events of one cluster's Flux objects: at most `perObject` per object, newest first, and at most
 * `maxTotal` in all, the oldest going first. Read as a map of object key → events.
 */
export class RecentEvents implements Iterable<[string, StoredEvent[]]> {
  private readonly byObject = new Map<string, StoredEvent[]>();
  /** Event id → object key, oldest first. */
  private readonly order = new Map<string, string>();

  /**
   * @param sharedKey - the string the caller already holds for an object key (events are keyed by strings read
   *   from each event, snapshot or delta: equal to the records' keys, but 80 bytes more each when not shared).
   */
  constructor(
    private readonly perObject: number,
    private readonly maxTotal: number,
    private readonly sharedKey: (objectKey: string) => string = key => key,
  ) {}

  get(objectKey: string): StoredEvent[] | undefined {
    return this.byObject.get(objectKey);
  }

  [Symbol.iterator](): IterableIterator<[string, StoredEvent[]]> {
    return this.byObject.entries();
  }

  /** Adds (or replaces, by id) an event of an object, dropping what falls out of the bounds. */
  add(eventObjectKey: string, event: StoredEvent): void {
    const objectKey = this.sharedKey(eventObjectKey);
    const list = (this.byObject.get(objectKey) ?? []).filter(e => e.id !== event.id);
    list.push(event);
    list.sort((a, b) => b.at - a.at);
    for (const dropped of list.splice(this.perObject)) this.order.delete(dropped.id);
    // a copy of exactly its length: the list grown by push() keeps room for 17 events (152 bytes for one)
    this.byObject.set(objectKey, list.slice());
    this.order.delete(event.id);
    if (list.includes(event)) this.order.set(event.id, objectKey);
    while (this.order.size > this.maxTotal) {
      const [oldestId, oldestKey] = this.order.entries().next().value!;
      this.order.delete(oldestId);
      const remaining = (this.byObject.get(oldestKey) ?? []).filter(e => e.id !== oldestId);
      if (remaining.length) this.byObject.set(oldestKey, remaining);
      else this.byObject.delete(oldestKey);
    }
  }

  /**
   * Files an object's events under the caller's string for its key (see `sharedKey`): for events that came
   * before their object was listed.
   */
  shareKey(objectKey: string): void {
    const list = this.byObject.get(objectKey);
    if (!list) return;
    // a Map keeps the first key it was given for equal ones: deleted and set again, it holds this one
    this.byObject.delete(objectKey);
    this.byObject.set(objectKey, list);
    for (const e of list) this.order.set(e.id, objectKey);
  }

  /** Forgets an object's events. */
  remove(objectKey: string): void {
    for (const event of this.byObject.get(objectKey) ?? []) this.order.delete(event.id);
    this.byObject.delete(objectKey);
  }

  /** Sets an object's events as another replica holds them (none: forgotten). Returns whether they changed. */
  set(eventsObjectKey: string, list: StoredEvent[]): boolean {
    const objectKey = this.sharedKey(eventsObjectKey);
    if (sameValue(this.byObject.get(objectKey) ?? [], list)) return false;
    this.remove(objectKey);
    if (list.length) {
      this.byObject.set(objectKey, list);
      for (const e of list) this.order.set(e.id, objectKey);
    }
    return true;
  }

  /** Replaces every object's events (a snapshot); returns the keys of the objects whose events changed. */
  replaceAll(entries: Iterable<[string, StoredEvent[]]>): string[] {
    const incoming = new Map<string, StoredEvent[]>();
    for (const [key, list] of entries) incoming.set(this.sharedKey(key), list);
    const changed = [...incoming.keys()].filter(key => !sameValue(this.byObject.get(key), incoming.get(key)));
    this.byObject.clear();
    this.order.clear();
    for (const [key, list] of incoming) {
      this.byObject.set(key, list);
      for (const e of list) this.order.set(e.id, key);
    }
    return changed;
  }
}
