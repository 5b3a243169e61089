/**
 * The objects of one simulated cluster, stored compactly: each object is serialised once to its JSON text
 * (without `apiVersion` and `kind`, which depend on the version it is read at) and that text is reused by
 * every get, list and watch. One monotonic resourceVersion per cluster, and a bounded log of recent changes
 * from which watches resume; a watch that starts before the log answers 410 Gone.
 */
import { resourceKey, type ResourceType } from '../api/resourceTypes';
import { compareStrings } from '../ordering';

/** One stored object. Immutable: a change stores a new one. */
export interface StoredObject {
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly resourceVersion: number;
  /**
   * The object's JSON without `apiVersion` and `kind`: `{"metadata":...}`. Text, not a Buffer: a Buffer of its own
   * per object is an ArrayBuffer each, and V8's cost for every new ArrayBuffer (and every collection) grows with
   * how many are alive. At fleet L (about 1.5 million stored objects) a `randomBytes(20)` took 12 µs instead of
   * 2.6 µs, and the simulator's churn alone used 0.29 cores at rest; as text, stored objects cost V8 nothing of
   * that kind.
   */
  readonly body: string;
  /**
   * The length of the metadata's JSON in `body`, which starts with it (`{"metadata":` and then that much): a
   * metadata-only answer takes it as it is. At fleet L, parsing every body again for each metadata-only list was
   * 8 % of the simulator's time in a first sync (CPU profile, 2026-12-07). Absent when an edit may have changed it.
   */
  readonly metadataLength?: number;
}

/** What a stored body starts with: its metadata comes first, as kube-apiserver writes it. */
export const BODY_METADATA_START = '{"metadata":';

/** A change, as watches see it. */
export interface StoreEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: ResourceType;
  object: StoredObject;
  /**
   * The labels before a MODIFIED change: a watch with a selector turns label changes into ADDED/DELETED. Only
   * the labels are kept, so that the change log holds no superseded object bodies.
   */
  previousLabels?: Readonly<Record<string, string>>;
  /** A simulated controller wrote the object's status and nothing else (the churn). */
  statusOnly?: boolean;
}

/** The key of an object in its table: `namespace/name` sorts like etcd keys do. */
export function objectKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The objects of one resource type. */
export class ResourceTable {
  readonly objects = new Map<string, StoredObject>();
  private sortedKeys: string[] | undefined;

  constructor(readonly type: ResourceType) {}

  /** Keys in etcd order (namespace, then name). */
  keys(): string[] {
    if (!this.sortedKeys) {
      this.sortedKeys = [...this.objects.keys()].sort(compareStrings);
    }
    return this.sortedKeys;
  }

  set(key: string, object: StoredObject): void {
    if (!this.objects.has(key)) this.sortedKeys = undefined;
    this.objects.set(key, object);
  }

  delete(key: string): void {
    if (this.objects.delete(key)) this.sortedKeys = undefined;
  }
}

/** Parses a stored object back into a plain object (with `apiVersion` and `kind` when given). */
export function parseStored(
  object: StoredObject,
  apiVersion?: string,
  kind?: string,
): any {
  const parsed = JSON.parse(object.body);
  if (apiVersion === undefined) return parsed;
  return { apiVersion, kind, ...parsed };
}

/** The start of an object's JSON at a version, up to where its stored body goes on: `{"apiVersion":…,"kind":…`. */
export function objectJsonPrefix(apiVersion: string, kind: string): string {
  return `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(kind)}`;
}

/**
 * An object's JSON at a version after {@link objectJsonPrefix}: `,` and the stored body without its opening
 * brace, or the closing brace of an empty body.
 */
export function objectJsonRest(object: StoredObject): string {
  return object.body.length <= 2 ? '}' : `,${object.body.slice(1)}`;
}

/** Serialises an object for the wire at a version: `{"apiVersion":…,"kind":…,` + the stored body. */
export function objectJson(
  object: StoredObject,
  apiVersion: string,
  kind: string,
): string {
  return objectJsonPrefix(apiVersion, kind) + objectJsonRest(object);
}

/** The objects of one simulated cluster. */
export class ClusterStore {
  private rv = 0;
  private readonly tables = new Map<string, ResourceTable>();
  private readonly log: Array<StoreEvent | undefined>;
  private logStart = 0;
  private logLength = 0;
  /** Watches may resume from this resourceVersion or later; older ones get 410 Gone. */
  private compactedRv = 0;
  private loaded = false;
  private readonly listeners = new Set<(event: StoreEvent) => void>();

  constructor(readonly watchWindow: number) {
    this.log = new Array(Math.max(1, watchWindow));
  }

  /** The current resourceVersion of the cluster. */
  get resourceVersion(): number {
    return this.rv;
  }

  /** The oldest resourceVersion a watch may start from. */
  get oldestWatchableVersion(): number {
    return this.compactedRv;
  }

  table(type: ResourceType): ResourceTable {
    const key = resourceKey(type);
    let table = this.tables.get(key);
    if (!table) {
      table = new ResourceTable(type);
      this.tables.set(key, table);
    }
    return table;
  }

