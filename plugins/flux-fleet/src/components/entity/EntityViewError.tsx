import { LoadError } from '../shared/LoadError';

/**
 * The error state of an entity view: which entity could not be loaded, and the backend's own words (which name the
 * cluster and object when one is at fault), with a way to try again.
 *
 * Test ids: `flux-fleet-error`; the button is named "Try again".
 */
export const EntityViewError = (props: {
  entityRef: string;
  error: Error;
  onRetry: () => void;
}) => (
  <LoadError
    what={`the Flux objects of ${props.entityRef}`}
    error={props.error}
    onRetry={props.onRetry}
  />
);
