import Box from '@material-ui/core/Box';
import CircularProgress from '@material-ui/core/CircularProgress';
import IconButton from '@material-ui/core/IconButton';
import CloseIcon from '@material-ui/icons/Close';
import Alert from '@material-ui/lab/Alert';
import { FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import {
  ObjectActionName,
  ObjectActionStatus,
} from '../../hooks/useObjectAction';
import { ACTION_LABEL } from '../../lib/actionAvailability';

const HANDLED_TEXT: Record<ObjectActionName, string> = {
  reconcile: 'Reconciled: the controller handled the request.',
  'force-reconcile': 'Force reconcile handled by the controller.',
  suspend: 'Suspended: Flux no longer reconciles it.',
  resume: 'Resumed: Flux reconciles it again.',
};

/** The alert for an action that has settled, one way or another. */
function settledText(
  status: Exclude<
    ObjectActionStatus,
    { phase: 'idle' | 'requesting' | 'pending' }
  >,
): { severity: 'success' | 'warning' | 'error'; text: string } {
  switch (status.phase) {
    case 'handled':
      return { severity: 'success', text: HANDLED_TEXT[status.action] };
    case 'never':
      return { severity: 'warning', text: status.result.message };
    case 'timeout':
      return {
        severity: 'warning',
        text: `${
          ACTION_LABEL[status.action]
        } was requested, but no controller has handled it after 5 minutes: the controller may be down, overloaded, or not watching it.`,
      };
    default:
      return { severity: 'error', text: status.message };
  }
}

/**
 * Where an action stands: requested, waiting for the controller, handled, never to be handled, or failed with the
 * backend's own message.
 *
 * Test ids: `flux-fleet-action-status`.
 */
export const ActionStatusLine = (props: {
  object: Pick<FleetObject, 'owner'>;
  status: ObjectActionStatus;
  onDismiss: () => void;
}) => {
  const { object, status, onDismiss } = props;
  if (status.phase === 'idle') {
    return null;
  }
  const label = ACTION_LABEL[status.action];
  const dismiss = (
    <IconButton size="small" aria-label="Dismiss" onClick={onDismiss}>
      <CloseIcon fontSize="small" />
    </IconButton>
  );
  if (status.phase === 'requesting' || status.phase === 'pending') {
    const controller = object.owner.controller
      ? `${object.owner.controller} (${object.owner.instance}/${object.owner.shard})`
      : 'the controller';
    return (
      <Box
        data-testid="flux-fleet-action-status"
        role="status"
        width="100%"
        display="flex"
        alignItems="center"
        style={{ gap: 8 }}
      >
        <CircularProgress size={16} />
        <span>
          {status.phase === 'requesting'
            ? `${label}: sending the request…`
            : `${label} requested; waiting for ${controller} to handle it…`}
        </span>
      </Box>
    );
  }
  const { severity, text } = settledText(status);
  return (
    <Alert
      data-testid="flux-fleet-action-status"
      severity={severity}
      action={dismiss}
      // a line of its own where the controls sit in a wrapping row (the card's object header)
      style={{ width: '100%', boxSizing: 'border-box' }}
    >
      {text}
    </Alert>
  );
};
