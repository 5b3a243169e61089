import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { TenancyBoundary } from '@flux-fleet/plugin-flux-fleet-common';
import { ENFORCEMENT_LABEL, serviceAccountText } from '../../lib/boundaryText';

const ENFORCEMENT_COLOR = {
  enforced: 'textPrimary',
  partial: 'textSecondary',
  none: 'error',
} as const;

/**
 * The tenancy boundary of an object: tenant, namespace, the identity its apply runs as, and whether the instance
 * enforces it, with why not.
 *
 * Test ids: `flux-fleet-boundary`.
 */
export const BoundarySummary = (props: {
  boundary: TenancyBoundary;
  compact?: boolean;
}) => {
  const { boundary, compact } = props;
  const facts = [
    `tenant ${boundary.tenant ?? 'none'}`,
    `namespace ${boundary.namespace}`,
  ];
  // Only Kustomizations and HelmReleases apply as an identity (rules §5); other kinds have none to show.
  if (boundary.serviceAccountSource !== null) {
    facts.push(`runs as ${serviceAccountText(boundary)}`);
  }
  return (
    <Box data-testid="flux-fleet-boundary">
      <Typography variant="body2" component="span">
        <Typography
          variant="body2"
          component="strong"
          color={ENFORCEMENT_COLOR[boundary.enforcement]}
          style={{ fontWeight: 'bold' }}
        >
          {ENFORCEMENT_LABEL[boundary.enforcement]}
        </Typography>
        {' · '}
        {facts.join(' · ')}
      </Typography>
      {!compact && boundary.reasons.length > 0 && (
        <Typography
          variant="body2"
          color="textSecondary"
          component="ul"
          style={{ margin: 0, paddingLeft: 20 }}
        >
          {boundary.reasons.map(reason => (
            <li key={reason}>{reason}</li>
          ))}
        </Typography>
      )}
    </Box>
  );
};
