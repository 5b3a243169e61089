import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { Finding } from '@flux-fleet/plugin-flux-fleet-common';
import { FINDING_LABEL, INFERRED_FINDINGS } from '../../lib/findingText';

/**
 * The findings about one object, each with its severity, what it is, and what is involved.
 *
 * Test ids: `flux-fleet-findings`.
 */
export const FindingsList = (props: { findings: Finding[] }) => {
  const { findings } = props;
  if (findings.length === 0) {
    return (
      <Typography
        variant="body2"
        color="textSecondary"
        data-testid="flux-fleet-findings"
      >
        No findings.
      </Typography>
    );
  }
  return (
    <Box
      data-testid="flux-fleet-findings"
      display="flex"
      flexDirection="column"
      style={{ gap: 8 }}
    >
      {findings.map((finding, index) => (
        <Alert key={index} severity={finding.severity}>
          <strong>{FINDING_LABEL[finding.type]}</strong>
          {INFERRED_FINDINGS.includes(finding.type) ? ' (inferred)' : ''}:{' '}
          {finding.message}
          {finding.related.length > 0 && (
            <div>
              Involves:{' '}
              {finding.related
                .map(r => `${r.kind} ${r.namespace}/${r.name} (${r.cluster})`)
                .join(', ')}
            </div>
          )}
        </Alert>
      ))}
    </Box>
  );
};
