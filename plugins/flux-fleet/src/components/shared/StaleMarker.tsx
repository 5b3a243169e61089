import Chip from '@material-ui/core/Chip';
import Tooltip from '@material-ui/core/Tooltip';
import WarningIcon from '@material-ui/icons/Warning';
import { ageOf } from '../../lib/relativeTime';

/**
 * Marks what is shown as the last known state of a cluster that cannot be reached, with how old it is.
 *
 * Test ids: `flux-fleet-stale`.
 */
export const StaleMarker = (props: { cluster: string; since?: string }) => {
  const { cluster, since } = props;
  const age = since ? ageOf(since) : undefined;
  const label = age ? `Stale for ${age}` : 'Stale';
  const explanation = `Cluster ${cluster} cannot be reached${
    since ? ` since ${since}` : ''
  }: this is its last known state.`;
  return (
    <Tooltip title={explanation}>
      <Chip
        data-testid="flux-fleet-stale"
        size="small"
        icon={<WarningIcon />}
        label={label}
        aria-label={`${label}. ${explanation}`}
        variant="outlined"
      />
    </Tooltip>
  );
};
