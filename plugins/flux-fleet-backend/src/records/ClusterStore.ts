import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  controllerFromDeployment,
  FluxController,
  FluxCrdRecord,
  FluxObjectRecord,
  LABELS,
  NamespaceRecord,
  normalizeCrd,
  normalizeFluxObject,
  normalizeNamespace,
  normalizeWorkload,
  ValuePool,
  WorkloadLabels,
  WorkloadRecord,
} from '@flux-fleet/plugin-flux-fleet-common';
import type {
  ClusterSinks,
  SupportingRole,
} from '../watch/ClusterWatcher';
import type { InformerSink } from '../watch/ResourceInformer';
import { apiVersionOf, WatchedResource } from '../watch/WatchedResource';
import { readFluxEvent, StoredEvent } from './fluxEvents';
import type { ClusterDeltaData } from './clusterDeltaTypes';
import type { PersistedWorkload } from './snapshotTypes';
import { RecordTable } from './RecordTable';
import { VersionedMap } from './VersionedMap';
import { RecentEvents } from './RecentEvents';
import { classifyRecordChange, sameValue } from './recordChange';
import {
  describeRaw,
  keyedSink,
  keyOfRaw,
  metadataKey,
  resultOf,
} from './storeSinks';
import { emptyChanges, StoreChanges } from './StoreChanges';
import { MalformedObjects } from './MalformedObjects';

export type { StoreChanges } from './StoreChanges';

/** Most events kept per cluster; the oldest go first. */
const MAX_EVENTS_PER_CLUSTER = 5_000;

/**
 * What the index knows of one cluster as read: the lean record of every Flux object, the controllers, namespaces,
 * labelled workloads and recent events. Receives the informers' raw objects (it is their sinks), normalises them
 * with the `-common` normalisers, and records what changed and how, for the index to re-derive. A malformed
 * object is logged (naming the cluster and object) and skipped; it never stops the others.
 */
export class ClusterStore implements ClusterSinks {
  /** The Flux objects' records, by slot (the view's columns follow the same slots). */
  readonly objects = new RecordTable();
  /** Controller Deployments, by `namespace/name`. */
  readonly controllers = new VersionedMap<string, FluxController>();
  readonly namespaces = new VersionedMap<string, NamespaceRecord>();
  /** The labels of the workloads, by inventory id (all that services and label selectors read of them). */
  readonly workloads = new VersionedMap<string, WorkloadLabels>();
  /** The Flux CRDs, by name, for upgrade readiness (rules §10). */
  readonly crds = new Map<string, FluxCrdRecord>();
  /** Recent events, by object key, newest first. */
  readonly events: RecentEvents;
  /** Objects that could not be read, by `kind namespace/name`, with why. */
  readonly malformed = new Map<string, string>();
  /** Objects malformed as read, skipped or read with problems: each logged once, counted in the health. */
  readonly malformedObjects: MalformedObjects;

  private pending: StoreChanges = emptyChanges();

  constructor(
    readonly cluster: string,
    private readonly pool: ValuePool,
    logger: LoggerService,
    eventsPerObject: number,
    /** Called after every change; the index debounces. */
    private readonly onChange: () => void,
  ) {
    this.malformedObjects = new MalformedObjects(cluster, logger);
    this.events = new RecentEvents(eventsPerObject, MAX_EVENTS_PER_CLUSTER, key =>
      this.objects.sharedKey(key),
    );
  }

  /**
   * Commits what changed since the last commit: every pending record becomes the one served, and the changes are
   * handed over (collecting starts anew). The derivation that follows reads the committed records.
   */
  commit(): StoreChanges {
    const changes = this.pending;
    this.pending = emptyChanges();
    this.objects.applyPending();
    return changes;
  }

  /**
   * Commits the records whose status alone changed and hands over those changes and the new events, leaving any
   * structural change pending for the analysis that follows (its objects' records too, so what is served stays
   * a record with what was derived from it). Without structural changes pending, the same as {@link commit}.
   */
  commitStatus(): StoreChanges {
    // a structurally changed key always sets `structural` too (noteStructural)
    if (!this.pending.structural) return this.commit();
    const { statusKeys, eventKeys } = this.pending;
    const slots: number[] = [];
    for (const key of statusKeys) {
      const slot = this.objects.slotOf(key);
      if (slot !== undefined) slots.push(slot);
      this.pending.changedKeys.delete(key);
    }
    this.objects.applyPending(slots);
    this.pending.statusKeys = new Set();
    this.pending.eventKeys = new Set();
    return { structural: false, statusKeys, structuralKeys: new Set(), changedKeys: new Set(statusKeys), eventKeys };
  }

  /**
   * Gives the slots of deleted objects back once the derived view no longer holds answers about them, and drops
   * what the packed columns no longer need.
   */
  release(heldByView: (slot: number) => boolean): void {
    this.objects.releaseDeleted(heldByView);
    this.objects.compact();
  }

  /** The workloads as snapshots and deltas carry them. */
  persistedWorkloads(): PersistedWorkload[] {
    return Array.from(this.workloads, ([id, labels]) => ({
      id,
      kubernetesId: labels[LABELS.kubernetesId],
      labels,
    }));
  }

