import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import {
  DependencyStep,
  FleetObjectDetail,
} from '@flux-fleet/plugin-flux-fleet-common';
import { STATE_LABEL } from '../../lib/stateText';

const stepName = (step: DependencyStep) =>
  `${step.ref.kind} ${step.ref.namespace}/${step.ref.name}`;

const stepState = (step: DependencyStep) =>
  step.state === null ? 'does not exist' : STATE_LABEL[step.state];

/**
 * The dependsOn chain of an object, depth-first and indented by depth, and, for a blocked object, the root cause:
 * the deepest dependency that is not ready, with its reason and message.
 *
 * Test ids: `flux-fleet-dependencies`, `flux-fleet-root-cause`.
 */
export const DependencyChain = (props: {
  detail: Pick<FleetObjectDetail, 'dependencies' | 'rootCause' | 'state'>;
}) => {
  const { dependencies, rootCause, state } = props.detail;
  return (
    <Box data-testid="flux-fleet-dependencies">
      {rootCause && (
        <Alert
          severity={state.state === 'blocked' ? 'error' : 'warning'}
          data-testid="flux-fleet-root-cause"
        >
          <AlertTitle>Root cause: {stepName(rootCause)}</AlertTitle>
          {stepState(rootCause)}
          {rootCause.reason ? ` (${rootCause.reason})` : ''}
          {rootCause.message ? `: ${rootCause.message}` : ''}
        </Alert>
      )}
      {dependencies.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          It depends on nothing (no spec.dependsOn).
        </Typography>
      ) : (
        <Box component="ol" m={0} pl={0} style={{ listStyle: 'none' }}>
          {dependencies.map(step => (
            <Box
              component="li"
              key={`${step.depth}:${step.ref.namespace}/${step.ref.kind}/${step.ref.name}`}
              pl={2 * step.depth}
            >
              <Typography variant="body2">
                {'↳ '}
                {stepName(step)} — <strong>{stepState(step)}</strong>
                {step.reason ? ` · ${step.reason}` : ''}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
};
