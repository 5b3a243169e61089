import {
  ClusterAnalysis,
  compareFindings,
  deriveReconcileState,
  Finding,
  FindingType,
  fluxObjectKey,
  Owner,
  reconcileNotHandledFinding,
  reconcileNotHandledFrom,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { withCode } from '../records/columns';
import { ServiceIndex } from './ServiceIndex';
import { findingTypesCodeOf, SHOWN, ValueList } from './viewCodes';
import { ViewColumns } from './ViewColumns';

/** What one pass over a cluster changed, for subscribers and signals. */
export interface ViewChanges {
  keys: Set<string>;
  /** Services of changed objects, before and after. */
  services: Set<string>;
}

/** What a status pass changed. */
export interface StatusChanges extends ViewChanges {
  /**
   * The earliest time after the pass at which one of its objects' pending reconcile requests becomes "not
   * handled" (rules §2a), when one does: its cluster's next refresh must analyse by then.
   */
  changesByTimeAt?: number;
}

const NOT_HANDLED_FINDING: FindingType = 'reconcile-not-handled';

/**
 * The derived view of one cluster: for each object of its store, in columns indexed by the object's slot, the
 * state name and message, owner, boundary, service and finding types (as numbers into lists of the distinct
 * values), when it last changed and when its state was derived; the counts per kind and state, the objects per
 * service, and the cluster's findings, instances and shards from its last analysis. An object costs the view
 * about 40 bytes (its columns are {@link ViewColumns}); {@link ClusterView.object} makes an {@link IndexedObject} handle when one is asked for.
 * It only reads the records: the records stage commits them before a pass and releases deleted slots after.
 */
export class ClusterView extends ViewColumns {
  /**
   * Owners and boundaries by content. An analysis shares equal answers between the objects it derives; this
   * keeps them shared across analyses too, so an unchanged answer is the same object and comparing is `===`.
   */
  private readonly canonical = new Map<string, object>();
  /** When objects of a snapshot last changed, for the next analysis (which would otherwise say "now"). */
  private seededUpdatedAt?: Map<string, number>;

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

  /**
   * Applies a full analysis of the cluster: adds, updates and removes objects. `changedKeys`: the objects whose
   * record changed since the last pass.
   */
  applyAnalysis(
    analysis: ClusterAnalysis,
    changedKeys: ReadonlySet<string>,
    now: number,
  ): ViewChanges {
    const changes: ViewChanges = { keys: new Set(), services: new Set() };
    // the records stage has committed the records this analysis derived from: they are what is served now
    const table = this.table;
    const findingsByKey = new Map<string, Finding[]>();
    const seen = new Map<object, object>();
    const owners = new ValueList<Owner>();
    const boundaries = new ValueList<TenancyBoundary>();
    /** The service of each analysed slot, until the service index is rebuilt. */
    const services: Array<string | null> = [];
    const analysed = new Uint8Array(table.slotLimit);
    for (const [key, derived] of analysis.objects) {
      const slot = table.slotOf(key);
      if (slot === undefined || !table.isLive(slot)) continue;
      analysed[slot] = 1;
      this.ensureCapacity(slot);
      const owner = this.canonicalOf(derived.owner, seen);
      const boundary = this.canonicalOf(derived.boundary, seen);
      if (derived.findings.length > 0) findingsByKey.set(key, derived.findings);
      const findingCode = findingTypesCodeOf(derived.findings);
      const changedAt = this.seededUpdatedAt?.get(key) ?? now;
      const service = derived.service;
      services[slot] = service;
      const shown = (this.flags[slot] & SHOWN) !== 0;
      const before = shown ? this.serviceOf(slot) : null;
      const unchanged =
        shown &&
        !changedKeys.has(key) &&
        !this.stateDiffers(slot, derived.state) &&
        this.ownerOf(slot) === owner &&
        this.boundaryOf(slot) === boundary &&
        before === service &&
        this.findingCodes[slot] === findingCode;
      // the codes are the new analysis's, changed or not
      this.ownerCodes = withCode(this.ownerCodes, slot, owners.codeOf(owner));
      this.boundaryCodes = withCode(this.boundaryCodes, slot, boundaries.codeOf(boundary));
      if (unchanged) continue;
      // setting the state bumps the slot's revision, which caches of its answer check (revisionOf)
      this.setState(slot, derived.state, now);
      this.findingCodes[slot] = findingCode;
      this.updatedAts[slot] = changedAt;
      if (!shown) this.show(slot, table.kindAt(slot));
      changes.keys.add(key);
      if (before !== null) changes.services.add(before);
      if (service !== null) changes.services.add(service);
    }
    const limit = Math.min(table.slotLimit, this.capacity);
    for (let slot = 0; slot < limit; slot++) {
      if (!(this.flags[slot] & SHOWN) || analysed[slot]) continue;
      const service = this.serviceOf(slot);
      changes.keys.add(table.keyOf(slot)!);
      if (service !== null) changes.services.add(service);
      this.hide(slot);
    }
    this.owners = owners.values;
    this.boundaries = boundaries.values;
    this.serviceIndex = ServiceIndex.of(limit, slot => services[slot] ?? null);
    // forget answers no object has any more
    const used = new Set<object>([...owners.values, ...boundaries.values]);
    for (const [signature, value] of this.canonical) {
      if (!used.has(value)) this.canonical.delete(signature);
    }
    this.seededUpdatedAt = undefined;
    this.findings = analysis.findings;
    this.findingsByKey = findingsByKey;
    this.instances = analysis.instances;
    this.shards = analysis.shards;
    this.analysedAt = now;
    this.analysisCount++;
    return changes;
  }

  /**
   * Re-derives the state of objects whose status alone changed (rules §2 depends on the record only), and their
   * `reconcile-not-handled` finding, which depends on the record alone too (rules §2a): the object's findings and
   * the cluster's follow here, so no status change waits for, or asks for, an analysis of its cluster.
   */
  applyStatus(keys: Iterable<string>, now: number): StatusChanges {
    const changes: StatusChanges = { keys: new Set(), services: new Set() };
    /** The objects whose finding came, went or changed its words, with the finding they have now. */
    const notHandled = new Map<string, Finding | undefined>();
    for (const key of keys) {
      const slot = this.table.slotOf(key);
      if (slot === undefined) continue;
      // new objects arrive with the next analysis, which a structural change has scheduled
      if (!this.isShown(slot)) continue;
      const record = this.recordOf(slot);
      const state = deriveReconcileState(record, now);
      const finding = reconcileNotHandledFinding(record, state, now);
      if (finding || this.findingTypesOf(slot).includes(NOT_HANDLED_FINDING)) {
        this.setObjectNotHandled(slot, key, finding);
        notHandled.set(key, finding);
      }
      // a request this status leaves pending becomes "not handled" later: the next refresh must know when
      const from = reconcileNotHandledFrom(record);
      if (from !== undefined && from > now && from < (changes.changesByTimeAt ?? Infinity)) {
        changes.changesByTimeAt = from;
      }
      this.setState(slot, state, now);
      this.updatedAts[slot] = now;
      changes.keys.add(key);
      const service = this.serviceOf(slot);
      if (service !== null) changes.services.add(service);
    }
    if (notHandled.size > 0) this.setClusterNotHandled(notHandled);
    return changes;
  }

  /**
   * Replaces the cluster's findings with a list that differs only in findings about no object (its shards' and
   * instances': `withMeasuredUtilisation`), so the objects' findings stay as they are.
   */
  replaceFindings(findings: Finding[]): void {
    this.findings = findings;
  }

  /** Replaces an object's `reconcile-not-handled` finding (none: it has none now), in the analysis's order. */
  private setObjectNotHandled(slot: number, key: string, finding: Finding | undefined) {
    const findings = (this.findingsByKey.get(key) ?? []).filter(f => f.type !== NOT_HANDLED_FINDING);
    if (finding) {
      findings.push(finding);
      findings.sort(compareFindings);
    }
    if (findings.length > 0) this.findingsByKey.set(key, findings);
    else this.findingsByKey.delete(key);
    this.findingCodes[slot] = findingTypesCodeOf(findings);
  }

  /**
   * Replaces the `reconcile-not-handled` findings of some objects in the cluster's list, in the analysis's order.
   * A new list: whoever read the old one keeps what it read.
   */
  private setClusterNotHandled(byKey: ReadonlyMap<string, Finding | undefined>) {
    const findings = this.findings.filter(
      f =>
        f.type !== NOT_HANDLED_FINDING ||
        !f.object ||
        !byKey.has(fluxObjectKey(f.object.cluster, f.object.namespace, f.object.kind, f.object.name)),
    );
    for (const finding of byKey.values()) if (finding) findings.push(finding);
    findings.sort(compareFindings);
    this.findings = findings;
  }
}
