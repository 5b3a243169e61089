import {
  CapacityRecord,
  FLUX_KINDS,
  FluxKind,
  FluxObjectRecord,
  RecordCondition,
  RecordReference,
} from '@flux-fleet/plugin-flux-fleet-common';
import { capacityFor, CodeColumn, grown, INITIAL_CAPACITY, WholeColumn, withCode, withWhole } from './columns';
import { fillTemplate, messageTemplate } from './messageTemplate';
import { packTime, unpackTime } from './packedTime';
import { ValueCodes } from './ValueCodes';

/** The fields most records do not have, kept in one object per slot that has any. */
interface RecordExtras {
  /** When there are any (most objects have none of the annotations a record keeps). */
  annotations?: Readonly<Record<string, string>>;
  /** Sources only. */
  url?: string;
  deletionTimestamp?: string;
  chart?: string;
  dependsOn?: readonly RecordReference[];
  conditionsError?: string;
  stalled?: RecordCondition;
  reconciling?: RecordCondition;
  lastHandledReconcileAt?: string;
  /** When it is neither absent nor the revision. */
  attemptedRevision?: string;
  /** The Ready condition's status when it is not True, False or Unknown. */
  readyStatus?: string;
  /** The Ready condition's time when it is not in the form `2026-07-14T09:13:10Z`. */
  readyTime?: string;
  /** Whole numbers too large for their column. */
  generation?: number;
  observedGeneration?: number;
  readyObservedGeneration?: number;
  lastReconcileDurationMs?: number;
  inventoryCount?: number;
  problems?: readonly string[];
  /** When it was last written at another version than the one read (rules §10). */
  writtenApiVersion?: string;
}

/** Values of a column of codes beyond which unused ones are dropped. */
const MAX_CODES = 4096;

const KIND_CODE = new Map<string, number>(FLUX_KINDS.map((k, i) => [k, i]));
const READY_STATUSES = [undefined, 'True', 'False', 'Unknown'] as const;

const SUSPEND = 1;
const REMOTE = 2;
const HAS_READY = 4;
const ATTEMPTED_IS_REVISION = 8;
/** The slot holds a record. */
const PRESENT = 16;

/** The annotations of a record that has none the record keeps. */
const NO_ANNOTATIONS: Readonly<Record<string, string>> = Object.freeze({});

/** A whole number column's "absent", and "too large: in the extras". */
const ABSENT = -1;
const IN_EXTRAS = -2;
const MAX_INT32 = 2 ** 31 - 1;

/**
 * The records of one cluster's Flux objects packed in columns by slot: small numbers for kinds, flags, generations
 * and times, codes for the few distinct values of namespaces, API versions, intervals, service accounts,
 * artifact hosts, condition reasons and Ready message templates (the message without the object's revision, name
 * and namespace), shared references for labels, source references, inventories, other messages and revisions
 * (pooled by the normaliser), and the rare fields (annotations, URLs…) in one object per slot that
 * has any. Codes and generations take 16 bits a slot until one needs more ({@link withCode}). The key is the
 * caller's and the name is read from it. A record costs about 80 bytes here instead of about 400 as an object with
 * its Ready condition; {@link PackedRecords.read} builds the record back, equal to the
 * one written.
 */
export class PackedRecords {
  private capacity = INITIAL_CAPACITY;
  private kinds = new Uint8Array(INITIAL_CAPACITY);
  private flags = new Uint8Array(INITIAL_CAPACITY);
  private readyStatuses = new Uint8Array(INITIAL_CAPACITY);
  private generations: WholeColumn = new Int16Array(INITIAL_CAPACITY);
  private observedGenerations: WholeColumn = new Int16Array(INITIAL_CAPACITY);
  private readyObservedGenerations: WholeColumn = new Int16Array(INITIAL_CAPACITY);
  private reconcileDurations = new Int32Array(INITIAL_CAPACITY);
  private readyTimes = new Uint32Array(INITIAL_CAPACITY);
  /** Inventory entries, up to 65,534 (more: in the extras). */
  private inventoryCounts = new Uint16Array(INITIAL_CAPACITY);
  private namespaceCodes: CodeColumn = new Uint16Array(INITIAL_CAPACITY);
  private apiVersionCodes: CodeColumn = new Uint16Array(INITIAL_CAPACITY);
  private intervalCodes: CodeColumn = new Uint16Array(INITIAL_CAPACITY);
  private serviceAccountCodes: CodeColumn = new Uint16Array(INITIAL_CAPACITY);
  private artifactHostCodes: CodeColumn = new Uint16Array(INITIAL_CAPACITY);
  private readyReasonCodes: CodeColumn = new Uint16Array(INITIAL_CAPACITY);
  /** Ready messages with the record's revision, name and namespace cut out ({@link messageTemplate}). */
  private readyTemplateCodes: CodeColumn = new Uint16Array(INITIAL_CAPACITY);
  private readonly namespaces = new ValueCodes();
  private readonly apiVersions = new ValueCodes();
  private readonly intervals = new ValueCodes();
  private readonly serviceAccounts = new ValueCodes();
  private readonly artifactHosts = new ValueCodes();
  private readonly readyReasons = new ValueCodes();
  private readonly readyTemplates = new ValueCodes();
  private readonly labels: Array<Readonly<Record<string, string>> | undefined> = [];
  private readonly sourceRefs: Array<RecordReference | undefined> = [];
  private readonly inventories: Array<string | undefined> = [];
  private readonly readyMessages: Array<string | undefined> = [];
  private readonly revisions: Array<string | undefined> = [];
  private readonly extras: Array<RecordExtras | undefined> = [];
  /** The cluster of every record (one per table). */
  private cluster = '';

