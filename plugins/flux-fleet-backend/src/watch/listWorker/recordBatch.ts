import {
  sharedReference,
  type FluxKind,
  type FluxObjectRecord,
  type RecordCondition,
  type RecordReference,
  type ValuePool,
} from '@flux-fleet/plugin-flux-fleet-common';

/**
 * Records of Flux objects as the list worker hands them to the main thread: every string once per batch, in a
 * table, and the records as numbers into it. Strings cannot be shared between threads, so the main thread makes
 * every string of a batch again whatever the format; this one makes each only once and pools it once (with
 * structured clones of whole records the main thread pooled every string of every record again: 6.4-9.1 µs an
 * object against 11-13 µs for parsing and normalising it there, a throwaway micro-benchmark on one cluster of
 * fleet M, 2026-12-07). What the main thread pools is exactly what `normalizeFluxObject` pools, so the records read
 * share memory as if they had been normalised there.
 */
export interface RecordBatch {
  /** Every distinct string of the batch. */
  readonly strings: string[];
  /**
   * The records, field after field in {@link RECORD_FIELDS} order: numbers, booleans and string indexes; a list as
   * its length (-1: none) and its entries. Not the cluster (the main thread has its own string for it) nor the kind
   * of a `dependsOn` entry (always the object's own).
   */
  readonly values: Array<number | boolean>;
  /** The label and annotation sets, each as string indexes key, value, key, value… */
  readonly sets: number[][];
  /** The source references: string indexes of kind, name and namespace (-1 when it has none). */
  readonly refs: number[];
  readonly count: number;
}

/** How a field travels. */
type FieldCodec =
  /** a string the normaliser pools (or undefined) */
  | 'pooled'
  /** a string it does not pool (or undefined) */
  | 'text'
  | 'number'
  | 'boolean'
  /** a label set, pooled whole */
  | 'labels'
  /** the recorded annotations, values pooled */
  | 'annotations'
  /** a shared source reference */
  | 'ref'
  /** `spec.dependsOn`: names and namespaces pooled */
  | 'refs'
  | 'condition'
  /** a list of texts */
  | 'texts'
  /** not sent: the main thread's own string */
  | 'cluster';

/**
 * Every field of a record and how it travels, in the order `normalizeFluxObject` builds a record (records built
 * field by field in the same order share one hidden class). `satisfies` makes a field added to
 * {@link FluxObjectRecord} a compile error here until it is given a codec.
 */
const RECORD_FIELDS = {
  key: 'text',
  cluster: 'cluster',
  namespace: 'pooled',
  kind: 'pooled',
  name: 'text',
  apiVersion: 'pooled',
  writtenApiVersion: 'pooled',
  generation: 'number',
  labels: 'labels',
  annotations: 'annotations',
  deletionTimestamp: 'text',
  suspend: 'boolean',
  serviceAccountName: 'pooled',
  interval: 'pooled',
  sourceRef: 'ref',
  chart: 'pooled',
  dependsOn: 'refs',
  url: 'pooled',
  remote: 'boolean',
  inventory: 'pooled',
  inventoryCount: 'number',
  conditionsError: 'text',
  ready: 'condition',
  stalled: 'condition',
  reconciling: 'condition',
  observedGeneration: 'number',
  lastHandledReconcileAt: 'pooled',
  revision: 'pooled',
  attemptedRevision: 'pooled',
  artifactHost: 'pooled',
  lastReconcileDurationMs: 'number',
  problems: 'texts',
} as const satisfies { readonly [K in keyof Required<FluxObjectRecord>]: FieldCodec };

/** For tests: the fields a batch carries. */
export const RECORD_FIELD_NAMES = Object.keys(RECORD_FIELDS) as Array<keyof FluxObjectRecord>;

const NONE = -1;

