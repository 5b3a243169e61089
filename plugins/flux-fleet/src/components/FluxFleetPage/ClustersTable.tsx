import { Table, TableColumn } from '@backstage/core-components';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import {
  ClusterHealth,
  ClusterStatus,
} from '@flux-fleet/plugin-flux-fleet-common';
import { clustersHeadline } from '../../lib/clustersHeadline';
import { StateTone } from '../../lib/stateText';
import { Age, RelativeTime } from '../shared/RelativeTime';
import { MalformedObjectsNote } from '../shared/MalformedObjectsNote';
import { StatusTone } from '../shared/StatusTone';
import { NOWRAP_CELL, TruncatedText } from '../shared/TruncatedText';
import { SecondLine, WholeWords } from '../shared/WholeItems';

const STATUS: Record<ClusterStatus, { tone: StateTone; label: string }> = {
  synced: { tone: 'ok', label: 'Synced' },
  syncing: { tone: 'pending', label: 'Syncing' },
  lagging: { tone: 'warning', label: 'Lagging' },
  restored: { tone: 'warning', label: 'Restored from snapshot' },
  unreachable: { tone: 'error', label: 'Unreachable' },
  unauthorized: { tone: 'error', label: 'Credentials refused' },
};

/** How many kinds the clusters table names before "and N more kinds". */
const KINDS_SHOWN = 2;

/** The most numerous kinds first: `Kustomization 320, GitRepository 120, … and 12 more kinds`. */
function kindCounts(
  counts: ClusterHealth['countsByKind'],
  shownCount = KINDS_SHOWN,
): string {
  const entries = Object.entries(counts)
    .filter(([, n]) => (n ?? 0) > 0)
    .sort(([a, x], [b, y]) => (y ?? 0) - (x ?? 0) || a.localeCompare(b));
  const shown = entries
    .slice(0, shownCount)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const more = entries.length - shownCount;
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
 * The health of every configured cluster, led by one sentence (all synced, or which are not, worst first): status, object counts, last event and lag, since when it is unreachable and
 * its last error. A cluster's name filters the objects to it.
 *
 * Test ids: `flux-fleet-clusters`, `flux-fleet-clusters-headline`; each name is a button "Objects of cluster <name>".
 */
export const ClustersTable = (props: {
  clusters: ClusterHealth[];
  onCluster: (cluster: string) => void;
}) => {
  const columns: TableColumn<ClusterHealth>[] = [
    {
      title: 'Cluster',
      field: 'name',
      cellStyle: NOWRAP_CELL,
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
      cellStyle: NOWRAP_CELL,
      render: c => {
        const { tone, label } = STATUS[c.status] ?? STATUS.syncing;
        return (
          <StatusTone tone={tone}>
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
            <MalformedObjectsNote cluster={c.name} count={c.malformedCount} />
          </StatusTone>
        );
      },
    },
    { title: 'Flux objects', field: 'objectCount', type: 'numeric' },
    {
      title: 'By kind',
      cellStyle: NOWRAP_CELL,
      render: c => (
        <TruncatedText
          text={kindCounts(c.countsByKind, Infinity)}
          // narrow enough that the table fits 1280 px: the whole list is in the tooltip
          maxWidth="13em"
        >
          {kindCounts(c.countsByKind)}
        </TruncatedText>
      ),
    },
    {
      title: 'Flux',
      cellStyle: NOWRAP_CELL,
      render: c => c.fluxVersions.join(', ') || '—',
    },
    {
      // the lag under the last event: a column of its own pushed the table past the page at 1280 px
      title: 'Last event',
      field: 'lastEventAt',
      cellStyle: NOWRAP_CELL,
      render: c => (
        <>
          {c.lastEventAt ? <RelativeTime time={c.lastEventAt} /> : '—'}
          <SecondLine>lag {lagText(c.lagMs)}</SecondLine>
        </>
      ),
    },
    {
      title: 'Last error',
      field: 'lastError',
      emptyValue: '—',
      render: c =>
        c.lastError ? (
          <TruncatedText text={c.lastError} maxWidth="12em" />
        ) : (
          '—'
        ),
    },
  ];
  return (
    <div data-testid="flux-fleet-clusters">
      {props.clusters.length > 0 && (
        <Typography variant="h6" component="p" gutterBottom data-testid="flux-fleet-clusters-headline">
          <WholeWords text={clustersHeadline(props.clusters)} />
        </Typography>
      )}
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
