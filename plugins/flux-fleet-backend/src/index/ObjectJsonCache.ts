import { referenceKey, sourceReferenceOf } from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from '../derive/IndexedObject';
import type { ClusterView } from '../derive/ClusterView';
import type { ClusterEntry } from './ClusterEntry';
import { stalenessOf } from './clusterHealth';
import { toFleetObject } from './fleetObjects';

/** How many objects' JSON is kept: about 1.4 KB each at fleet M, so about 14 MB. */
const MAX_ENTRIES = 10_000;

interface Cached {
  view: ClusterView;
  slot: number;
  recordRevision: number;
  viewRevision: number;
  analysis: number;
  staleness: string;
  /** The key of the object's source, whose URL the answer carries. */
  sourceKey?: string;
  sourceUrl?: string;
  json: Buffer;
}

/**
 * Each object's API answer (`FleetObject`) as JSON, kept while nothing it is made of changed: its record, its
 * derived state, its cluster's analysis and staleness, and its source's URL. A fleet-wide filter answers the
 * same objects again and again while the fleet churns elsewhere; building each answer again (its record unpacked,
 * its state derived, then serialised) was 35 % of the backend's time under the benchmark's fleet-wide filters at
 * fleet M (profile of 2026-12-02), more than finding the objects.
 *
 * Kept as UTF-8 bytes, so that a page is its objects' bytes copied together: a page built as text was joined,
 * then measured (compression's `Content-Length`) and encoded again by `res.end`, 1.1 ms of each 100-object page
 * (140 KB), 23 % of the route's CPU under load at fleet M (profile of 2026-12-03).
 */
export class ObjectJsonCache {
  private readonly cached = new Map<string, Cached>();

  constructor(private readonly max = MAX_ENTRIES) {}

  /** The JSON of the object's answer, as `JSON.stringify(toFleetObject(o, …))` gives it now, in UTF-8. */
  jsonOf(entry: ClusterEntry, o: IndexedObject): Buffer {
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
      found.analysis === view.analysis &&
      found.staleness === stalenessKey &&
      (found.sourceKey === undefined || store.objects.urlOf(found.sourceKey) === found.sourceUrl)
    ) {
      return found.json;
    }
    // its own memory, not a slice of Node's shared pool, which one kept entry would hold whole
    const text = JSON.stringify(toFleetObject(o, store, staleness));
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
      analysis: view.analysis,
      staleness: stalenessKey,
      ...(sourceKey !== undefined && { sourceKey, sourceUrl: store.objects.urlOf(sourceKey) }),
      json,
    });
    return json;
  }

  get size(): number {
    return this.cached.size;
  }
}
