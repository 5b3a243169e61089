import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useTheme } from '@material-ui/core/styles';
import { ShardSummary } from '@flux-fleet/plugin-flux-fleet-common';
import { useState } from 'react';
import { useErrorTextClass } from '../shared/useErrorTextClass';

/** How many shards the chart shows before "show all". */
const FIRST_SHOWN = 15;

const shardName = (s: ShardSummary) =>
  `${s.cluster} / ${s.instance} / ${s.name}`;

/**
 * Estimated load per shard (rules §9: its busiest controller's Σ duration ÷ interval ÷ concurrency), busiest
 * first, as horizontal bars; over 100 % is drawn in the error colour and the bar is capped at the track's end.
 * An estimate, not a measurement: the caption says so.
 *
 * Test ids: `flux-fleet-shard-load`; each bar is a `meter` named "<cluster> / <instance> / <shard>".
 */
export const ShardLoadChart = (props: { shards: ShardSummary[] }) => {
  const theme = useTheme();
  const errorText = useErrorTextClass();
  const [all, setAll] = useState(false);
  const sorted = [...props.shards].sort(
    (a, b) =>
      b.utilisation - a.utilisation || shardName(a).localeCompare(shardName(b)),
  );
  const shown = all ? sorted : sorted.slice(0, FIRST_SHOWN);
  return (
    <Box data-testid="flux-fleet-shard-load">
      <Typography variant="h6" component="h3">
        Load per shard
      </Typography>
      {/* on the page's background, where the secondary text colour is 4.47:1 (axe wants 4.5) */}
      <Typography variant="caption" color="textPrimary" component="p">
        Estimated from each object's last reconcile duration and interval
        against the controller's --concurrent; the busiest controller of a shard
        speaks for it. The Capacity tab has the load measured from the
        controllers' metrics, and a verdict from it.
      </Typography>
      {shown.map(shard => {
        const percent = Math.round(shard.utilisation * 100);
        const over = shard.utilisation > 1;
        return (
          <Box
            key={shardName(shard)}
            display="flex"
            alignItems="center"
            my={0.5}
            style={{ gap: 8 }}
          >
            <Typography
              variant="body2"
              style={{ width: 280, flexShrink: 0 }}
              noWrap
              title={shardName(shard)}
            >
              {shardName(shard)}
            </Typography>
            <Box
              role="meter"
              aria-label={shardName(shard)}
              aria-valuenow={percent}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuetext={`${percent} %`}
              flexGrow={1}
              height={12}
              bgcolor="action.hover"
              borderRadius={2}
              overflow="hidden"
            >
              <Box
                height="100%"
                width={`${Math.min(100, Math.max(0, percent))}%`}
                style={{
                  backgroundColor: over
                    ? theme.palette.error.main
                    : theme.palette.primary.main,
                }}
              />
            </Box>
            <Typography
              variant="body2"
              className={over ? errorText : undefined}
              style={{ width: 56, textAlign: 'right' }}
            >
              {percent} %
            </Typography>
          </Box>
        );
      })}
      {sorted.length > FIRST_SHOWN && (
        <Button size="small" onClick={() => setAll(!all)}>
          {all ? 'Show the busiest only' : `Show all ${sorted.length} shards`}
        </Button>
      )}
    </Box>
  );
};
