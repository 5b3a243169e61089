import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { FluxEvent } from '@flux-fleet/plugin-flux-fleet-common';
import { StatusOK, StatusWarning } from '@backstage/core-components';
import { RelativeTime } from '../shared/RelativeTime';

/**
 * Recent Kubernetes Events about the object, newest first; warnings marked.
 *
 * Test ids: `flux-fleet-events`.
 */
export const EventsList = (props: { events: FluxEvent[] }) => {
  const events = [...props.events].sort((a, b) =>
    (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? ''),
  );
  if (events.length === 0) {
    return (
      <Typography
        variant="body2"
        color="textSecondary"
        data-testid="flux-fleet-events"
      >
        No recent events (Kubernetes keeps them for about an hour).
      </Typography>
    );
  }
  return (
    <Box
      component="ul"
      m={0}
      pl={0}
      style={{ listStyle: 'none' }}
      data-testid="flux-fleet-events"
    >
      {events.map((event, index) => {
        const Icon = event.type === 'Warning' ? StatusWarning : StatusOK;
        return (
          <Box component="li" key={index} mb={1}>
            <Typography variant="body2" component="div">
              <Icon>{event.reason}</Icon>
              {event.count > 1 ? ` ×${event.count}` : ''}
              {event.lastTimestamp && (
                <>
                  {' · '}
                  <RelativeTime time={event.lastTimestamp} />
                </>
              )}
              {event.source ? ` · ${event.source}` : ''}
            </Typography>
            <Typography
              variant="body2"
              color="textSecondary"
              style={{ wordBreak: 'break-word' }}
            >
              {event.message}
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
};
