import type { ObjectQuery } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterEntry } from './ClusterEntry';

/**
 * An object's place in a sorted list, as numbers where they can be: the sort value (a number, or the name for
 * `sort=name`), then the key as its cluster's place in key order and its rank in its cluster's key order.
 * Comparing these compares (sort value, key) as the API defines the order, without reading a key string.
 */
export interface Place {
  value: number | string;
  cluster: number;
  rank: number;
}

/** A place the page keeps, with the object it is of. */
export interface Kept extends Place {
  entry: ClusterEntry;
  slot: number;
}

/** One cluster's part of a page: how many of its objects match (and come after the cursor), and its first places. */
export interface ClusterPart {
  total: number;
  after: number;
  /** Its first places (at least the page's `limit` of them, unless it has fewer), in page order. */
  readonly kept: readonly Kept[];
}

/**
 * A cluster's part of a first page as kept between questions, with what brings it up to date when the cluster
 * changed: which slots matched, the view's revision and membership it was made at, and where what it keeps ends.
 */
export interface KeptPart extends ClusterPart {
  /** The view's `membership` it was made at: objects that came or went make it again from a scan. */
  readonly membership: number;
  /** The view's `revision` it was made at: the slots revised since are tested again. */
  readonly revision: number;
  /** One bit per slot that matched. */
  readonly matched: Uint32Array;
  /**
   * The place of the last match it kept when it did not keep them all: every match it does not keep comes after
   * it. Undefined: it keeps every match.
   */
  readonly boundary?: Place;
}

/** How many distinct queries keep their parts: those of the fleet page's filters, and more. */
const MAX_QUERIES = 64;

/**
 * How many places the parts of every query keep in all (about 64 bytes each, and a bit per slot of each cluster
 * besides): 64 queries of 1,000 places over 100 clusters would keep seven million; the fleet page's three queries of
 * 100 over 100 clusters keep 60,000.
 */
const MAX_PLACES = 1_000_000;

/** What a cluster's part depends on in a query: everything but the clusters asked for (and no cursor). */
export function partKeyOf(query: ObjectQuery, limit: number): string {
  const { cluster: _clusters, cursor: _cursor, limit: _limit, ...rest } = query;
  return JSON.stringify([limit, Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1))]);
}

/**
 * The parts of first pages that each cluster gave, with the cluster's version they are of. The same fleet-wide
 * question (the failed HelmReleases; "api" by name) is asked again and again, by every open fleet page and script,
 * while each cluster changes a few times a second: a part of a cluster that did not change is answered as it is,
 * and one of a cluster that changed is brought up to date from the slots that changed (`objectPage`). At fleet M
 * under the benchmark's churn (5 changes a second per cluster) scanning every cluster for every query was most of
 * what was left of a fleet-wide filter's time after each object's JSON was kept (`ObjectJsonCache`): 46 % of the
 * backend's samples (profile of 2026-12-02).
 */
export class PageParts {
  private readonly byQuery = new Map<
    string,
    { places: number; parts: Map<ClusterEntry, { version: number; part: KeptPart }> }
  >();
  private places = 0;

  constructor(
    private readonly maxQueries = MAX_QUERIES,
    private readonly maxPlaces = MAX_PLACES,
  ) {}

  /** The cluster's part, when it is of the cluster's version now. */
  get(entry: ClusterEntry, key: string): KeptPart | undefined {
    const found = this.byQuery.get(key)?.parts.get(entry);
    return found?.version === entry.version ? found.part : undefined;
  }

  /** The cluster's part of whatever version it was made at. */
  kept(entry: ClusterEntry, key: string): KeptPart | undefined {
    return this.byQuery.get(key)?.parts.get(entry)?.part;
  }

  set(entry: ClusterEntry, key: string, part: KeptPart): void {
    let query = this.byQuery.get(key);
    if (!query) {
      query = { places: 0, parts: new Map() };
      this.byQuery.set(key, query);
    }
    const before = query.parts.get(entry)?.part.kept.length ?? 0;
    query.parts.set(entry, { version: entry.version, part });
    query.places += part.kept.length - before;
    this.places += part.kept.length - before;
    // the query kept first goes first (a Map keeps insertion order), never the one being answered
    while (this.byQuery.size > 1 && (this.byQuery.size > this.maxQueries || this.places > this.maxPlaces)) {
      const [oldest, dropped] = this.byQuery.entries().next().value!;
      if (oldest === key) break;
      this.byQuery.delete(oldest);
      this.places -= dropped.places;
    }
  }

  /** How many queries keep parts, and how many places they keep in all. */
  get size(): { queries: number; places: number } {
    return { queries: this.byQuery.size, places: this.places };
  }
}
