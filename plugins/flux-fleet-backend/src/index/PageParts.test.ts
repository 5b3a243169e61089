import type { ClusterEntry } from './ClusterEntry';
import { KeptPart, PageParts } from './PageParts';

/** A cluster entry as the parts read it: its version, by identity. */
const entry = (version = 1) => ({ version }) as unknown as ClusterEntry;

/** A kept part with `places` places. */
function part(places: number): KeptPart {
  const kept = Array.from({ length: places }, (_, slot) => ({ value: 0, cluster: 0, rank: slot, entry: entry(), slot }));
  return { total: places, after: places, kept, membership: 0, revision: 0, matched: new Uint32Array(1) };
}

describe('PageParts', () => {
  it('answers a part only while its cluster is at the version it was kept at, and keeps it for an update after', () => {
    const parts = new PageParts();
    const cluster = entry(3);
    const kept = part(2);
    parts.set(cluster, 'q', kept);
    expect(parts.get(cluster, 'q')).toBe(kept);
    (cluster as { version: number }).version = 4;
    expect(parts.get(cluster, 'q')).toBeUndefined();
    expect(parts.kept(cluster, 'q')).toBe(kept);
  });

  it('drops the queries kept first when there are more than it keeps', () => {
    const parts = new PageParts(2);
    const cluster = entry();
    for (const key of ['a', 'b', 'c']) parts.set(cluster, key, part(1));
    expect(parts.size).toEqual({ queries: 2, places: 2 });
    expect(parts.kept(cluster, 'a')).toBeUndefined();
    expect(parts.kept(cluster, 'c')).toBeDefined();
  });

  it('drops the queries kept first when their places exceed the bound, never the query being answered', () => {
    const parts = new PageParts(64, 1_000);
    const clusters = [entry(), entry(), entry()];
    // three queries of 3 × 200 places: the first goes when the second passes 1,000
    for (const key of ['a', 'b', 'c']) for (const c of clusters) parts.set(c, key, part(200));
    expect(parts.size).toEqual({ queries: 1, places: 600 });
    expect(parts.kept(clusters[0], 'c')).toBeDefined();
    // a part replaced counts its new places only
    parts.set(clusters[0], 'c', part(10));
    expect(parts.size).toEqual({ queries: 1, places: 410 });
    // one query over the bound on its own stays: it is the one being answered
    for (const c of [entry(), entry(), entry()]) parts.set(c, 'c', part(300));
    expect(parts.size).toEqual({ queries: 1, places: 1_310 });
  });
});
