import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Chip from '@material-ui/core/Chip';
import Link from '@material-ui/core/Link';
import Paper from '@material-ui/core/Paper';
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
import { objectTitle } from '../../lib/objectKey';
import { ObjectFilters } from '../FleetObjectsTable';
import { LoadError } from '../shared/LoadError';
import { useRefreshOn } from './useRefreshOn';

/** How many findings of one type are listed before "show its objects". */
const LISTED_PER_TYPE = 10;

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/**
 * The fleet's findings grouped by type, worst first: each group with its count, the first findings with their
 * message and a link to the object, and a button that filters the objects table to the group.
 *
 * Test ids: `flux-fleet-findings-panel`, `flux-fleet-findings-<type>`; buttons "Show objects: <label>".
 */
/**
 * The error chip in the error colour's dark shade with white text (#d32f2f, 5:1): the secondary colour it had
 * (#f50057) gave its small label 4.18:1, under axe's 4.5:1.
 */
const useStyles = makeStyles(theme => ({
  errorChip: { backgroundColor: theme.palette.error.dark, color: theme.palette.common.white },
}));

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
    groups.set(finding.type, [...(groups.get(finding.type) ?? []), finding]);
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
  return (
    <Box
      data-testid="flux-fleet-findings-panel"
      display="flex"
      flexDirection="column"
      style={{ gap: 16 }}
    >
      {types.map(type => {
        const list = groups.get(type)!;
        const severity = list[0].severity;
        return (
          <Paper key={type} data-testid={`flux-fleet-findings-${type}`}>
            <Box p={2}>
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
              <Box component="ul" pl={2} mb={0}>
                {list.slice(0, LISTED_PER_TYPE).map((finding, index) => (
                  <li key={index}>
                    <Typography variant="body2" component="span">
                      {finding.message}
                    </Typography>{' '}
                    {finding.object && (
                      <Link
                        component="button"
                        variant="body2"
                        onClick={() => props.onOpen(finding.object!)}
                        // the link's own words in its name (axe: label-content-name-mismatch)
                        aria-label={`Details of ${finding.object.cluster}/${objectTitle(finding.object)}`}
                      >
                        {finding.object.cluster}/{objectTitle(finding.object)}
                      </Link>
                    )}
                    {finding.shard && (
                      <Link
                        component="button"
                        variant="body2"
                        onClick={() =>
                          props.onObjects({
                            cluster: [finding.shard!.cluster],
                            instance: [finding.shard!.instance],
                            shard: [finding.shard!.shard],
                          })
                        }
                      >
                        objects of {finding.shard.cluster}/
                        {finding.shard.instance}/{finding.shard.shard}
                      </Link>
                    )}
                  </li>
                ))}
              </Box>
              {list.length > LISTED_PER_TYPE && (
                <Typography variant="body2" color="textSecondary">
                  And {list.length - LISTED_PER_TYPE} more.
                </Typography>
              )}
            </Box>
          </Paper>
        );
      })}
    </Box>
  );
};
