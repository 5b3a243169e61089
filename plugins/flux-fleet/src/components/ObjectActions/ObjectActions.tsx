import { useEffect, useState } from 'react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import IconButton from '@material-ui/core/IconButton';
import ListItemText from '@material-ui/core/ListItemText';
import Menu from '@material-ui/core/Menu';
import MenuItem from '@material-ui/core/MenuItem';
import Typography from '@material-ui/core/Typography';
import MoreVertIcon from '@material-ui/icons/MoreVert';
import {
  EntityClusterHealth,
  FleetObject,
  SIGNAL_CHANNELS,
} from '@flux-fleet/plugin-flux-fleet-common';
import { useLiveRefresh } from '../../hooks/useLiveRefresh';
import { ObjectActionName, useObjectAction } from '../../hooks/useObjectAction';
import { useObjectPermissions } from '../../hooks/useObjectPermissions';
import { actionAvailability } from '../../lib/actionAvailability';
import { ActionStatusLine } from './ActionStatusLine';
import { SuspendConfirmDialog } from './SuspendConfirmDialog';

/** Without signals, how often a pending action re-reads its object. */
const PENDING_POLL_MS = 3000;

/**
 * Re-reads the object while an action waits for its controller: on each signal of the object's channel, or on a
 * timer when the signals plugin is absent. Mounted only while an action is pending, so idle rows subscribe to
 * nothing.
 */
const PendingActionWatcher = (props: {
  objectKey: string;
  check: () => void;
}) => {
  const { objectKey, check } = props;
  const { live } = useLiveRefresh(
    SIGNAL_CHANNELS.object(objectKey),
    check,
    100,
  );
  useEffect(() => {
    if (live) {
      return undefined;
    }
    const timer = setInterval(check, PENDING_POLL_MS);
    return () => clearInterval(timer);
  }, [live, check]);
  return null;
};

/**
 * Reconcile (HelmRelease: also force), suspend (after confirmation) and resume one Flux object. Each control is
 * disabled with its reason in words when the user lacks the permission, the cluster cannot be written, or the
 * object's state forbids it; progress is shown until the controller handles the request, and backend errors
 * verbatim. `variant="menu"` fits a table row; `"buttons"` a detail view.
 *
 * Test ids: `flux-fleet-actions` (the buttons, or the menu button), `flux-fleet-action-status`,
 * `flux-fleet-suspend-confirm`; buttons and menu items are named by their action ("Reconcile", "Force reconcile",
 * "Suspend", "Resume"), and a disabled one is described by its reason.
 */
export const ObjectActions = (props: {
  object: FleetObject;
  cluster?: EntityClusterHealth;
  variant?: 'menu' | 'buttons';
  /** Called once an action has settled, so the view can show the object's new state. */
  onChanged?: () => void;
}) => {
  const { object, cluster, variant = 'buttons', onChanged } = props;
  const permissions = useObjectPermissions(object.key);
  const { status, run, check, dismiss } = useObjectAction(object, {
    onSettled: onChanged,
  });
  const [confirmingSuspend, setConfirmingSuspend] = useState(false);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);

  const busy = status.phase === 'requesting' || status.phase === 'pending';
  const actions = actionAvailability(object, cluster, permissions).map(a =>
    busy && !a.disabledReason
      ? { ...a, disabledReason: 'Another action on it is in progress.' }
      : a,
  );

  const start = (action: ObjectActionName) => {
    setMenuAnchor(null);
    if (action === 'suspend') {
      setConfirmingSuspend(true);
    } else {
      run(action);
    }
  };

  const name = `${object.ref.kind} ${object.ref.namespace}/${object.ref.name}`;
  const reasonId = (action: ObjectActionName) =>
    `flux-fleet-reason-${action}-${object.key.replace(/[^\w-]/g, '_')}`;

  const controls =
    variant === 'menu' ? (
      <>
        <IconButton
          size="small"
          aria-label={`Actions for ${name}`}
          aria-haspopup="true"
          data-testid="flux-fleet-actions"
          onClick={event => setMenuAnchor(event.currentTarget)}
        >
          <MoreVertIcon fontSize="small" />
        </IconButton>
        <Menu
          anchorEl={menuAnchor}
          keepMounted={false}
          open={Boolean(menuAnchor)}
          onClose={() => setMenuAnchor(null)}
        >
          {actions.map(a => (
            <MenuItem
              key={a.action}
              disabled={Boolean(a.disabledReason)}
              // a disabled item is drawn at half opacity: its reason would be too faint to read, so only the label
              // is greyed (textSecondary below)
              style={a.disabledReason ? { opacity: 1 } : undefined}
              onClick={() => start(a.action)}
              aria-describedby={
                a.disabledReason ? reasonId(a.action) : undefined
              }
            >
              {/* a menu item does not wrap by default: a permission message of a sentence or two would widen the
                  menu past the page; it wraps within a readable width instead */}
              <ListItemText
                style={{ whiteSpace: 'normal', maxWidth: 360 }}
                primary={a.label}
                primaryTypographyProps={
                  a.disabledReason ? { color: 'textSecondary' } : undefined
                }
                secondary={a.disabledReason}
                secondaryTypographyProps={{ id: reasonId(a.action) }}
              />
            </MenuItem>
          ))}
        </Menu>
      </>
    ) : (
      <Box
        data-testid="flux-fleet-actions"
        display="flex"
        flexWrap="wrap"
        style={{ gap: 16 }}
      >
        {actions.map(a => (
          <Box key={a.action} maxWidth={260}>
            <Button
              variant="outlined"
              size="small"
              disabled={Boolean(a.disabledReason)}
              onClick={() => start(a.action)}
              aria-describedby={
                a.disabledReason ? reasonId(a.action) : undefined
              }
            >
              {a.label}
            </Button>
            {a.disabledReason && (
              <Typography
                id={reasonId(a.action)}
                variant="caption"
                color="textSecondary"
                component="div"
              >
                {a.disabledReason}
              </Typography>
            )}
          </Box>
        ))}
      </Box>
    );

  return (
    <>
      {controls}
      <ActionStatusLine object={object} status={status} onDismiss={dismiss} />
      {status.phase === 'pending' && (
        <PendingActionWatcher objectKey={object.key} check={check} />
      )}
      <SuspendConfirmDialog
        objectRef={object.ref}
        open={confirmingSuspend}
        onCancel={() => setConfirmingSuspend(false)}
        onConfirm={() => {
          setConfirmingSuspend(false);
          run('suspend');
        }}
      />
    </>
  );
};
