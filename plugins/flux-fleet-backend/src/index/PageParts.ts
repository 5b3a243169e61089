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

/** One cluster's part of a first page: how many of its objects match, and the first `limit` of them. */
export interface ClusterPart {
  total: number;
  after: number;
  /** Its first `limit` places, in page order. */
  readonly kept: readonly Kept[];
}

/** How many distinct queries keep their parts: those of the fleet page's filters, and more. */
const MAX_QUERIES = 64;

/** What a cluster's part depends on in a query: everything but the clusters asked for (and no cursor). */
export function partKeyOf(query: ObjectQuery, limit: number): string {
  const { cluster: _clusters, cursor: _cursor, limit: _limit, ...rest } = query;
  return JSON.stringify([limit, Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1))]);
}

/**
 * The parts of first pages that each cluster gave, kept while the cluster's view stays the same (its version).
 * The same fleet-wide question (the failed HelmReleases; "api" by name) is asked again and again, by every open
 * fleet page and script, while each cluster changes a few times a second: answering it then scans again only the
 * clusters that changed since. At fleet M under the benchmark's churn (5 changes a second per cluster) scanning
 * every cluster for every query was most of what was left of a fleet-wide filter's time after each object's JSON
 * was kept (`ObjectJsonCache`): 46 % of the backend's samples (profile of 2026-12-02).
 */
export class PageParts {
  private readonly byQuery = new Map<string, Map<ClusterEntry, { version: number; part: ClusterPart }>>();

  constructor(private readonly maxQueries = MAX_QUERIES) {}

  get(entry: ClusterEntry, key: string): ClusterPart | undefined {
    const found = this.byQuery.get(key)?.get(entry);
    return found?.version === entry.version ? found.part : undefined;
  }

  set(entry: ClusterEntry, key: string, part: ClusterPart): void {
    let parts = this.byQuery.get(key);
    if (!parts) {
      // the query kept first goes first (a Map keeps insertion order)
      if (this.byQuery.size >= this.maxQueries) this.byQuery.delete(this.byQuery.keys().next().value!);
      parts = new Map();
      this.byQuery.set(key, parts);
    }
    parts.set(entry, { version: entry.version, part });
  }
}
