import { ClusterHealth, ClusterStatus } from '@flux-fleet/plugin-flux-fleet-common';
import { ageOf } from './relativeTime';
import { namedUpTo, NO_CLUSTERS } from './words';

/** Worst first: what a platform engineer must act on before what only waits. */
const RANK: Record<ClusterStatus, number> = {
  unauthorized: 0,
  unreachable: 1,
  lagging: 2,
  restored: 3,
  syncing: 4,
  synced: 5,
};

/** How many clusters the sentence names before "and N more". */
const NAMED = 3;

function problem(c: ClusterHealth, now: number): string {
  switch (c.status) {
    case 'unauthorized':
      return `${c.name} refuses Flux Fleet's credentials`;
    case 'unreachable':
      return `${c.name} unreachable${c.unreachableSince ? ` for ${ageOf(c.unreachableSince, now)}` : ''}`;
    case 'lagging':
      return `${c.name} lagging${c.lagMs !== undefined ? ` ${Math.round(c.lagMs / 1000)} s behind` : ''}`;
    case 'restored':
      return `${c.name} shown from its last snapshot`;
    default:
      return `${c.name} still listing`;
  }
}

/**
 * The Clusters tab's answer in one sentence: that every cluster is synced, or how many are and which are not, worst
 * first ("2 of 3 clusters synced; prod-eu-1 unreachable for 12 minutes, staging still listing.").
 */
export function clustersHeadline(clusters: readonly ClusterHealth[], now: number = Date.now()): string {
  if (clusters.length === 0) return NO_CLUSTERS;
  const of = `${clusters.length} cluster${clusters.length === 1 ? '' : 's'}`;
  const behind = clusters
    .filter(c => c.status !== 'synced')
    .sort((a, b) => RANK[a.status] - RANK[b.status] || a.name.localeCompare(b.name));
  if (behind.length === 0) return clusters.length === 1 ? 'The cluster is synced.' : `All ${of} synced.`;
  return `${clusters.length - behind.length} of ${of} synced; ${namedUpTo(
    behind.map(c => problem(c, now)),
    NAMED,
  )}.`;
}
