import Button from '@material-ui/core/Button';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { errorMessage } from '../../lib/errorMessage';

/**
 * A read that failed: what could not be read, the backend's own words, and a way to try again (a backend that
 * restarts or a dropped connection is usually gone a moment later).
 *
 * Test ids: `flux-fleet-error`; the button is named "Try again".
 */
export const LoadError = (props: {
  what: string;
  error: Error;
  onRetry?: () => void;
}) => (
  <Alert
    severity="error"
    data-testid="flux-fleet-error"
    action={
      props.onRetry && (
        <Button color="inherit" size="small" onClick={props.onRetry}>
          Try again
        </Button>
      )
    }
  >
    <AlertTitle>Could not read {props.what}</AlertTitle>
    {errorMessage(props.error)}
  </Alert>
);
