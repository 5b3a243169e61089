import ButtonBase from '@material-ui/core/ButtonBase';
import { alpha, makeStyles } from '@material-ui/core/styles';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import {
  ClusterHealth,
  RECONCILE_STATES,
  ReconcileStateName,
  ShardSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { STATE_LABEL, STATE_TONE } from '../../lib/stateText';
import { ObjectFilters } from '../FleetObjectsTable';
import { StatusTone, useToneColor } from '../shared/StatusTone';

const useStyles = makeStyles(theme => ({
  table: {
    '& th, & td': {
      whiteSpace: 'nowrap',
      wordBreak: 'normal',
      padding: theme.spacing(0.5, 1),
    },
  },
  count: {
    minWidth: '4.5em',
    justifyContent: 'flex-end',
    padding: theme.spacing(0.5, 1),
    borderRadius: theme.shape.borderRadius,
    fontVariantNumeric: 'tabular-nums',
    fontWeight: 'bold',
    color: theme.palette.text.primary,
  },
}));

/** Objects per cluster and reconcile state, summed over the cluster's shards (every owned object is on one). */
export function countsByClusterAndState(
  shards: readonly ShardSummary[],
): Map<string, Partial<Record<ReconcileStateName, number>>> {
  const counts = new Map<string, Partial<Record<ReconcileStateName, number>>>();
  for (const shard of shards) {
    const row = counts.get(shard.cluster) ?? {};
    for (const [state, n] of Object.entries(shard.countsByState)) {
      const s = state as ReconcileStateName;
      row[s] = (row[s] ?? 0) + (n ?? 0);
    }
    counts.set(shard.cluster, row);
  }
  return counts;
}

/**
 * The health map: a row per cluster, a column per reconcile state that occurs, each cell the count of objects in
 * that state, tinted by the state's colour; a count opens the objects table filtered to the cluster and state.
 * Counts are of the objects the shards own (orphans and contested objects are in the findings).
 *
 * Test ids: `flux-fleet-health-map`; counts are buttons "<count> <State> in <cluster>".
 */
export const HealthMap = (props: {
  clusters: readonly ClusterHealth[];
  shards: readonly ShardSummary[];
  onObjects: (filters: ObjectFilters) => void;
}) => {
  const classes = useStyles();
  const color = useToneColor();
  const counts = countsByClusterAndState(props.shards);
  const states = RECONCILE_STATES.filter(s =>
    [...counts.values()].some(row => (row[s] ?? 0) > 0),
  );
  return (
    <Table
      size="small"
      className={classes.table}
      aria-label="Objects per cluster and reconcile state"
      data-testid="flux-fleet-health-map"
    >
      <TableHead>
        <TableRow>
          <TableCell>Cluster</TableCell>
          {states.map(s => (
            <TableCell key={s} align="right">
              <StatusTone tone={STATE_TONE[s]}>{STATE_LABEL[s]}</StatusTone>
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {props.clusters.map(cluster => {
          const row = counts.get(cluster.name) ?? {};
          return (
            <TableRow key={cluster.name}>
              <TableCell component="th" scope="row">
                {cluster.name}
                {!cluster.synced && (
                  <Typography component="span" variant="caption" color="error">
                    {' '}
                    ({cluster.status}, last known)
                  </Typography>
                )}
              </TableCell>
              {states.map(s => {
                const n = row[s] ?? 0;
                const tone = STATE_TONE[s];
                return (
                  <TableCell key={s} align="right">
                    {n > 0 ? (
                      <ButtonBase
                        className={classes.count}
                        style={{
                          backgroundColor:
                            tone === 'ok'
                              ? 'transparent'
                              : alpha(color(tone), 0.2),
                          borderLeft: `4px solid ${color(tone)}`,
                        }}
                        onClick={() =>
                          props.onObjects({
                            cluster: [cluster.name],
                            state: [s],
                          })
                        }
                        aria-label={`${n} ${STATE_LABEL[s]} in ${cluster.name}`}
                      >
                        {n.toLocaleString('en-US')}
                      </ButtonBase>
                    ) : (
                      <Typography variant="body2" color="textSecondary">
                        0
                      </Typography>
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
};
