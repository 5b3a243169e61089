import Box from '@material-ui/core/Box';
import { makeStyles } from '@material-ui/core/styles';
import Typography from '@material-ui/core/Typography';
import { FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import { STATE_HINT, STATE_LABEL, STATE_TONE } from '../../lib/stateText';
import { Age, RelativeTime } from './RelativeTime';
import { useErrorTextClass } from './useErrorTextClass';
import { RevisionLink } from './RevisionLink';
import { StaleMarker } from './StaleMarker';
import { StatusTone } from './StatusTone';
import { WholeItems } from './WholeItems';

const useStyles = makeStyles({
  // the parts wrap between each other, never inside a word (a table cell would break "Progressing" mid-word)
  parts: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: 8,
    '& > *': { whiteSpace: 'nowrap', wordBreak: 'normal' },
  },
});

/** The state's icon and words, with the blocking dependency for `blocked`. */
export const ReconcileStateName = (props: {
  object: Pick<FleetObject, 'state'>;
}) => {
  const { state } = props.object;
  const by = state.blockedBy;
  return (
    <StatusTone tone={STATE_TONE[state.state]}>
      {/* the blocking dependency may wrap between its words: kept on one line, "Blocked by Kustomization
          flux-system/infra-controllers" alone ran the objects table past the page at 1280 px */}
      <span style={{ whiteSpace: 'normal' }}>
        {STATE_LABEL[state.state]}
        {by && (
          <>
            {' '}
            <WholeItems items={['by', by.kind, `${by.namespace}/${by.name}`]} separator=" " />
          </>
        )}
      </span>
    </StatusTone>
  );
};

/**
 * A Flux object's reconcile state as a person reads it: icon and words, reason, revision (linked to its commit
 * where the source allows), for how long (since its Ready condition last changed), the message, and a stale marker
 * when its cluster is unreachable.
 * `compact` leaves out the message and the hint (for table cells).
 *
 * Test ids: `flux-fleet-state` (the whole block), `flux-fleet-state-message`.
 */
export const ReconcileStateLabel = (props: {
  object: Pick<
    FleetObject,
    'state' | 'stale' | 'staleSince' | 'sourceUrl' | 'ref'
  >;
  compact?: boolean;
}) => {
  const { object, compact } = props;
  const classes = useStyles();
  const errorText = useErrorTextClass();
  const { state } = object;
  const hint = STATE_HINT[state.state];
  const attempted =
    state.attemptedRevision && state.attemptedRevision !== state.revision
      ? state.attemptedRevision
      : undefined;
  return (
    <Box data-testid="flux-fleet-state">
      <Box className={classes.parts}>
        <ReconcileStateName object={object} />
        {state.reason && (
          <Typography variant="body2" component="span" color="textSecondary">
            {state.reason}
          </Typography>
        )}
        {state.revision && (
          <Typography variant="body2" component="span">
            <RevisionLink
              revision={state.revision}
              sourceUrl={object.sourceUrl}
            />
          </Typography>
        )}
        {attempted && (
          // "attempted" may go on the line above the revision: together they widened the objects table's state
          <Typography
            variant="body2"
            component="span"
            color="textSecondary"
            style={{ whiteSpace: 'normal' }}
          >
            attempted{' '}
            <RevisionLink revision={attempted} sourceUrl={object.sourceUrl} />
          </Typography>
        )}
        {state.since && (
          // a duration, not a moment: beside "changed 3 minutes ago" a bare "10 days ago" read as a second change
          <Typography variant="body2" component="span" color="textSecondary">
            for <Age since={state.since} />
          </Typography>
        )}
        {object.stale && (
          <StaleMarker cluster={object.ref.cluster} since={object.staleSince} />
        )}
      </Box>
      {!compact && state.message && (
        <Typography
          variant="body2"
          color="textSecondary"
          data-testid="flux-fleet-state-message"
          style={{ wordBreak: 'break-word' }}
        >
          {state.message}
        </Typography>
      )}
      {!compact && state.reconcileNotHandled && (
        <Typography variant="body2" className={errorText}>
          A reconcile was requested{' '}
          {state.reconcileRequestedAt && (
            <RelativeTime time={state.reconcileRequestedAt} />
          )}{' '}
          and no controller has handled it yet.
        </Typography>
      )}
      {!compact && hint && (
        <Typography variant="caption" color="textSecondary">
          {hint}
        </Typography>
      )}
    </Box>
  );
};