  /** What changed so far, without taking it. */
  peekChanges(): Readonly<StoreChanges> {
    return this.pending;
  }

  /**
   * Replaces everything with a snapshot (restored at start, or written by the replica that watches the
   * cluster). Records equal to the ones held are kept, so only what really changed is re-derived and signalled.
   */
  restore(snapshot: {
    objects: FluxObjectRecord[];
    controllers: FluxController[];
    namespaces: NamespaceRecord[];
    workloads: PersistedWorkload[];
    events?: Array<[string, StoredEvent[]]>;
  }): void {
    const seen = new Set<string>();
    for (const record of snapshot.objects) seen.add(record.key);
    this.setRecords(snapshot.objects);
    for (const key of this.existingKeys(() => true)) {
      if (!seen.has(key)) this.removeFlux(key);
    }
    this.replaceIfChanged(
      this.controllers,
      snapshot.controllers.map(c => [`${c.instance}/${c.name}`, c] as const),
    );
    this.replaceIfChanged(
      this.namespaces,
      snapshot.namespaces.map(n => [n.name, n] as const),
    );
    this.replaceIfChanged(
      this.workloads,
      snapshot.workloads.map(w => this.pooledWorkload(w)),
    );
    if (snapshot.events) {
      for (const key of this.events.replaceAll(snapshot.events)) this.pending.eventKeys.add(key);
    }
    this.onChange();
  }

  /**
   * Applies a delta of another replica (see ClusterDeltaData): the records and events of the objects it names,
   * and the supporting lists it carries whole. Records equal to the ones held are kept.
   */
  applyDelta(delta: ClusterDeltaData): void {
    this.setRecords(delta.objects);
    for (const key of delta.removed) this.removeFlux(key);
    if (delta.controllers) {
      this.replaceIfChanged(this.controllers, delta.controllers.map(c => [`${c.instance}/${c.name}`, c] as const));
    }
    if (delta.namespaces) {
      this.replaceIfChanged(this.namespaces, delta.namespaces.map(n => [n.name, n] as const));
    }
    if (delta.workloads) {
      this.replaceIfChanged(this.workloads, delta.workloads.map(w => this.pooledWorkload(w)));
    }
    for (const [key, list] of delta.events) {
      if (this.events.set(key, this.objects.has(key) ? list : [])) this.pending.eventKeys.add(key);
    }
    this.onChange();
  }

  /** A workload of a snapshot or delta as the watch keeps one: id and labels shared with equal ones of the fleet. */
  private pooledWorkload(w: PersistedWorkload): readonly [string, WorkloadLabels] {
    return [this.pool.intern(w.id), this.pool.labels(w.labels)];
  }

  /**
   * Stores a record; a new one's events (that may have come before it) are filed under the table's own string for
   * its key.
   */
  private storeRecord(record: FluxObjectRecord, before: FluxObjectRecord | undefined) {
    const slot = this.objects.set(record);
    if (!before) this.events.shareKey(this.objects.keyOf(slot)!);
  }

  /** Sets records, noting how each changed (unchanged ones are left as they are). */
  private setRecords(records: readonly FluxObjectRecord[]) {
    for (const record of records) {
      const before = this.objects.get(record.key);
      const change = before ? classifyRecordChange(before, record) : 'structural';
      if (change === 'none') continue;
      this.storeRecord(record, before);
      this.pending.changedKeys.add(record.key);
      if (change === 'structural') this.noteStructural(record.key);
      else this.noteStatus(record.key);
    }
  }

  private replaceIfChanged<T>(map: Map<string, T>, entries: ReadonlyArray<readonly [string, T]>) {
    const same =
      map.size === entries.length && entries.every(([k, v]) => sameValue(map.get(k), v));
    if (same) return;
    map.clear();
    for (const [k, v] of entries) map.set(k, v);
    this.pending.structural = true;
  }

  flux(resource: WatchedResource): InformerSink {
    const kind = resource.kind;
    const apiVersion = apiVersionOf(resource);
    let seen: Set<string> | undefined;
    return {
      listStarted: () => {
        seen = new Set();
      },
      upsert: raw => {
        const key = this.upsertFlux(raw, kind, apiVersion);
        if (key) seen?.add(key);
      },
      normalized: {
        cluster: this.cluster,
        kind,
        apiVersion,
        pool: this.pool,
        upsert: record => {
          this.storeFlux(record);
          seen?.add(record.key);
        },
      },
      remove: raw => {
        const key = keyOfRaw(this.cluster, kind, raw);
        if (key) this.removeFlux(key);
      },
      listFinished: () => {
        if (!seen) return;
        for (const key of this.existingKeys(k => k === kind)) {
          if (!seen.has(key)) this.removeFlux(key);
        }
        seen = undefined;
      },
    };
  }

  dropFlux(kind: string): void {
    for (const key of this.existingKeys(k => k === kind)) this.removeFlux(key);
  }