  /** Whether a slot holds a record. */
  has(slot: number): boolean {
    return slot < this.capacity && (this.flags[slot] & PRESENT) !== 0;
  }

  /** Packs a record into a slot. */
  write(slot: number, record: FluxObjectRecord): void {
    this.ensureCapacity(slot);
    this.cluster = record.cluster;
    let extras: RecordExtras | undefined;
    const extra = (): RecordExtras => {
      extras ??= {};
      return extras;
    };
    const whole = (value: number | undefined, field: keyof RecordExtras): number => {
      if (value === undefined) return ABSENT;
      if (value <= MAX_INT32) return value;
      (extra() as Record<string, number>)[field] = value;
      return IN_EXTRAS;
    };

    this.kinds[slot] = KIND_CODE.get(record.kind)!;
    const ready = record.ready;
    let flags = PRESENT;
    if (record.suspend) flags |= SUSPEND;
    if (record.remote) flags |= REMOTE;
    if (ready) flags |= HAS_READY;
    if (record.attemptedRevision !== undefined) {
      if (record.attemptedRevision === record.revision) flags |= ATTEMPTED_IS_REVISION;
      else extra().attemptedRevision = record.attemptedRevision;
    }
    this.flags[slot] = flags;
    this.generations = withWhole(this.generations, slot, whole(record.generation, 'generation'));
    this.observedGenerations = withWhole(this.observedGenerations, slot, whole(record.observedGeneration, 'observedGeneration'));
    this.reconcileDurations[slot] = whole(record.lastReconcileDurationMs, 'lastReconcileDurationMs');
    this.namespaceCodes = withCode(this.namespaceCodes, slot, this.namespaces.code(record.namespace));
    this.apiVersionCodes = withCode(this.apiVersionCodes, slot, this.apiVersions.code(record.apiVersion));
    this.intervalCodes = withCode(this.intervalCodes, slot, this.intervals.code(record.interval));
    this.serviceAccountCodes = withCode(this.serviceAccountCodes, slot, this.serviceAccounts.code(record.serviceAccountName));
    this.artifactHostCodes = withCode(this.artifactHostCodes, slot, this.artifactHosts.code(record.artifactHost));
    this.labels[slot] = record.labels;
    if (Object.keys(record.annotations).length > 0) extra().annotations = record.annotations;
    this.sourceRefs[slot] = record.sourceRef;
    if (record.url !== undefined) extra().url = record.url;
    this.inventories[slot] = record.inventory;
    if (record.inventoryCount < 0xffff) this.inventoryCounts[slot] = record.inventoryCount;
    else {
      this.inventoryCounts[slot] = 0xffff;
      extra().inventoryCount = record.inventoryCount;
    }
    this.revisions[slot] = record.revision;
    if (ready) {
      const status = READY_STATUSES.indexOf(ready.status as (typeof READY_STATUSES)[number]);
      this.readyStatuses[slot] = status > 0 ? status : 0;
      if (status <= 0) extra().readyStatus = ready.status;
      this.readyReasonCodes = withCode(this.readyReasonCodes, slot, this.readyReasons.code(ready.reason));
      const template =
        ready.message === undefined
          ? undefined
          : messageTemplate(ready.message, [record.revision, record.name, record.namespace]);
      this.readyTemplateCodes = withCode(this.readyTemplateCodes, slot, this.readyTemplates.code(template));
      this.readyMessages[slot] = template === undefined ? ready.message : undefined;
      const time = packTime(ready.lastTransitionTime);
      this.readyTimes[slot] = time;
      if (time === 0 && ready.lastTransitionTime !== undefined) {
        extra().readyTime = ready.lastTransitionTime;
      }
      this.readyObservedGenerations = withWhole(
        this.readyObservedGenerations,
        slot,
        whole(ready.observedGeneration, 'readyObservedGeneration'),
      );
    } else {
      this.readyStatuses[slot] = 0;
      this.readyReasonCodes[slot] = 0;
      this.readyTemplateCodes[slot] = 0;
      this.readyMessages[slot] = undefined;
      this.readyTimes[slot] = 0;
      this.readyObservedGenerations[slot] = ABSENT;
    }
    if (record.deletionTimestamp !== undefined) extra().deletionTimestamp = record.deletionTimestamp;
    if (record.chart !== undefined) extra().chart = record.chart;
    if (record.dependsOn !== undefined) extra().dependsOn = record.dependsOn;
    if (record.conditionsError !== undefined) extra().conditionsError = record.conditionsError;
    if (record.stalled !== undefined) extra().stalled = record.stalled;
    if (record.reconciling !== undefined) extra().reconciling = record.reconciling;
    if (record.lastHandledReconcileAt !== undefined) {
      extra().lastHandledReconcileAt = record.lastHandledReconcileAt;
    }
    if (record.problems !== undefined) extra().problems = record.problems;
    if (record.writtenApiVersion !== undefined) {
      extra().writtenApiVersion = record.writtenApiVersion;
    }
    this.extras[slot] = extras;
  }

