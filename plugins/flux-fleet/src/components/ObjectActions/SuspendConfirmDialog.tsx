import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import { FluxObjectRef } from '@flux-fleet/plugin-flux-fleet-common';

/**
 * Asks before suspending: a suspended object silently stops deploying, which is easy to forget.
 *
 * Test ids: `flux-fleet-suspend-confirm` (the dialog); buttons named "Cancel" and "Suspend".
 */
export const SuspendConfirmDialog = (props: {
  objectRef: FluxObjectRef;
  open: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) => {
  const { objectRef: ref, open, onCancel, onConfirm } = props;
  const title = `Suspend ${ref.kind} ${ref.namespace}/${ref.name}?`;
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      aria-labelledby="flux-fleet-suspend-title"
      data-testid="flux-fleet-suspend-confirm"
    >
      <DialogTitle id="flux-fleet-suspend-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          Flux stops reconciling it on cluster {ref.cluster} until it is
          resumed: new revisions are not applied and drift is not corrected.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button onClick={onConfirm} color="secondary" variant="contained">
          Suspend
        </Button>
      </DialogActions>
    </Dialog>
  );
};
