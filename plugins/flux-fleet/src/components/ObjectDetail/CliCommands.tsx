import { CopyTextButton } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import {
  FluxObjectRef,
  fluxCliCommands,
} from '@flux-fleet/plugin-flux-fleet-common';

/**
 * Copyable `flux` CLI commands for the object, for those who continue in a terminal. They use the kubeconfig
 * context named like the cluster.
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
        <Box
          key={c.command}
          display="flex"
          alignItems="center"
          style={{ gap: 8 }}
        >
          <Box flexGrow={1} minWidth={0}>
            <Typography variant="caption" color="textSecondary">
              {c.label}
            </Typography>
            <Typography
              variant="body2"
              component="pre"
              style={{
                margin: 0,
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-all',
              }}
            >
              <code>{c.command}</code>
            </Typography>
          </Box>
          <CopyTextButton
            text={c.command}
            tooltipText="Copied"
            aria-label={`Copy: ${c.label}`}
          />
        </Box>
      ))}
    </Box>
  );
};