  /** The keys of the objects of some kinds, without building their records. */
  private existingKeys(ofKind: (kind: string) => boolean): string[] {
    const keys: string[] = [];
    for (const slot of this.objects.existingSlots()) {
      if (ofKind(this.objects.kindAt(slot))) keys.push(this.objects.keyOf(slot)!);
    }
    return keys;
  }

  supporting(role: SupportingRole, resource: WatchedResource): InformerSink {
    switch (role) {
      case 'controllers':
        return keyedSink<FluxController>(
          this,
          this.controllers,
          raw => {
            const result = controllerFromDeployment(this.cluster, raw);
            // a Deployment labelled part-of=flux that is not a controller (the operator, a webhook receiver)
            return result.controller
              ? { value: result.controller }
              : { ignored: true };
          },
          c => `${c.instance}/${c.name}`,
          raw => metadataKey(raw),
        );
      case 'namespaces':
        return keyedSink<NamespaceRecord>(
          this,
          this.namespaces,
          raw => resultOf(normalizeNamespace(this.cluster, raw, { pool: this.pool })),
          n => n.name,
          raw => (raw as { metadata?: { name?: string } })?.metadata?.name,
        );
      case 'workloads':
        return keyedSink<WorkloadRecord, WorkloadLabels>(
          this,
          this.workloads,
          raw =>
            resultOf(
              normalizeWorkload(this.cluster, raw, {
                kind: resource.kind,
                apiVersion: apiVersionOf(resource),
                pool: this.pool,
              }),
            ),
          w => w.id,
          undefined,
          // only the workloads of one kind are listed by this sink's informer; an inventory id ends in the kind
          id => id.endsWith(`_${resource.kind}`),
          w => w.labels,
        );
      case 'crds':
        return keyedSink<FluxCrdRecord>(
          this,
          this.crds,
          raw => {
            const { crd, error } = normalizeCrd(this.cluster, raw);
            if (crd) return { value: crd };
            return error ? { error } : { ignored: true };
          },
          c => c.name,
          raw => (raw as { metadata?: { name?: string } })?.metadata?.name,
        );
      case 'events':
      default:
        return this.eventSink();
    }
  }

  private upsertFlux(
    raw: unknown,
    kind: string,
    apiVersion: string,
  ): string | undefined {
    const result = normalizeFluxObject(this.cluster, raw, {
      kind,
      apiVersion,
      pool: this.pool,
    });
    if (!result.record) {
      this.noteMalformed(kind, raw, result.error);
      return undefined;
    }
    this.storeFlux(result.record);
    return result.record.key;
  }

  /** Stores a Flux object's record, normalised here or by the list worker, noting what changed. */
  private storeFlux(record: FluxObjectRecord): void {
    const { kind, namespace, name } = record;
    if (this.malformed.size > 0) this.malformed.delete(`${kind} ${namespace}/${name}`);
    this.malformedObjects.read(kind, namespace, name, record.key, record.problems);
    const before = this.objects.get(record.key);
    this.storeRecord(record, before);
    const change = before ? classifyRecordChange(before, record) : 'structural';
    if (change === 'none') return;
    this.pending.changedKeys.add(record.key);
    if (change === 'structural') this.noteStructural(record.key);
    else this.noteStatus(record.key);
    this.onChange();
  }

  /** An object was added, removed or changed other than in status: it waits for the next analysis. */
  private noteStructural(key: string) {
    this.pending.structural = true;
    this.pending.structuralKeys.add(key);
    this.pending.statusKeys.delete(key);
  }

  /** An object's status alone changed: a status pass re-derives it, unless it already waits for an analysis. */
  private noteStatus(key: string) {
    if (!this.pending.structuralKeys.has(key)) this.pending.statusKeys.add(key);
  }

  private removeFlux(key: string) {
    if (!this.objects.delete(key)) return;
    // keys are cluster/namespace/kind/name, none of which holds a '/'
    const [, namespace, kind, name] = key.split('/');
    this.malformedObjects.forget(kind, namespace, name);
    this.events.remove(key);
    this.noteStructural(key);
    this.pending.changedKeys.add(key);
    this.onChange();
  }

  private eventSink(): InformerSink {
    return {
      listStarted: () => {},
      upsert: raw => {
        const found = readFluxEvent(this.cluster, raw, this.pool);
        if (!found) return;
        this.addEvent(found.objectKey, found.event);
      },
      remove: () => {
        // Events expire in the cluster after an hour; the few kept per object stay as history.
      },
      listFinished: () => {},
    };
  }

  private addEvent(objectKey: string, event: StoredEvent) {
    this.events.add(objectKey, event);
    this.pending.eventKeys.add(objectKey);
    this.onChange();
  }

  /** A supporting object changed: owners, tenants or services may follow. */
  markStructural(): void {
    this.pending.structural = true;
    this.onChange();
  }

  /** Notes an object that could not be read, and logs it (once, a few per minute). */
  noteMalformed(kind: string, raw: unknown, error: string): void {
    this.malformed.set(describeRaw(kind, raw), error);
    this.malformedObjects.skipped(kind, raw, error);
  }

}

