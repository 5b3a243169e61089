import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Chip from '@material-ui/core/Chip';
import Typography from '@material-ui/core/Typography';
import {
  RECONCILE_STATES,
  ReconcileStateName,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';
import { errorMessage } from '../../lib/errorMessage';
import { STATE_LABEL, STATE_TONE } from '../../lib/stateText';
import { StatusTone } from '../shared/StatusTone';
import { useRefreshOn } from './useRefreshOn';

const format = (n: number) => n.toLocaleString('en-US');

/**
 * The fleet at a glance: how many clusters (and how many unreachable), instances, shards, objects and tenants, and
 * the objects per reconcile state, each state a shortcut to the objects in it.
 *
 * Test ids: `flux-fleet-summary`; state chips are named "<State>: <count>".
 */
export const FleetSummaryBar = (props: {
  refreshTick: number;
  onState: (state: ReconcileStateName) => void;
}) => {
  const api = useApi(fluxFleetApiRef);
  const summary = useRefreshable(() => api.getSummary(), [api]);
  useRefreshOn(props.refreshTick, summary.refresh);
  const value = summary.value;
  if (!value) {
    return (
      <Typography
        variant="body2"
        color={summary.error ? 'error' : 'textSecondary'}
        data-testid="flux-fleet-summary"
      >
        {summary.error
          ? `Could not read the fleet summary: ${errorMessage(summary.error)}`
          : 'Reading the fleet…'}
      </Typography>
    );
  }
  return (
    <Box data-testid="flux-fleet-summary" mb={2}>
      <Typography variant="body1">
        {format(value.clusters)} clusters
        {value.clustersUnreachable > 0 && (
          <Typography component="span" color="error">
            {' '}
            ({format(value.clustersUnreachable)} unreachable)
          </Typography>
        )}
        {' · '}
        {format(value.instances)} instances · {format(value.shards)} shards ·{' '}
        {format(value.objects)} Flux objects · {format(value.tenants)} tenants
      </Typography>
      <Box display="flex" flexWrap="wrap" mt={1} style={{ gap: 8 }}>
        {RECONCILE_STATES.filter(s => (value.countsByState[s] ?? 0) > 0).map(
          state => (
            <Chip
              key={state}
              size="small"
              clickable
              variant="outlined"
              onClick={() => props.onState(state)}
              label={
                <StatusTone tone={STATE_TONE[state]}>
                  {`${STATE_LABEL[state]}: ${format(
                    value.countsByState[state] ?? 0,
                  )}`}
                </StatusTone>
              }
            />
          ),
        )}
      </Box>
    </Box>
  );
};
