import { EmptyState } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Chip from '@material-ui/core/Chip';
import Link from '@material-ui/core/Link';
import { makeStyles } from '@material-ui/core/styles';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import Skeleton from '@material-ui/lab/Skeleton';
import {
  FluxObjectRef,
  InstanceVersionRow,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';
import { objectTitle } from '../../lib/objectKey';
import {
  behindText,
  blockerLines,
  migrateCommand,
  versionsHeadline,
  VERSION_SOURCE_WORDS,
} from '../../lib/versionText';
import { useRefreshOn } from '../FluxFleetPage/useRefreshOn';
import { LoadError } from '../shared/LoadError';
import { StatusTone } from '../shared/StatusTone';
import { CopyableCommand } from '../shared/CopyableCommand';
import { WholeWords } from '../shared/WholeItems';

const useStyles = makeStyles(theme => ({
  table: {
    tableLayout: 'auto',
    '& th, & td': { padding: theme.spacing(0.75, 1), wordBreak: 'normal' },
  },
  nowrap: { whiteSpace: 'nowrap' },
  chips: { display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1) },
}));

const EMPTY_HINT = (
  <Typography variant="body2" component="span">
    Flux Fleet reads each instance's version from its Flux Operator, its
    controllers' version label or their image versions. Check that the clusters
    in <code>fluxFleet.clusters</code> are reachable (the Clusters tab) and that
    Flux Fleet's credentials may <code>list</code> Deployments in the Flux
    namespaces and <code>customresourcedefinitions</code>.
  </Typography>
);

const VersionCell = (props: { row: InstanceVersionRow }) => {
  const { row } = props;
  if (!row.version) {
    return (
      <Typography variant="body2">
        unknown: no controller tells its Flux release
      </Typography>
    );
  }
  return (
    <>
      <Typography variant="body2" component="span">
        <strong>{row.version}</strong>
      </Typography>
      {row.source && (
        <Typography variant="caption" display="block">
          {VERSION_SOURCE_WORDS[row.source]}
        </Typography>
      )}
      {row.mixed && (
        <StatusTone tone="warning">
          controllers of different releases
        </StatusTone>
      )}
    </>
  );
};

const UpgradeCell = (props: { row: InstanceVersionRow }) => {
  const { row } = props;
  if (!row.nextMinor) {
    return row.version ? (
      <StatusTone tone="ok">on the latest minor</StatusTone>
    ) : (
      <>—</>
    );
  }
  if (row.blockers.length === 0) {
    return <StatusTone tone="ok">ready for Flux {row.nextMinor}</StatusTone>;
  }
  const command = migrateCommand(row);
  return (
    <Box data-testid={`flux-versions-blocked-${row.cluster}-${row.instance}`}>
      <StatusTone tone="error">
        blocked: Flux {row.nextMinor} no longer serves
      </StatusTone>
      {blockerLines(row.blockers).map(line => (
        <Typography key={line} variant="body2">
          {line}
        </Typography>
      ))}
      <CopyableCommand
        command={command}
        label={`Copy the flux migrate command for ${row.cluster}`}
      />
    </Box>
  );
};

/**
 * The Flux versions view of the fleet page (issue 15, rules §10): the sentence for the fleet, which clusters run
 * which release, per instance its version (and where it was read), how far behind the latest release it is, and
 * what blocks its next upgrade with the `flux migrate` command; then the objects written at a removed or
 * deprecated API version (`deprecated-api` findings), each opening its object.
 *
 * Test ids: `flux-versions`, `flux-versions-headline`, `flux-versions-row-<cluster>-<instance>`,
 * `flux-versions-blocked-<cluster>-<instance>`, `flux-versions-deprecated`.
 */
