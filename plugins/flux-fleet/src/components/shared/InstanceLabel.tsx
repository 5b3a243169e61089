import Typography from '@material-ui/core/Typography';
import { InstanceSummary } from '@flux-fleet/plugin-flux-fleet-common';

/**
 * A Flux instance: its namespace, Flux version, and whether the Flux Operator manages it (when the instance's
 * summary is known).
 *
 * Test ids: `flux-fleet-instance`.
 */
export const InstanceLabel = (props: {
  name: string | null;
  instance?: InstanceSummary;
}) => {
  const { name, instance } = props;
  if (!name) {
    return (
      <Typography
        variant="body2"
        component="span"
        color="textSecondary"
        data-testid="flux-fleet-instance"
      >
        no single instance
      </Typography>
    );
  }
  const parts = [name];
  if (instance?.version) {
    parts.push(`Flux ${instance.version}`);
  }
  if (instance) {
    parts.push(
      instance.operatorManaged
        ? `operator-managed${
            instance.fluxInstance
              ? ` (FluxInstance ${instance.fluxInstance})`
              : ''
          }`
        : 'not operator-managed',
    );
  }
  return (
    <Typography
      variant="body2"
      component="span"
      data-testid="flux-fleet-instance"
    >
      {parts.join(' · ')}
    </Typography>
  );
};
