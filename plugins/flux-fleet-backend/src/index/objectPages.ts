import type { ObjectQuery } from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from '../derive/IndexedObject';
import { keyOrderOf } from '../derive/keyOrder';
import { DEFAULT_LIMIT, MAX_LIMIT, ObjectPage } from '../derive/objectQuery';
import {
  decodeCursor,
  encodeCursor,
  KIND_RANK_BY_CODE,
  KINDS_BY_NAME,
  rankIn,
  SEVERITY_BY_STATE_CODE,
  SortField,
  sortValue,
} from '../derive/pageOrder';
import { slotTextMatcher, textPattern } from '../derive/slotText';
import type { ClusterEntry } from './ClusterEntry';
import { ClusterPart, Kept, KeptPart, PageParts, partKeyOf, Place } from './PageParts';
import type { TextMatches } from './TextMatches';

function compareAsc(a: Place, b: Place): number {
  if (a.value !== b.value) return a.value < b.value ? -1 : 1;
  if (a.cluster !== b.cluster) return a.cluster < b.cluster ? -1 : 1;
  if (a.rank === b.rank) return 0;
  return a.rank < b.rank ? -1 : 1;
}

/**
 * The order of the fleet's clusters in key order. A key starts with its cluster's name and `/` (rules §1), so
 * keys of two clusters compare as `name/` does; `cluster` sorts by the bare name, which orders `a` and `a-b` the
 * other way round.
 */
function clusterOrders(all: readonly ClusterEntry[]) {
  const prefixes = all.map(e => `${e.name}/`).sort();
  const names = all.map(e => e.name).sort();
  return {
    prefixes,
    keyPlace: new Map(prefixes.map((p, i) => [p.slice(0, -1), i])),
    names,
    namePlace: new Map(names.map((n, i) => [n, i])),
  };
}

/**
 * One page of the objects matching a query across the clusters of `all` (those of its `cluster` filter), in the
 * query's order, after its cursor (docs/api.md): each cluster's column scan ({@link ClusterView.forEachMatch})
 * offers the slots that pass the filters; a bounded heap of `limit` places keeps each cluster's first after the
 * cursor, compared as numbers, and a merge of those parts the page (a cluster's part of a first page is kept in
 * `parts` for callers that may read everything, and brought up to date from the slots that changed when the
 * cluster changed: {@link updatedPart}); free text is read from
 * `textMatches` when given (kept per text, updated as objects change); only the page's objects become
 * {@link IndexedObject}s (and each object the caller's `readable` asks about). The answer is the one a full sort
 * of every match would give; the cursor is a position (sort value and key), so a page after a change neither
 * repeats nor skips an object that did not change.
 */
