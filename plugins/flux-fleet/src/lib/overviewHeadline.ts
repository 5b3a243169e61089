import { ClusterHealth, FleetSummary, ReconcileStateName } from '@flux-fleet/plugin-flux-fleet-common';
import { TROUBLE_STATES } from './stateText';
import { namedUpTo, NO_CLUSTERS, plural } from './words';


/** How many clusters the sentence names before "and N more". */
const NAMED = 3;

/**
 * The overview's answer in one sentence: how many objects failed, blocked or stalled (the fleet summary's counts, as
 * the summary bar shows them), on how many clusters and where most are (the health map's counts: objects per cluster
 * and state); and which clusters cannot be read now, whose counts are as last seen ("209 of 2,202 Flux objects
 * failed, blocked or stalled, on 2 of 3 clusters; most on prod-eu-west-1 (64).").
 */
export function overviewHeadline(
  summary: Pick<FleetSummary, 'objects' | 'countsByState'>,
  counts: ReadonlyMap<string, Partial<Record<ReconcileStateName, number>>>,
  clusters: readonly ClusterHealth[],
): string {
  if (clusters.length === 0) return NO_CLUSTERS;
  const troubleIn = (states: Partial<Record<ReconcileStateName, number>>) =>
    TROUBLE_STATES.reduce((sum, state) => sum + (states[state] ?? 0), 0);
  const trouble = troubleIn(summary.countsByState);
  const byCluster = [...counts]
    .map(([cluster, states]) => ({ cluster, n: troubleIn(states) }))
    .filter(c => c.n > 0)
    .sort((a, b) => b.n - a.n || a.cluster.localeCompare(b.cluster));
  const of = plural(clusters.length, 'cluster');
  let sentence: string;
  if (trouble === 0) {
    sentence = `None of the ${plural(summary.objects, 'Flux object')} on ${of} failed, blocked or stalled.`;
  } else {
    const objects = `${trouble.toLocaleString('en-US')} of ${plural(summary.objects, 'Flux object')}`;
    let where = '';
    if (byCluster.length === 1) where = `, all on ${byCluster[0].cluster}`;
    else if (byCluster.length > 1) {
      where = `, on ${byCluster.length} of ${of}; most on ${byCluster[0].cluster} (${byCluster[0].n.toLocaleString('en-US')})`;
    }
    sentence = `${objects} failed, blocked or stalled${where}.`;
  }
  const unread = clusters
    .filter(c => c.status === 'unreachable' || c.status === 'unauthorized')
    .map(c => c.name)
    .sort();
  if (unread.length > 0) {
    sentence += ` ${namedUpTo(unread, NAMED)} cannot be read now: ${
      unread.length === 1 ? 'its objects are' : 'their objects are'
    } counted as last seen.`;
  }
  return sentence;
}