  get(
    type: ResourceType,
    namespace: string,
    name: string,
  ): StoredObject | undefined {
    return this.tables
      .get(resourceKey(type))
      ?.objects.get(objectKey(namespace, name));
  }

  /** Every table that holds objects. */
  allTables(): ResourceTable[] {
    return [...this.tables.values()];
  }

  /** How many objects the cluster holds, per kind. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const table of this.tables.values()) {
      if (table.objects.size > 0) counts[table.type.kind] = table.objects.size;
    }
    return counts;
  }

  private serialise(object: any, rv: number): StoredObject {
    const { apiVersion: _a, kind: _k, metadata: given, ...rest } = object;
    const metadata = { ...(given ?? {}), resourceVersion: String(rv) };
    return {
      namespace: metadata.namespace ?? '',
      name: metadata.name,
      labels: metadata.labels,
      resourceVersion: rv,
      // one stringify of the whole, not the metadata's text joined to the rest's: a joined string is flattened
      // (copied) the first time it is sent, which would put that copy in every object's first list
      body: JSON.stringify({ metadata, ...rest }),
      metadataLength: JSON.stringify(metadata).length,
    };
  }

  /**
   * Stores an object (created or replaced) under a new resourceVersion and tells watches. `object` is copied
   * into the buffer and not kept.
   */
  put(type: ResourceType, object: any, options: { statusOnly?: boolean } = {}): StoredObject {
    const table = this.table(type);
    const namespace = type.namespaced ? object.metadata?.namespace ?? '' : '';
    const key = objectKey(namespace, object.metadata.name);
    const previous = table.objects.get(key);
    const stored = this.serialise(object, ++this.rv);
    table.set(key, stored);
    this.record(
      previous
        ? {
            type: 'MODIFIED',
            resource: type,
            object: stored,
            previousLabels: previous.labels ?? {},
            ...(options.statusOnly && { statusOnly: true }),
          }
        : { type: 'ADDED', resource: type, object: stored },
    );
    return stored;
  }

  /** Removes an object; watches see it with a new resourceVersion. */
  remove(
    type: ResourceType,
    namespace: string,
    name: string,
  ): StoredObject | undefined {
    const table = this.table(type);
    const key = objectKey(namespace, name);
    const existing = table.objects.get(key);
    if (!existing) return undefined;
    table.delete(key);
    const parsed = JSON.parse(existing.body);
    const gone = this.serialise(parsed, ++this.rv);
    this.record({ type: 'DELETED', resource: type, object: gone });
    return gone;
  }

  /**
   * While the initial load lasts: edits an object's stored JSON text in place, keeping its resourceVersion (a
   * generator post-pass; at fleet M re-parsing and re-storing 30k Kustomizations took 5 s, a text edit 1 s).
   */
  editBeforeLoad(
    type: ResourceType,
    namespace: string,
    name: string,
    edit: (json: string) => string,
  ): void {
    if (this.loaded)
      throw new Error('editBeforeLoad is only for the initial load');
    const table = this.table(type);
    const key = objectKey(namespace, name);
    const old = table.objects.get(key);
    if (!old) return;
    const body = edit(old.body);
    const metadataEnd =
      old.metadataLength === undefined ? 0 : BODY_METADATA_START.length + old.metadataLength;
    table.set(key, {
      ...old,
      body,
      // the metadata's length still holds when the edit left the metadata as it was
      metadataLength:
        metadataEnd > 0 && body.startsWith(old.body.slice(0, metadataEnd)) ? old.metadataLength : undefined,
    });
  }

  /**
   * Ends the initial load: changes made so far are history no watch can replay (as after an etcd compaction),
   * and the change log starts here.
   */
  markLoaded(): void {
    this.compactedRv = this.rv;
    this.loaded = true;
    this.logStart = 0;
    this.logLength = 0;
  }

  private record(event: StoreEvent): void {
    if (this.loaded) {
      const capacity = this.log.length;
      if (this.logLength === capacity) {
        const dropped = this.log[this.logStart]!;
        this.compactedRv = dropped.object.resourceVersion;
        this.log[this.logStart] = event;
        this.logStart = (this.logStart + 1) % capacity;
      } else {
        this.log[(this.logStart + this.logLength) % capacity] = event;
        this.logLength++;
      }
    }
    for (const listener of this.listeners) listener(event);
  }

  /** Changes after a resourceVersion, oldest first; undefined when that version is older than the log. */
  changesSince(rv: number): StoreEvent[] | undefined {
    if (rv < this.compactedRv) return undefined;
    const out: StoreEvent[] = [];
    const capacity = this.log.length;
    for (let i = 0; i < this.logLength; i++) {
      const event = this.log[(this.logStart + i) % capacity]!;
      if (event.object.resourceVersion > rv) out.push(event);
    }
    return out;
  }

  /** Calls the listener for every later change; returns the unsubscribe function. */
  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