export function objectPage(
  all: readonly ClusterEntry[],
  query: ObjectQuery,
  readable?: (o: IndexedObject) => boolean,
  textMatches?: TextMatches,
  parts?: PageParts,
): ObjectPage {
  const sort: SortField = query.sort ?? 'key';
  const order = query.order ?? 'asc';
  const limit = Math.min(Math.max(query.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
  /**
   * How many places a cluster's kept part of a first page holds: the page's, and up to 100 more, so that objects
   * leaving the first ones seldom empty it before the cluster is scanned again (at most 10 % more for the largest
   * pages, whose parts are the largest kept).
   */
  const keptCount = limit + Math.min(limit, 100);
  const sign = order === 'desc' ? -1 : 1;
  const compare = (a: Place, b: Place) => sign * compareAsc(a, b);
  const clusters = clusterOrders(all);

  const after = query.cursor ? placeOfCursor(decodeCursor(query.cursor, sort, order)) : undefined;
  function placeOfCursor(position: { value: string | number; key: string }): Place {
    const { key } = position;
    const slash = key.indexOf('/');
    const cluster = slash > 0 ? clusters.keyPlace.get(key.slice(0, slash)) : undefined;
    const entry = cluster === undefined ? undefined : all.find(e => e.name === key.slice(0, slash));
    const keyPlace = entry
      ? { cluster: cluster!, rank: keyOrderOf(entry.view).positionOf(key) }
      : // a key of no cluster of the fleet: before or after all the keys of each cluster, as its prefix says
        { cluster: rankIn(clusters.prefixes, key), rank: 0 };
    let value: number | string;
    if (sort === 'cluster') value = rankIn(clusters.names, String(position.value));
    else if (sort === 'kind') value = rankIn(KINDS_BY_NAME, String(position.value));
    else if (sort === 'key') value = 0;
    else value = position.value;
    return { value, ...keyPlace };
  }

  const lists: (readonly Kept[])[] = [];
  const counts = { total: 0, after: 0 };
  const pattern = textPattern(query.q);
  // a first page the caller may read whole is the same for everyone: each cluster's part is kept, and brought up
  // to date from the slots that changed when the cluster changed
  const partKey = parts && !after && !readable ? partKeyOf(query, limit) : undefined;
  const entries = query.cluster?.length ? all.filter(e => query.cluster!.includes(e.name)) : all;
  for (const entry of entries) {
    let part: ClusterPart | undefined;
    if (partKey === undefined) {
      part = clusterPart(entry, limit);
    } else {
      part = parts!.get(entry, partKey);
      if (!part) {
        const kept = parts!.kept(entry, partKey);
        const fresh = (kept && updatedPart(entry, kept)) ?? keptPart(entry);
        parts!.set(entry, partKey, fresh);
        part = fresh;
      }
    }
    counts.total += part.total;
    counts.after += part.after;
    if (part.kept.length > 0) lists.push(part.kept);
  }

  /** What the parts of one cluster compare and test: its order, free text and filters, and each slot's place. */
  function clusterReading(entry: ClusterEntry) {
    const { view } = entry;
    const keys = keyOrderOf(view);
    const text =
      pattern &&
      (textMatches ? textMatches.matcher(entry, query.q!.trim(), pattern) : slotTextMatcher(view, pattern));
    const cluster = clusters.keyPlace.get(entry.name)!;
    const clusterName = clusters.namePlace.get(entry.name)!;
    const valueOf = (slot: number): number | string => {
      switch (sort) {
        case 'name':
          return view.nameAt(slot);
        case 'state':
          return SEVERITY_BY_STATE_CODE[view.stateCodeOf(slot)];
        case 'updatedAt':
          return view.updatedAtOf(slot);
        case 'cluster':
          return clusterName;
        case 'kind':
          return KIND_RANK_BY_CODE[view.kindCodeOf(slot)];
        default:
          return 0;
      }
    };
    /** Writes the place of a slot into `into`. */
    const place = (slot: number, into: Place) => {
      into.value = valueOf(slot);
      into.cluster = cluster;
      into.rank = keys.rankOf(slot);
    };
    return { view, text, place };
  }

  /**
   * One cluster's part of the page: its matches counted, and the first `keep` of them after the cursor (`onMatch`
   * hears of every match).
   */
  function clusterPart(entry: ClusterEntry, keepCount: number, onMatch?: (slot: number) => void): ClusterPart {
    const { view, text, place } = clusterReading(entry);
    const kept: Kept[] = [];
    const probe: Place = { value: 0, cluster: 0, rank: 0 };
    const part = { total: 0, after: 0, kept };
    view.forEachMatch(query, slot => {
      if (text && !text(slot)) return;
      if (readable && !readable(view.object(slot)!)) return;
      part.total++;
      onMatch?.(slot);
      // one probe for every match; a place is made only for those the page keeps
      place(slot, probe);
      if (after && compare(probe, after) <= 0) return;
      part.after++;
      if (kept.length === keepCount && compare(probe, kept[0]) >= 0) return;
      keep(kept, { ...probe, entry, slot }, keepCount);
    });
    kept.sort(compare);
    return part;
  }

  /** A cluster's part of a first page made from a scan, to be kept ({@link keptCount} places). */
  function keptPart(entry: ClusterEntry): KeptPart {
    const { view } = entry;
    const matched = new Uint32Array((view.table.slotLimit + 31) >>> 5);
    const part = clusterPart(entry, keptCount, slot => {
      matched[slot >>> 5] |= 1 << (slot & 31);
    });
    return {
      ...part,
      membership: view.membership,
      revision: view.revision,
      matched,
      ...(part.kept.length < part.total && { boundary: part.kept[part.kept.length - 1] }),
    };
  }

  /**
   * A kept part brought up to the cluster's view of now from the slots revised since it was made (every column a
   * query reads changes only with a slot's revision, `ViewColumns.revisionOf`): each is tested again, its count
   * and bit set anew, and its place taken out of the kept ones and put back where it now falls, if it falls
   * before the part's boundary. Undefined when a scan is needed: objects came or went (the key order and the
   * slots changed), many slots changed, or fewer than a page of places are left before the boundary.
   */
  function updatedPart(entry: ClusterEntry, old: KeptPart): KeptPart | undefined {
    const { view } = entry;
    if (old.membership !== view.membership) return undefined;
    const revised: number[] = [];
    view.forEachRevisedSince(old.revision, slot => {
      revised.push(slot);
    });
    // testing a slot again costs about what a scan spends on one: past a quarter of them, scan
    if (revised.length > (view.size >> 2) + 16) return undefined;
    // nothing the query reads changed (the cluster's health did, say): the part stands as it is
    if (revised.length === 0) return { ...old, revision: view.revision };
    const { text, place } = clusterReading(entry);
    const matched = old.matched.slice();
    const test = view.matchTest(query);
    const isRevised = new Set(revised);
    const kept = old.kept.filter(k => !isRevised.has(k.slot));
    let total = old.total;
    const added: Kept[] = [];
    for (const slot of revised) {
      const bit = 1 << (slot & 31);
      const was = (matched[slot >>> 5] & bit) !== 0;
      const now = test(slot) && (!text || text(slot));
      if (now) matched[slot >>> 5] |= bit;
      else matched[slot >>> 5] &= ~bit;
      total += Number(now) - Number(was);
      if (!now) continue;
      const k: Kept = { value: 0, cluster: 0, rank: 0, entry, slot };
      place(slot, k);
      if (!old.boundary || compare(k, old.boundary) <= 0) added.push(k);
    }
    const merged = added.length === 0 ? kept : [...kept, ...added].sort(compare);
    let boundary = old.boundary;
    if (merged.length > keptCount) {
      merged.length = keptCount;
      boundary = merged[merged.length - 1];
    }
    // every match before the boundary is kept: a page needs `limit` of them, or all there are
    if (boundary && merged.length < limit) return undefined;
    return {
      total,
      after: total,
      kept: merged,
      membership: view.membership,
      revision: view.revision,
      matched,
      ...(boundary && { boundary }),
    };
  }

  /** Keeps a place in a heap of at most `count` (its root the last of them), unless it comes after them all. */
  function keep(into: Kept[], place: Kept, count: number): void {
    if (into.length < count) siftUp(into, into.push(place) - 1, compare);
    else if (compare(place, into[0]) < 0) {
      into[0] = place;
      siftDown(into, 0, compare);
    }
  }

  const kept = mergeFirst(lists, limit, compare);
  const items = kept.map(k => k.entry.view.object(k.slot)!);
  const last = items[items.length - 1];
  return {
    items,
    totalCount: counts.total,
    ...(counts.after > items.length &&
      last && {
        nextCursor: encodeCursor(sort, order, { value: sortValue(last, sort), key: last.key }),
      }),
  };
}

/**
 * The first `limit` places of lists that are each in page order, in page order: a merge through a heap of each
 * list's next place, so a page of 100 from 20 clusters costs about 100 × log 20 comparisons. Offering every
 * cluster's places to one heap of `limit` cost 20 × 100 × log 100 when the clusters interleave (sorted by time or
 * name), 17 % of the route's CPU under the benchmark's fleet-wide filters at fleet M (profile of 2026-12-03).
 */
function mergeFirst(lists: readonly (readonly Kept[])[], limit: number, compare: (a: Place, b: Place) => number): Kept[] {
  const heads = lists.map(list => ({ list, at: 0 }));
  type Head = (typeof heads)[number];
  // siftDown keeps the greatest at the root: the head whose next place comes first is the greatest here
  const first = (a: Head, b: Head) => compare(b.list[b.at], a.list[a.at]);
  for (let i = (heads.length >> 1) - 1; i >= 0; i--) siftDown(heads, i, first);
  const out: Kept[] = [];
  while (out.length < limit && heads.length > 0) {
    const head = heads[0];
    out.push(head.list[head.at++]);
    if (head.at === head.list.length) {
      heads[0] = heads[heads.length - 1];
      heads.pop();
    }
    siftDown(heads, 0, first);
  }
  return out;
}

// a max-heap on the page order: the root is the last of the kept places
function siftUp(heap: Kept[], start: number, compare: (a: Place, b: Place) => number) {
  let i = start;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (compare(heap[i], heap[parent]) <= 0) return;
    [heap[i], heap[parent]] = [heap[parent], heap[i]];
    i = parent;
  }
}

function siftDown<T>(heap: T[], start: number, compare: (a: T, b: T) => number) {
  let i = start;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let largest = i;
    if (left < heap.length && compare(heap[left], heap[largest]) > 0) largest = left;
    if (right < heap.length && compare(heap[right], heap[largest]) > 0) largest = right;
    if (largest === i) return;
    [heap[i], heap[largest]] = [heap[largest], heap[i]];
    i = largest;
  }
}
