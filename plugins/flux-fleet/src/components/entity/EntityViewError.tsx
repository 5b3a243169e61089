import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { errorMessage } from '../../lib/errorMessage';

/**
 * The error state of an entity view: which entity could not be loaded, and the backend's own words (which name the
 * cluster and object when one is at fault).
 *
 * Test ids: `flux-fleet-error`.
 */
export const EntityViewError = (props: { entityRef: string; error: Error }) => (
  <Alert severity="error" data-testid="flux-fleet-error">
    <AlertTitle>
      Could not load the Flux objects of {props.entityRef}
    </AlertTitle>
    {errorMessage(props.error)}
  </Alert>
);
