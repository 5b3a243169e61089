import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import {
  FluxObjectRef,
  fluxCliCommands,
} from '@flux-fleet/plugin-flux-fleet-common';
import { CopyableCommand } from '../shared/CopyableCommand';

/**
 * Copyable `flux` CLI commands for the object, for those who continue in a terminal. They use the kubeconfig
 * context named like the cluster; each wraps between its words (an object name stays whole).
 *
 * Test ids: `flux-fleet-cli`.
 */
export const CliCommands = (props: {
  objectRef: FluxObjectRef;
  apiVersion?: string;
  instance?: string | null;
}) => {
  const commands = fluxCliCommands(props.objectRef, {
    instance: props.instance,
    apiVersion: props.apiVersion,
  });
  return (
    <Box data-testid="flux-fleet-cli">
      <Typography variant="caption" color="textSecondary">
        Run with a kubeconfig context named {props.objectRef.cluster}.
      </Typography>
      {commands.map(c => (
        <Box key={c.command} mt={0.5}>
          <Typography variant="caption" color="textSecondary" component="div">
            {c.label}
          </Typography>
          <CopyableCommand command={c.command} label={`Copy: ${c.label}`} />
        </Box>
      ))}
    </Box>
  );
};
