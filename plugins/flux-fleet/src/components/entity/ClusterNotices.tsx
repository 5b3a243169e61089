import Box from '@material-ui/core/Box';
import Alert from '@material-ui/lab/Alert';
import { EntityClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';
import { ageOf } from '../../lib/relativeTime';

/** A lag in seconds, one decimal. */
function lagSeconds(ms: number | undefined): string {
  return `${((ms ?? 0) / 1000).toFixed(1)} s`;
}

/** " (Kustomization throttled, HelmRelease relisting)": what is behind and why (rules §15). */
function behindText(cluster: EntityClusterHealth): string {
  const behind = cluster.behind ?? [];
  return behind.length === 0 ? '' : ` (${behind.map(b => `${b.watch} ${b.reason}`).join(', ')})`;
}

/** What a cluster's health means for what the view shows, or nothing when it is synced. */
export function clusterNotice(
  cluster: EntityClusterHealth,
): { severity: 'error' | 'warning' | 'info'; text: string } | undefined {
  const since = cluster.unreachableSince
    ? ` for ${ageOf(cluster.unreachableSince)}`
    : '';
  const error = cluster.lastError ? ` (${cluster.lastError})` : '';
  switch (cluster.status) {
    case 'unreachable':
      return {
        severity: 'error',
        text: `Cluster ${cluster.name} cannot be reached${since}${error}: its objects show their last known state, marked stale.`,
      };
    case 'unauthorized':
      return {
        severity: 'error',
        text: `Cluster ${cluster.name} refuses the backend's credentials${since}${error}: its objects show their last known state, marked stale.`,
      };
    case 'syncing':
      return {
        severity: 'info',
        text: `Cluster ${cluster.name} is still being read${error}: some of its objects may be missing.`,
      };
    case 'lagging':
      return {
        severity: 'warning',
        text: `Cluster ${cluster.name} is followed with a lag of ${lagSeconds(cluster.lagMs)}${behindText(cluster)}${error}: its objects may be stale.`,
      };
    case 'restored':
      return {
        severity: 'info',
        text: `Cluster ${cluster.name} is shown from the last saved snapshot until its watches resync.`,
      };
    default:
      return undefined;
  }
}

/**
 * One notice per cluster that is not synced, naming it and its error, so a missing or stale cluster is never
 * silent; the other clusters' rows stay as they are.
 *
 * Test ids: `flux-fleet-cluster-notice-<cluster>`.
 */
export const ClusterNotices = (props: { clusters: EntityClusterHealth[] }) => {
  const notices = props.clusters
    .map(cluster => ({ cluster, notice: clusterNotice(cluster) }))
    .filter(n => n.notice)
    .sort((a, b) => a.cluster.name.localeCompare(b.cluster.name));
  if (notices.length === 0) {
    return null;
  }
  return (
    <Box display="flex" flexDirection="column" mb={2} style={{ gap: 8 }}>
      {notices.map(({ cluster, notice }) => (
        <Alert
          key={cluster.name}
          severity={notice!.severity}
          data-testid={`flux-fleet-cluster-notice-${cluster.name}`}
        >
          {notice!.text}
        </Alert>
      ))}
    </Box>
  );
};