  /** Empties a slot. */
  clear(slot: number): void {
    if (slot >= this.capacity) return;
    this.flags[slot] = 0;
    this.labels[slot] = undefined;
    this.sourceRefs[slot] = undefined;
    this.inventories[slot] = undefined;
    this.readyMessages[slot] = undefined;
    this.revisions[slot] = undefined;
    this.extras[slot] = undefined;
    this.namespaceCodes[slot] = 0;
    this.apiVersionCodes[slot] = 0;
    this.intervalCodes[slot] = 0;
    this.serviceAccountCodes[slot] = 0;
    this.artifactHostCodes[slot] = 0;
    this.readyReasonCodes[slot] = 0;
    this.readyTemplateCodes[slot] = 0;
  }

  /** The record in a slot (whose key the caller keeps), built back. */
  read(slot: number, key: string): FluxObjectRecord | undefined {
    if (!this.has(slot)) return undefined;
    const extras = this.extras[slot];
    const flags = this.flags[slot];
    const revision = this.revisions[slot];
    let ready: RecordCondition | undefined;
    if (flags & HAS_READY) {
      const time = this.readyTimes[slot];
      // every field in one literal, in the normaliser's order: records read back share one shape
      ready = {
        status: READY_STATUSES[this.readyStatuses[slot]] ?? extras!.readyStatus!,
        reason: this.readyReasons.value(this.readyReasonCodes[slot]),
        message: this.readyMessageAt(slot, key),
        lastTransitionTime: time === 0 ? extras?.readyTime : unpackTime(time),
        observedGeneration: this.whole(
          this.readyObservedGenerations[slot],
          extras?.readyObservedGeneration,
        ),
      };
    }
    let attemptedRevision = extras?.attemptedRevision;
    if (flags & ATTEMPTED_IS_REVISION) attemptedRevision = revision;
    return {
      key,
      cluster: this.cluster,
      namespace: this.namespaces.value(this.namespaceCodes[slot])!,
      kind: FLUX_KINDS[this.kinds[slot]],
      name: key.slice(key.lastIndexOf('/') + 1),
      apiVersion: this.apiVersions.value(this.apiVersionCodes[slot])!,
      writtenApiVersion: extras?.writtenApiVersion,
      generation: this.whole(this.generations[slot], extras?.generation),
      labels: this.labels[slot]!,
      annotations: extras?.annotations ?? NO_ANNOTATIONS,
      deletionTimestamp: extras?.deletionTimestamp,
      suspend: (flags & SUSPEND) !== 0,
      serviceAccountName: this.serviceAccounts.value(this.serviceAccountCodes[slot]),
      interval: this.intervals.value(this.intervalCodes[slot]),
      sourceRef: this.sourceRefs[slot],
      chart: extras?.chart,
      dependsOn: extras?.dependsOn,
      url: extras?.url,
      remote: (flags & REMOTE) !== 0,
      inventory: this.inventories[slot],
      inventoryCount:
        this.inventoryCounts[slot] === 0xffff ? extras!.inventoryCount! : this.inventoryCounts[slot],
      conditionsError: extras?.conditionsError,
      ready,
      stalled: extras?.stalled,
      reconciling: extras?.reconciling,
      observedGeneration: this.whole(this.observedGenerations[slot], extras?.observedGeneration),
      lastHandledReconcileAt: extras?.lastHandledReconcileAt,
      revision,
      attemptedRevision,
      artifactHost: this.artifactHosts.value(this.artifactHostCodes[slot]),
      lastReconcileDurationMs: this.whole(
        this.reconcileDurations[slot],
        extras?.lastReconcileDurationMs,
      ),
      problems: extras?.problems,
    };
  }

