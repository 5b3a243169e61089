import {
  StatusError,
  StatusOK,
  StatusPending,
  StatusWarning,
  Table,
  TableColumn,
} from '@backstage/core-components';
import Link from '@material-ui/core/Link';
import {
  ClusterHealth,
  ClusterStatus,
} from '@flux-fleet/plugin-flux-fleet-common';
import { ReactNode } from 'react';
import { Age, RelativeTime } from '../shared/RelativeTime';

const STATUS: Record<
  ClusterStatus,
  { Icon: (props: { children?: ReactNode }) => JSX.Element; label: string }
> = {
  synced: { Icon: StatusOK, label: 'Synced' },
  syncing: { Icon: StatusPending, label: 'Syncing' },
  restored: { Icon: StatusWarning, label: 'Restored from snapshot' },
  unreachable: { Icon: StatusError, label: 'Unreachable' },
  unauthorized: { Icon: StatusError, label: 'Credentials refused' },
};

/** How many kinds the clusters table names before "and N more kinds". */
const KINDS_SHOWN = 4;

/** The most numerous kinds first: `Kustomization 320, GitRepository 120, … and 12 more kinds`. */
function kindCounts(counts: ClusterHealth['countsByKind']): string {
  const entries = Object.entries(counts)
    .filter(([, n]) => (n ?? 0) > 0)
    .sort(([a, x], [b, y]) => (y ?? 0) - (x ?? 0) || a.localeCompare(b));
  const shown = entries
    .slice(0, KINDS_SHOWN)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const more = entries.length - KINDS_SHOWN;
  return more > 0 ? `${shown} and ${more} more kinds` : shown || '—';
}

/** Lag in words: milliseconds under a second, else seconds. */
function lagText(ms: number | undefined): string {
  if (ms === undefined) {
    return '—';
  }
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The health of every configured cluster: status, object counts, lag, last event, since when it is unreachable and
 * its last error. A cluster's name filters the objects to it.
 *
 * Test ids: `flux-fleet-clusters`; each name is a button "Objects of cluster <name>".
 */
export const ClustersTable = (props: {
  clusters: ClusterHealth[];
  onCluster: (cluster: string) => void;
}) => {
  const columns: TableColumn<ClusterHealth>[] = [
    {
      title: 'Cluster',
      field: 'name',
      render: c => (
        <Link
          component="button"
          variant="body2"
          onClick={() => props.onCluster(c.name)}
          aria-label={`Objects of cluster ${c.name}`}
        >
          {c.name}
        </Link>
      ),
    },
    {
      title: 'Status',
      field: 'status',
      render: c => {
        const { Icon, label } = STATUS[c.status] ?? STATUS.syncing;
        return (
          <Icon>
            {/* one span: the status component lays its children out as flex items */}
            <span>
              {label}
              {c.unreachableSince && (
                <>
                  {' for '}
                  <Age since={c.unreachableSince} />
                </>
              )}
              {c.readOnly ? ' · read-only' : ''}
            </span>
          </Icon>
        );
      },
    },
    { title: 'Flux objects', field: 'objectCount', type: 'numeric' },
    {
      title: 'By kind',
      render: c => kindCounts(c.countsByKind),
    },
    { title: 'Flux', render: c => c.fluxVersions.join(', ') || '—' },
    {
      title: 'Lag',
      field: 'lagMs',
      render: c => lagText(c.lagMs),
    },
    {
      title: 'Last event',
      field: 'lastEventAt',
      render: c =>
        c.lastEventAt ? <RelativeTime time={c.lastEventAt} /> : '—',
    },
    { title: 'Last error', field: 'lastError', emptyValue: '—' },
  ];
  return (
    <div data-testid="flux-fleet-clusters">
      <Table<ClusterHealth>
        title={`Clusters (${props.clusters.length})`}
        columns={columns}
        data={props.clusters}
        options={{
          paging: props.clusters.length > 50,
          pageSize: 50,
          padding: 'dense',
        }}
      />
    </div>
  );
};
