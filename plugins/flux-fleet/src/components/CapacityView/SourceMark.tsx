import Chip from '@material-ui/core/Chip';
import type { FigureSource } from '@flux-fleet/plugin-flux-fleet-common';

/** Where a figure comes from, as a small mark beside it: measured, configured or estimated. */
export const SourceMark = ({ source }: { source: FigureSource }) => (
  <Chip
    size="small"
    variant="outlined"
    label={source}
    color={source === 'measured' ? 'primary' : 'default'}
    title={
      source === 'estimated'
        ? 'estimated from reconcile durations and intervals (no metrics)'
        : `${source} figure`
    }
  />
);