/** Collects records into a {@link RecordBatch} (the worker's side). */
export class RecordBatchWriter {
  private strings: string[] = [];
  private stringIndex = new Map<string, number>();
  private values: Array<number | boolean> = [];
  private sets: number[][] = [];
  private setIndex = new Map<object, number>();
  private refs: number[] = [];
  private refIndex = new Map<object, number>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(record: FluxObjectRecord): void {
    const v = this.values;
    v.push(this.text(record.key), this.text(record.namespace), this.text(record.kind));
    v.push(this.text(record.name), this.text(record.apiVersion));
    v.push(this.text(record.writtenApiVersion), this.number(record.generation));
    v.push(this.set(record.labels), this.set(record.annotations), this.text(record.deletionTimestamp));
    v.push(record.suspend, this.text(record.serviceAccountName), this.text(record.interval));
    v.push(this.ref(record.sourceRef), this.text(record.chart));
    this.list(record.dependsOn, ref => v.push(this.text(ref.name), this.text(ref.namespace)));
    v.push(this.text(record.url), record.remote, this.text(record.inventory), record.inventoryCount);
    v.push(this.text(record.conditionsError));
    this.condition(record.ready);
    this.condition(record.stalled);
    this.condition(record.reconciling);
    v.push(this.number(record.observedGeneration), this.text(record.lastHandledReconcileAt));
    v.push(this.text(record.revision), this.text(record.attemptedRevision), this.text(record.artifactHost));
    v.push(this.number(record.lastReconcileDurationMs));
    this.list(record.problems, problem => v.push(this.text(problem)));
    this.count++;
  }

  /** A list: its length (or {@link NONE}), then each entry as `write` puts it. */
  private list<T>(items: readonly T[] | undefined, write: (item: T) => void): void {
    if (items === undefined) {
      this.values.push(NONE);
      return;
    }
    this.values.push(items.length);
    for (const item of items) write(item);
  }

  /** The batch so far; the writer starts a new one. */
  take(): RecordBatch {
    const batch: RecordBatch = {
      strings: this.strings,
      values: this.values,
      sets: this.sets,
      refs: this.refs,
      count: this.count,
    };
    this.strings = [];
    this.stringIndex = new Map();
    this.values = [];
    this.sets = [];
    this.setIndex = new Map();
    this.refs = [];
    this.refIndex = new Map();
    this.count = 0;
    return batch;
  }

  private text(value: string | undefined): number {
    if (value === undefined) return NONE;
    let index = this.stringIndex.get(value);
    if (index === undefined) {
      index = this.strings.length;
      this.strings.push(value);
      this.stringIndex.set(value, index);
    }
    return index;
  }

  /** NaN for undefined: a batch's values are numbers and booleans only. */
  private number(value: number | undefined): number {
    return value === undefined ? NaN : value;
  }

  /** Label sets the worker's pool shares are sent once a batch. */
  private set(labels: Readonly<Record<string, string>>): number {
    let index = this.setIndex.get(labels);
    if (index === undefined) {
      const pairs: number[] = [];
      for (const key of Object.keys(labels)) pairs.push(this.text(key), this.text(labels[key]));
      index = this.sets.length;
      this.sets.push(pairs);
      this.setIndex.set(labels, index);
    }
    return index;
  }

  private ref(ref: RecordReference | undefined): number {
    if (ref === undefined) return NONE;
    let index = this.refIndex.get(ref);
    if (index === undefined) {
      index = this.refs.length / 3;
      this.refs.push(this.text(ref.kind), this.text(ref.name), this.text(ref.namespace));
      this.refIndex.set(ref, index);
    }
    return index;
  }

