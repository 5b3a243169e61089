import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Chip from '@material-ui/core/Chip';
import Link from '@material-ui/core/Link';
import Paper from '@material-ui/core/Paper';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import {
  FINDING_TYPES,
  Finding,
  FindingType,
  FluxObjectRef,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';
import { FINDING_LABEL, INFERRED_FINDINGS } from '../../lib/findingText';
import { findingsHeadline } from '../../lib/findingsHeadline';
import { objectTitle } from '../../lib/objectKey';
import { ObjectFilters, shardFilters } from '../FleetObjectsTable';
import { LoadError } from '../shared/LoadError';
import { NOWRAP_CELL } from '../shared/TruncatedText';
import { BreakablePath, SecondLine, WholeWords, WORDS_CELL } from '../shared/WholeItems';
import { useRefreshOn } from './useRefreshOn';

/** How many findings of one type are listed before "show its objects". */
const LISTED_PER_TYPE = 10;

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/**
 * The error chip in the error colour's dark shade with white text (#d32f2f, 5:1): the secondary colour it had
 * (#f50057) gave its small label 4.18:1, under axe's 4.5:1.
 */
const useStyles = makeStyles(theme => ({
  errorChip: { backgroundColor: theme.palette.error.dark, color: theme.palette.common.white },
  top: { verticalAlign: 'top' },
  // an object's path may wrap after its slash; its column no wider than a long name needs
  about: { minWidth: 240, maxWidth: 320 },
}));

/** The cluster a finding is in: its object's, its shard's or its instance's. */
function findingCluster(finding: Finding): string {
  return finding.object?.cluster ?? finding.shard?.cluster ?? finding.instance?.cluster ?? '—';
}

/**
 * What a finding is about: the object (opens its detail), the shard (filters the objects to it) or the Flux
 * instance, with what it is on the line under it.
 */
const FindingSubject = (props: {
  finding: Finding;
  onOpen: (ref: FluxObjectRef) => void;
  onObjects: (filters: ObjectFilters) => void;
}) => {
  const { object, shard, instance } = props.finding;
  if (object) {
    return (
      <>
        <Link
          component="button"
          variant="body2"
          onClick={() => props.onOpen(object)}
          // the link's own words in its name (axe: label-content-name-mismatch)
          aria-label={`Details of ${object.cluster}/${objectTitle(object)}`}
          style={{ textAlign: 'left' }}
        >
          <BreakablePath parts={[object.namespace, object.name]} />
        </Link>
        <SecondLine>{object.kind}</SecondLine>
      </>
    );
  }
  if (shard) {
    return (
      <>
        <Link
          component="button"
          variant="body2"
          onClick={() => props.onObjects(shardFilters(shard.cluster, shard.instance, shard.shard))}
          aria-label={`Objects of shard ${shard.cluster}/${shard.instance}/${shard.shard}`}
          style={{ textAlign: 'left' }}
        >
          <BreakablePath parts={[shard.instance, shard.shard]} />
        </Link>
        <SecondLine>shard</SecondLine>
      </>
    );
  }
  if (instance) {
    return (
      <>
        <Typography variant="body2">{instance.instance}</Typography>
        <SecondLine>Flux instance</SecondLine>
      </>
    );
  }
  return <>—</>;
};

/**
 * The fleet's findings, led by one sentence (how many errors and warnings, what to fix first), grouped by type,
 * worst first: each group with its count, a table of its first findings (cluster, what it is about, why) and a
 * button that filters the objects table to the group.
 *
 * Test ids: `flux-fleet-findings-panel`, `flux-fleet-findings-headline`, `flux-fleet-findings-<type>`; buttons
 * "Show objects: <label>", "Details of <cluster>/<Kind> <namespace>/<name>", "Objects of shard <cluster>/<instance>/<shard>".
 */
export const FindingsPanel = (props: {
  refreshTick: number;
  onObjects: (filters: ObjectFilters) => void;
  onOpen: (ref: FluxObjectRef) => void;
}) => {
  const api = useApi(fluxFleetApiRef);
  const classes = useStyles();
  const findings = useRefreshable(() => api.getFindings(), [api]);
  useRefreshOn(props.refreshTick, findings.refresh);
  if (!findings.value) {
    return findings.error ? (
      <LoadError
        what="the findings"
        error={findings.error}
        onRetry={findings.refresh}
      />
    ) : (
      <Progress />
    );
  }
  const groups = new Map<FindingType, Finding[]>();
  for (const finding of findings.value) {
    // pushed, not spread: a fleet has thousands of findings of one type (a copy per finding was quadratic)
    const group = groups.get(finding.type);
    if (group) group.push(finding);
    else groups.set(finding.type, [finding]);
  }
  const types = FINDING_TYPES.filter(t => groups.has(t)).sort(
    (a, b) =>
      SEVERITY_ORDER[groups.get(a)![0].severity] -
        SEVERITY_ORDER[groups.get(b)![0].severity] ||
      groups.get(b)!.length - groups.get(a)!.length,
  );
  if (types.length === 0) {
    return (
      <Typography data-testid="flux-fleet-findings-panel">
        No findings: every object has one owner, its references resolve, and
        every tenant's boundary is enforced.
      </Typography>
    );
  }
  const headline = findingsHeadline(
    types.map(type => ({
      type,
      severity: groups.get(type)![0].severity,
      count: groups.get(type)!.length,
    })),
  );
  return (
    <Box
      data-testid="flux-fleet-findings-panel"
      display="flex"
      flexDirection="column"
      style={{ gap: 16 }}
    >
      <Typography variant="h6" component="p" data-testid="flux-fleet-findings-headline">
        <WholeWords text={headline} />
      </Typography>
      {types.map(type => {
        const list = groups.get(type)!;
        const severity = list[0].severity;
        return (
          <Paper key={type} data-testid={`flux-fleet-findings-${type}`}>
            <Box p={2} pb={1}>
              <Box display="flex" alignItems="center" style={{ gap: 16 }}>
                <Typography variant="h6" component="h3" style={{ flexGrow: 1 }}>
                  {FINDING_LABEL[type]} ({list.length})
                  {INFERRED_FINDINGS.includes(type) ? ' — inferred' : ''}
                </Typography>
                <Chip
                  size="small"
                  label={severity}
                  className={severity === 'error' ? classes.errorChip : undefined}
                />
                {type !== 'shard-over-capacity' && (
                  <Button
                    size="small"
                    variant="outlined"
                    aria-label={`Show objects: ${FINDING_LABEL[type]}`}
                    onClick={() => props.onObjects({ finding: [type] })}
                  >
                    Show objects
                  </Button>
                )}
              </Box>
            </Box>
            <Table size="small" aria-label={FINDING_LABEL[type]}>
              <TableHead>
                <TableRow>
                  <TableCell style={NOWRAP_CELL}>Cluster</TableCell>
                  <TableCell>About</TableCell>
                  <TableCell>Why</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.slice(0, LISTED_PER_TYPE).map((finding, index) => (
                  <TableRow key={index}>
                    <TableCell style={NOWRAP_CELL} className={classes.top}>
                      {findingCluster(finding)}
                    </TableCell>
                    <TableCell className={`${classes.top} ${classes.about}`}>
                      <FindingSubject
                        finding={finding}
                        onOpen={props.onOpen}
                        onObjects={props.onObjects}
                      />
                    </TableCell>
                    <TableCell className={classes.top} style={WORDS_CELL}>
                      <Typography variant="body2" component="span">
                        <WholeWords text={finding.message} />
                      </Typography>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {list.length > LISTED_PER_TYPE && (
              <Box px={2} py={1}>
                <Typography variant="body2" color="textSecondary">
                  And {list.length - LISTED_PER_TYPE} more: Show objects lists them all.
                </Typography>
              </Box>
            )}
          </Paper>
        );
      })}
    </Box>
  );
};
