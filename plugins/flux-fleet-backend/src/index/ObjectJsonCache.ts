import { referenceKey, sourceReferenceOf } from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from '../derive/IndexedObject';
import type { ClusterView } from '../derive/ClusterView';
import type { ClusterEntry } from './ClusterEntry';
import { stalenessOf } from './clusterHealth';
import { toFleetObject } from './fleetObjects';

/** How many objects' JSON a cache keeps: about 1.4 KB each at fleet M, so about 14 MB (the index has two). */
const MAX_ENTRIES = 10_000;

interface Cached {
  view: ClusterView;
  slot: number;
  recordRevision: number;
  viewRevision: number;
  staleness: string;
  /** The key of the object's source, whose URL the answer carries. */
  sourceKey?: string;
  sourceUrl?: string;
  json: Buffer;
}

/**
 * Each object's API answer (`FleetObject`) as JSON, kept while nothing it is made of changed: its record, what the
 * view derived of it (state, owner, boundary, service, findings: one revision, {@link ClusterView.revisionOf}), its
 * cluster's staleness, and its source's URL. Not the cluster's analysis as a whole: every cluster is analysed again
 * at least once a minute (its controllers' measured load changes), and an entry dropped then was every entry. At
 * fleet L under churn the entity page was built afresh on every view: p50 17.8 ms for 81 objects (run of
 * 2026-12-05 21:47), most of it unpacking records and deriving their states again. A fleet-wide filter answers the
 * same objects again and again while the fleet churns elsewhere; building each answer again (its record unpacked,
 * its state derived, then serialised) was 35 % of the backend's time under the benchmark's fleet-wide filters at
 * fleet M (profile of 2026-12-02), more than finding the objects.
 *
 * Kept as UTF-8 bytes, so that a page is its objects' bytes copied together: a page built as text was joined,
 * then measured (compression's `Content-Length`) and encoded again by `res.end`, 1.1 ms of each 100-object page
 * (140 KB), 23 % of the route's CPU under load at fleet M (profile of 2026-12-03).
 *
 * An object's JSON is kept from its second answer within about the last `2 × max` objects answered on: entity
 * views spread over a whole fleet (the index benchmark's, at random over 3,750 services at fleet M) missed 84 % of
 * the time when every answer was kept, and each kept one became old garbage. Measured in one process at fleet M
 * under churn (2026-12-04), ms of CPU per entity view, built whole and serialised / from kept JSON:
 * at random over every service 0.66–0.93 / 0.77–0.94; over 100 services again and again (open pages asking after
 * each signal) 0.55–0.60 / 0.22.
 */
export class ObjectJsonCache {
  private readonly cached = new Map<string, Cached>();
  /** Keys answered lately and not kept, in two generations (the older is dropped when the newer is full). */
  private answeredOnce = new Set<string>();
  private answeredOnceBefore = new Set<string>();

  constructor(private readonly max = MAX_ENTRIES) {}

  /**
   * The JSON of the object's answer, as `JSON.stringify(toFleetObject(o, …))` gives it now: in UTF-8 when kept,
   * as text when not (yet) kept.
   */
  jsonOf(entry: ClusterEntry, o: IndexedObject): Buffer | string {
    const { view, store } = entry;
    const { slot } = o;
    const staleness = stalenessOf(entry);
    const stalenessKey = staleness.stale ? `stale ${staleness.since}` : '';
    const found = this.cached.get(o.key);
    if (
      found &&
      found.view === view &&
      found.slot === slot &&
      found.recordRevision === store.objects.revisionAt(slot) &&
      found.viewRevision === view.revisionOf(slot) &&
      found.staleness === stalenessKey &&
      (found.sourceKey === undefined || store.objects.urlOf(found.sourceKey) === found.sourceUrl)
    ) {
      return found.json;
    }
    const text = JSON.stringify(toFleetObject(o, store, staleness));
    if (!found && !this.answeredBefore(o.key)) return text;
    // its own memory, not a slice of Node's shared pool, which one kept entry would hold whole
    const json = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    json.write(text);
    const source = sourceReferenceOf(o.record);
    const sourceKey = source && referenceKey(o.record.cluster, source);
    if (found) this.cached.delete(o.key);
    else if (this.cached.size >= this.max) {
      // the oldest first: a Map iterates in insertion order, and a hit is not moved (reads stay cheap)
      this.cached.delete(this.cached.keys().next().value!);
    }
    this.cached.set(o.key, {
      view,
      slot,
      recordRevision: store.objects.revisionAt(slot),
      viewRevision: view.revisionOf(slot),
      staleness: stalenessKey,
      ...(sourceKey !== undefined && { sourceKey, sourceUrl: store.objects.urlOf(sourceKey) }),
      json,
    });
    return json;
  }

  get size(): number {
    return this.cached.size;
  }

  /** Whether the key was answered lately (and not kept); remembers that it now was. */
  private answeredBefore(key: string): boolean {
    if (this.answeredOnce.has(key) || this.answeredOnceBefore.has(key)) return true;
    if (this.answeredOnce.size >= this.max) {
      this.answeredOnceBefore = this.answeredOnce;
      this.answeredOnce = new Set();
    }
    this.answeredOnce.add(key);
    return false;
  }
}