  private condition(condition: RecordCondition | undefined): void {
    if (condition === undefined) {
      this.values.push(NONE);
      return;
    }
    this.values.push(
      this.text(condition.status),
      this.text(condition.reason),
      this.text(condition.message),
      this.text(condition.lastTransitionTime),
      this.number(condition.observedGeneration),
    );
  }
}

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The records of a batch (the main thread's side), their strings pooled through `pool` as `normalizeFluxObject`
 * pools them: each distinct string and set of the batch once. `cluster` is the main thread's own string for the
 * cluster, which every record of the cluster shares.
 */
export function readRecordBatch(batch: RecordBatch, cluster: string, pool: ValuePool): FluxObjectRecord[] {
  const { values } = batch;
  // each string as pooled (the same copy) or as read; made on first use
  const raw = batch.strings;
  const pooledStrings: Array<string | undefined> = new Array(raw.length);
  const pooled = (index: number): string | undefined => {
    if (index === NONE) return undefined;
    let found = pooledStrings[index];
    if (found === undefined) {
      found = pool.intern(raw[index]);
      pooledStrings[index] = found;
    }
    return found;
  };
  const text = (index: number): string | undefined => (index === NONE ? undefined : raw[index]);
  const number = (value: number): number | undefined => (Number.isNaN(value) ? undefined : value);

  /** Reads the batch's sets, each once, its values read by `value` and the set made final by `finish`. */
  const setReader = (
    value: (index: number) => string,
    finish: (set: Record<string, string>) => Readonly<Record<string, string>>,
  ) => {
    const read: Array<Readonly<Record<string, string>> | undefined> = new Array(batch.sets.length);
    return (index: number) => {
      let found = read[index];
      if (found === undefined) {
        const pairs = batch.sets[index];
        if (pairs.length === 0) found = EMPTY;
        else {
          const set: Record<string, string> = {};
          for (let i = 0; i < pairs.length; i += 2) set[raw[pairs[i]]] = value(pairs[i + 1]);
          found = finish(set);
        }
        read[index] = found;
      }
      return found;
    };
  };
  // as the normaliser keeps them: a label set shared whole, the recorded annotations with their values pooled
  const labels = setReader(index => raw[index], set => pool.labels(set));
  const annotations = setReader(index => pooled(index)!, set => set);
  const refs: Array<RecordReference | undefined> = new Array(batch.refs.length / 3);
  const ref = (index: number): RecordReference | undefined => {
    if (index === NONE) return undefined;
    let found = refs[index];
    if (found === undefined) {
      const kind = raw[batch.refs[index * 3]];
      const name = raw[batch.refs[index * 3 + 1]];
      found = sharedReference(pool, kind, name, text(batch.refs[index * 3 + 2]));
      refs[index] = found;
    }
    return found;
  };

  let at = 0;
  const next = () => values[at++] as number;
  const condition = (): RecordCondition | undefined => {
    const status = next();
    if (status === NONE) return undefined;
    return {
      status: pooled(status)!,
      reason: pooled(next()),
      message: text(next()),
      lastTransitionTime: text(next()),
      observedGeneration: number(next()),
    };
  };
  /** A list the writer wrote with `list`, each entry read by `read`. */
  const list = <T>(read: () => T): readonly T[] | undefined => {
    const count = next();
    if (count === NONE) return undefined;
    const entries: T[] = [];
    for (let i = 0; i < count; i++) entries.push(read());
    // an array of exactly this length, as the normaliser keeps it
    return entries.slice();
  };
  // the kind of a dependency is always the object's own (RecordBuilder.dependsOn)
  const dependency = (kind: string): RecordReference => {
    const name = pooled(next())!;
    const namespace = pooled(next());
    return namespace === undefined ? { kind, name } : { kind, name, namespace };
  };

  const records: FluxObjectRecord[] = new Array(batch.count);
  for (let i = 0; i < batch.count; i++) {
    const key = text(next())!;
    const namespace = pooled(next())!;
    const kind = pooled(next()) as FluxKind;
    // one literal in the normaliser's field order: the same hidden class as records normalised on this thread
    records[i] = {
      key,
      cluster,
      namespace,
      kind,
      name: text(next())!,
      apiVersion: pooled(next())!,
      writtenApiVersion: pooled(next()),
      generation: number(next()),
      labels: labels(next()),
      annotations: annotations(next()),
      deletionTimestamp: text(next()),
      suspend: values[at++] as boolean,
      serviceAccountName: pooled(next()),
      interval: pooled(next()),
      sourceRef: ref(next()),
      chart: pooled(next()),
      dependsOn: list(() => dependency(kind)),
      url: pooled(next()),
      remote: values[at++] as boolean,
      inventory: pooled(next()),
      inventoryCount: next(),
      conditionsError: text(next()),
      ready: condition(),
      stalled: condition(),
      reconciling: condition(),
      observedGeneration: number(next()),
      lastHandledReconcileAt: pooled(next()),
      revision: pooled(next()),
      attemptedRevision: pooled(next()),
      artifactHost: pooled(next()),
      lastReconcileDurationMs: number(next()),
      problems: list(() => text(next())!),
    };
  }
  if (at !== values.length) {
    throw new Error(`a record batch has ${values.length - at} values left after its ${batch.count} records`);
  }
  return records;
}