export const FluxVersionsView = (props: {
  refreshTick?: number;
  onOpen?: (ref: FluxObjectRef) => void;
}) => {
  const classes = useStyles();
  const api = useApi(fluxFleetApiRef);
  const view = useRefreshable(() => api.getVersions(), [api]);
  const deprecated = useRefreshable(
    () => api.getFindings({ type: ['deprecated-api'] }),
    [api],
  );
  useRefreshOn(props.refreshTick ?? 0, view.refresh);
  useRefreshOn(props.refreshTick ?? 0, deprecated.refresh);

  if (view.error && !view.value) {
    return (
      <LoadError
        what="the Flux versions of the fleet"
        error={view.error}
        onRetry={view.refresh}
      />
    );
  }
  if (!view.value) {
    return (
      <Box data-testid="flux-versions" aria-busy="true">
        <Skeleton variant="text" width="60%" height={32} />
        {[0, 1, 2, 3].map(n => (
          <Skeleton
            key={n}
            variant="rect"
            height={48}
            style={{ marginTop: 8 }}
          />
        ))}
      </Box>
    );
  }
  const { instances, clustersByVersion } = view.value;
  if (instances.length === 0) {
    return (
      <Box data-testid="flux-versions">
        <EmptyState
          missing="data"
          title="No Flux instance found yet"
          description={EMPTY_HINT}
        />
      </Box>
    );
  }
  const findings = deprecated.value ?? [];
  return (
    <Box data-testid="flux-versions">
      <Typography
        variant="subtitle1"
        component="p"
        data-testid="flux-versions-headline"
        style={{ fontWeight: 'bold' }}
      >
        <WholeWords text={versionsHeadline(view.value)} />
      </Typography>

      <Box mt={2} mb={2}>
        <Typography variant="h6" component="h2" gutterBottom>
          Which clusters run which release
        </Typography>
        <div className={classes.chips}>
          {Object.entries(clustersByVersion).map(([version, names]) => (
            <Chip
              key={version}
              variant="outlined"
              label={`${version}: ${names.join(', ')}`}
              title={`${
                version === 'unknown' ? 'No version known' : version
              } on ${names.length} cluster${names.length === 1 ? '' : 's'}`}
            />
          ))}
        </div>
      </Box>

      <Typography variant="h6" component="h2" gutterBottom>
        Upgrade readiness per instance
      </Typography>
      <Table
        size="small"
        className={classes.table}
        aria-label="Flux version and upgrade readiness per instance"
      >
        <TableHead>
          <TableRow>
            <TableCell>Cluster</TableCell>
            <TableCell>Instance</TableCell>
            <TableCell>Flux version</TableCell>
            <TableCell>Behind the latest ({view.value.latest})</TableCell>
            <TableCell>Next upgrade</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {instances.map(row => (
            <TableRow
              key={`${row.cluster}/${row.instance}`}
              data-testid={`flux-versions-row-${row.cluster}-${row.instance}`}
            >
              <TableCell className={classes.nowrap}>{row.cluster}</TableCell>
              <TableCell className={classes.nowrap}>{row.instance}</TableCell>
              <TableCell>
                <VersionCell row={row} />
              </TableCell>
              <TableCell className={classes.nowrap}>
                {behindText(row) ?? '—'}
              </TableCell>
              <TableCell>
                <UpgradeCell row={row} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>

      <Box mt={3} data-testid="flux-versions-deprecated">
        <Typography variant="h6" component="h2" gutterBottom>
          Objects written at a removed or deprecated API version
        </Typography>
        {deprecated.error && !deprecated.value && (
          <LoadError
            what="the deprecated-api findings"
            error={deprecated.error}
            onRetry={deprecated.refresh}
          />
        )}
        {deprecated.value && findings.length === 0 && (
          <Typography variant="body2">
            None: every Flux object was last written at an API version the
            latest Flux serves and prefers.
          </Typography>
        )}
        {findings.map(f => (
          <Typography
            key={`${f.object ? objectTitle(f.object) : ''}${f.object?.cluster}${
              f.message
            }`}
            variant="body2"
            gutterBottom
          >
            {f.object && (
              <Link
                component="button"
                variant="body2"
                onClick={() => props.onOpen?.(f.object!)}
                aria-label={`Details of ${objectTitle(f.object)} in ${
                  f.object.cluster
                }`}
              >
                {f.object.cluster}: {objectTitle(f.object)}
              </Link>
            )}{' '}
            — {f.message}
          </Typography>
        ))}
      </Box>
    </Box>
  );
};
