import Box from '@material-ui/core/Box';
import ButtonBase from '@material-ui/core/ButtonBase';
import { alpha, makeStyles } from '@material-ui/core/styles';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import {
  EntityClusterHealth,
  FleetObject,
  FluxObjectRef,
  RECONCILER_KINDS,
  shortRevision,
} from '@flux-fleet/plugin-flux-fleet-common';
import { memo } from 'react';
import { compareEnvironments, environmentOf } from '../../lib/deployAnswer';
import { STATE_LABEL, STATE_TONE } from '../../lib/stateText';
import { StatusTone, useToneColor } from '../shared/StatusTone';

const useStyles = makeStyles(theme => ({
  table: {
    '& th, & td': {
      whiteSpace: 'nowrap',
      wordBreak: 'normal',
      padding: theme.spacing(0.5, 1),
    },
  },
  rowName: {
    maxWidth: '18em',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  cell: {
    width: '100%',
    justifyContent: 'flex-start',
    padding: theme.spacing(0.25, 0.75),
    borderRadius: theme.shape.borderRadius,
    fontFamily: 'monospace',
    fontSize: '0.8rem',
    color: theme.palette.text.primary,
  },
}));

/** One reconciler of the service (same kind, namespace and name) across clusters. */
interface MatrixRow {
  id: string;
  label: string;
  byCluster: Map<string, FleetObject>;
}

function rowsOf(objects: readonly FleetObject[]): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  for (const o of objects) {
    if (!RECONCILER_KINDS.includes(o.ref.kind)) continue;
    const id = `${o.ref.kind}/${o.ref.namespace}/${o.ref.name}`;
    const row = rows.get(id) ?? {
      id,
      label: `${o.ref.kind} ${o.ref.namespace}/${o.ref.name}`,
      byCluster: new Map(),
    };
    row.byCluster.set(o.ref.cluster, o);
    rows.set(id, row);
  }
  return [...rows.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * "Where is this revision running?": the service's reconcilers (rows) by cluster (columns, grouped by
 * environment), each cell the revision applied there, coloured by its reconcile state; a cell opens the object.
 * The same revision reads the same across a row, so a cluster behind the others stands out.
 *
 * Test ids: `flux-fleet-revision-matrix`, `flux-fleet-matrix-cell-<key>`.
 */
export const RevisionMatrix = memo(
  (props: {
    objects: readonly FleetObject[];
    clusters: readonly EntityClusterHealth[];
    onOpen?: (ref: FluxObjectRef) => void;
  }) => {
    const classes = useStyles();
    const color = useToneColor();
    const rows = rowsOf(props.objects);
    if (rows.length === 0) return null;
    const clusterNames = [
      ...new Set(props.objects.map(o => o.ref.cluster)),
    ].map(name => ({
      name,
      environment: environmentOf(
        name,
        props.clusters.find(c => c.name === name),
      ),
    }));
    clusterNames.sort(
      (a, b) =>
        compareEnvironments(a.environment, b.environment) ||
        a.name.localeCompare(b.name),
    );
    const environments = [...new Set(clusterNames.map(c => c.environment))];
    return (
      <Box data-testid="flux-fleet-revision-matrix" mb={2} overflow="auto">
        <Typography variant="h6" component="h2" gutterBottom>
          Where is each revision running?
        </Typography>
        <Table
          size="small"
          className={classes.table}
          aria-label="Revision matrix"
        >
          <TableHead>
            <TableRow>
              <TableCell rowSpan={2}>Reconciler</TableCell>
              {environments.map(env => (
                <TableCell
                  key={env}
                  colSpan={
                    clusterNames.filter(c => c.environment === env).length
                  }
                  align="center"
                >
                  {env}
                </TableCell>
              ))}
            </TableRow>
            <TableRow>
              {clusterNames.map(c => (
                <TableCell key={c.name}>{c.name}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map(row => (
              <TableRow key={row.id}>
                <TableCell
                  component="th"
                  scope="row"
                  className={classes.rowName}
                  title={row.label}
                >
                  {row.label}
                </TableCell>
                {clusterNames.map(c => {
                  const o = row.byCluster.get(c.name);
                  if (!o) {
                    return (
                      <TableCell key={c.name}>
                        <Typography variant="caption" color="textSecondary">
                          not here
                        </Typography>
                      </TableCell>
                    );
                  }
                  const tone = STATE_TONE[o.state.state];
                  const title = `${STATE_LABEL[o.state.state]}${
                    o.stale ? ' (last known: cluster unreachable)' : ''
                  } · ${o.state.revision ?? 'no revision applied yet'}`;
                  return (
                    <TableCell key={c.name}>
                      <Tooltip title={title}>
                        <ButtonBase
                          className={classes.cell}
                          style={{
                            backgroundColor: alpha(color(tone), 0.18),
                            borderLeft: `4px solid ${color(tone)}`,
                            opacity: o.stale ? 0.6 : 1,
                          }}
                          onClick={() => props.onOpen?.(o.ref)}
                          aria-label={`${
                            o.state.revision
                              ? shortRevision(o.state.revision)
                              : '—'
                          }: ${row.label} in ${c.name}, ${title}`}
                          data-testid={`flux-fleet-matrix-cell-${o.key}`}
                        >
                          <StatusTone tone={tone}>
                            {o.state.revision
                              ? shortRevision(o.state.revision)
                              : '—'}
                          </StatusTone>
                        </ButtonBase>
                      </Tooltip>
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    );
  },
);
