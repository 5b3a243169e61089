import {
  ClusterAnalysis,
  deriveReconcileState,
  Finding,
  FindingType,
  InstanceSummary,
  reconcileNotHandledFinding,
  ShardSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterStore } from './ClusterStore';
import type { IndexedObject } from './IndexedObject';
import { sameValue } from './recordChange';
import { SecondaryIndexes } from './SecondaryIndexes';

/** What one pass over a cluster changed, for subscribers and signals. */
export interface ViewChanges {
  keys: Set<string>;
  /** Services of changed objects, before and after. */
  services: Set<string>;
  /** A status change flipped a reconcile request to unhandled (or back): the cluster needs an analysis. */
  needsAnalysis: boolean;
}

const NO_FINDINGS: readonly FindingType[] = Object.freeze([]);

/** Equal lists of finding types are one frozen array, shared by every object that has them. */
const findingTypeLists = new Map<string, readonly FindingType[]>();

function findingTypesOf(findings: readonly Finding[]): readonly FindingType[] {
  if (findings.length === 0) return NO_FINDINGS;
  const types = [...new Set(findings.map(f => f.type))];
  const signature = types.join(',');
  let shared = findingTypeLists.get(signature);
  if (!shared) {
    shared = Object.freeze(types);
    findingTypeLists.set(signature, shared);
  }
  return shared;
}

/**
 * The derived view of one cluster: each object with its state, owner, boundary, service and findings, the
 * secondary indexes over them, and the cluster's findings, instances and shards from its last analysis.
 */
export class ClusterView {
  readonly objects = new Map<string, IndexedObject>();
  readonly indexes = new SecondaryIndexes();
  findings: Finding[] = [];
  /** Findings about each object (only objects that have some). */
  findingsByKey = new Map<string, Finding[]>();
  instances: InstanceSummary[] = [];
  shards: ShardSummary[] = [];
  analysedAt?: number;
  /**
   * Owners and boundaries by content. An analysis shares equal answers between the objects it derives; this
   * keeps them shared across analyses too, so an unchanged answer is the same object and comparing is `===`.
   */
  private readonly canonical = new Map<string, object>();
  /** When objects of a snapshot last changed, for the next analysis (which would otherwise say "now"). */
  private seededUpdatedAt?: Map<string, number>;

  constructor(readonly cluster: string) {}

  private canonicalOf<T extends object>(value: T, seen: Map<object, object>): T {
    const known = seen.get(value);
    if (known) return known as T;
    const signature = JSON.stringify(value);
    let found = this.canonical.get(signature);
    if (!found) {
      found = value;
      this.canonical.set(signature, value);
    }
    seen.set(value, found);
    return found as T;
  }

  /** Says when the objects about to be restored from a snapshot last changed. */
  seedUpdatedAt(updatedAt: Map<string, number>): void {
    this.seededUpdatedAt = updatedAt;
  }

  /** Applies a full analysis of the cluster: adds, updates and removes objects. */
  applyAnalysis(
    analysis: ClusterAnalysis,
    store: ClusterStore,
    now: number,
  ): ViewChanges {
    const changes: ViewChanges = {
      keys: new Set(),
      services: new Set(),
      needsAnalysis: false,
    };
    const findingsByKey = new Map<string, Finding[]>();
    const seen = new Map<object, object>();
    const used = new Set<object>();
    for (const [key, derived] of analysis.objects) {
      const record = store.objects.get(key);
      if (!record) continue;
      const owner = this.canonicalOf(derived.owner, seen);
      const boundary = this.canonicalOf(derived.boundary, seen);
      used.add(owner).add(boundary);
      if (derived.findings.length > 0) findingsByKey.set(key, derived.findings);
      const findings = findingTypesOf(derived.findings);
      const existing = this.objects.get(key);
      const changedAt = this.seededUpdatedAt?.get(key) ?? now;
      if (!existing) {
        const object: IndexedObject = {
          key,
          record,
          state: derived.state,
          owner,
          boundary,
          service: derived.service,
          findings,
          updatedAt: changedAt,
        };
        this.objects.set(key, object);
        this.indexes.add(object);
        changes.keys.add(key);
        if (object.service !== null) changes.services.add(object.service);
        continue;
      }
      const recordChanged = existing.record !== record;
      const ownerChanged = existing.owner !== owner;
      const boundaryChanged = existing.boundary !== boundary;
      // the state depends on the record and, for a reconcile request, on the time (rules §2)
      const stateChanged =
        (recordChanged ||
          existing.state.reconcileNotHandled !== derived.state.reconcileNotHandled) &&
        !sameValue(existing.state, derived.state);
      const serviceChanged = existing.service !== derived.service;
      const findingsChanged = existing.findings !== findings;
      if (
        !recordChanged &&
        !ownerChanged &&
        !boundaryChanged &&
        !stateChanged &&
        !serviceChanged &&
        !findingsChanged
      ) {
        continue;
      }
      if (existing.service !== null) changes.services.add(existing.service);
      if (derived.service !== null) changes.services.add(derived.service);
      this.indexes.update(existing, o => {
        o.record = record;
        o.owner = owner;
        o.boundary = boundary;
        if (stateChanged) o.state = derived.state;
        o.service = derived.service;
        o.findings = findings;
        o.updatedAt = changedAt;
      });
      changes.keys.add(key);
    }
    for (const [key, object] of this.objects) {
      if (!analysis.objects.has(key) || !store.objects.has(key)) {
        this.objects.delete(key);
        this.indexes.remove(object);
        changes.keys.add(key);
        if (object.service !== null) changes.services.add(object.service);
      }
    }
    // forget answers no object has any more
    for (const [signature, value] of this.canonical) {
      if (!used.has(value)) this.canonical.delete(signature);
    }
    this.seededUpdatedAt = undefined;
    this.findings = analysis.findings;
    this.findingsByKey = findingsByKey;
    this.instances = analysis.instances;
    this.shards = analysis.shards;
    this.analysedAt = now;
    return changes;
  }

  /**
   * Re-derives the state of objects whose status alone changed (rules §2 depends on the record only). When a
   * reconcile request becomes unhandled, or handled, the cluster's findings change: that asks for an analysis.
   */
  applyStatus(keys: Iterable<string>, store: ClusterStore, now: number): ViewChanges {
    const changes: ViewChanges = {
      keys: new Set(),
      services: new Set(),
      needsAnalysis: false,
    };
    for (const key of keys) {
      const object = this.objects.get(key);
      const record = store.objects.get(key);
      // new objects arrive with the next analysis, which a structural change has scheduled
      if (!object || !record) continue;
      const state = deriveReconcileState(record, now);
      const unhandled = reconcileNotHandledFinding(record, state, now) !== undefined;
      if (unhandled !== object.findings.includes('reconcile-not-handled')) {
        changes.needsAnalysis = true;
      }
      this.indexes.update(object, o => {
        o.record = record;
        if (!sameValue(o.state, state)) o.state = state;
        o.updatedAt = now;
      });
      changes.keys.add(key);
      if (object.service !== null) changes.services.add(object.service);
    }
    return changes;
  }
}