  /**
   * What capacity reads of the record in a slot (rules §4, §9, §12), equal to those fields of {@link read}'s
   * record, without building the rest: no strings are made, every value is a code's or a shared one.
   */
  capacityRecordAt(slot: number): CapacityRecord {
    const extras = this.extras[slot];
    return {
      kind: FLUX_KINDS[this.kinds[slot]],
      namespace: this.namespaces.value(this.namespaceCodes[slot])!,
      labels: this.labels[slot]!,
      suspend: (this.flags[slot] & SUSPEND) !== 0,
      annotations: extras?.annotations ?? NO_ANNOTATIONS,
      interval: this.intervals.value(this.intervalCodes[slot]),
      lastReconcileDurationMs: this.whole(this.reconcileDurations[slot], extras?.lastReconcileDurationMs),
    };
  }

  kindAt(slot: number): FluxKind {
    return FLUX_KINDS[this.kinds[slot]];
  }

  namespaceAt(slot: number): string {
    return this.namespaces.value(this.namespaceCodes[slot])!;
  }

  labelsAt(slot: number): Readonly<Record<string, string>> {
    return this.labels[slot]!;
  }

  urlAt(slot: number): string | undefined {
    return this.extras[slot]?.url;
  }

  inventoryAt(slot: number): string | undefined {
    return this.inventories[slot];
  }

  /** Whether the record in a slot applies to another cluster (`spec.kubeConfig`). */
  remoteAt(slot: number): boolean {
    return (this.flags[slot] & REMOTE) !== 0;
  }

  /** The Ready condition's message of the record in a slot (whose key the caller keeps). */
  readyMessageAt(slot: number, key: string): string | undefined {
    const code = this.readyTemplateCodes[slot];
    if (code === 0) return this.readyMessages[slot];
    return fillTemplate(this.readyTemplates.value(code)!, [
      this.revisions[slot],
      key.slice(key.lastIndexOf('/') + 1),
      this.namespaces.value(this.namespaceCodes[slot]),
    ]);
  }

  /** Drops the codes of values no record has any more, once a column has many (values are never freed otherwise). */
  compactCodes(slotLimit: number): void {
    const columns: Array<[ValueCodes, 'namespaceCodes' | 'apiVersionCodes' | 'intervalCodes' | 'serviceAccountCodes' | 'artifactHostCodes' | 'readyReasonCodes' | 'readyTemplateCodes']> = [
      [this.namespaces, 'namespaceCodes'],
      [this.apiVersions, 'apiVersionCodes'],
      [this.intervals, 'intervalCodes'],
      [this.serviceAccounts, 'serviceAccountCodes'],
      [this.artifactHosts, 'artifactHostCodes'],
      [this.readyReasons, 'readyReasonCodes'],
      [this.readyTemplates, 'readyTemplateCodes'],
    ];
    const limit = Math.min(slotLimit, this.capacity);
    for (const [codes, field] of columns) {
      if (codes.size <= MAX_CODES) continue;
      const column = this[field];
      const remap = codes.compact(column, limit);
      for (let slot = 0; slot < limit; slot++) column[slot] = remap[column[slot]];
    }
  }

  private whole(packed: number, extra: number | undefined): number | undefined {
    if (packed === ABSENT) return undefined;
    return packed === IN_EXTRAS ? extra : packed;
  }

  private ensureCapacity(slot: number) {
    if (slot < this.capacity) return;
    const capacity = capacityFor(this.capacity, slot);
    this.kinds = grown(this.kinds, capacity);
    this.flags = grown(this.flags, capacity);
    this.readyStatuses = grown(this.readyStatuses, capacity);
    this.generations = grown(this.generations, capacity);
    this.observedGenerations = grown(this.observedGenerations, capacity);
    this.readyObservedGenerations = grown(this.readyObservedGenerations, capacity);
    this.reconcileDurations = grown(this.reconcileDurations, capacity);
    this.readyTimes = grown(this.readyTimes, capacity);
    this.inventoryCounts = grown(this.inventoryCounts, capacity);
    this.namespaceCodes = grown(this.namespaceCodes, capacity);
    this.apiVersionCodes = grown(this.apiVersionCodes, capacity);
    this.intervalCodes = grown(this.intervalCodes, capacity);
    this.serviceAccountCodes = grown(this.serviceAccountCodes, capacity);
    this.artifactHostCodes = grown(this.artifactHostCodes, capacity);
    this.readyReasonCodes = grown(this.readyReasonCodes, capacity);
    this.readyTemplateCodes = grown(this.readyTemplateCodes, capacity);
    this.capacity = capacity;
  }
}
