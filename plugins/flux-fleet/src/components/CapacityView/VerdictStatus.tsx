import { StatusError, StatusOK, StatusWarning } from '@backstage/core-components';
import type { CapacityVerdict } from '@flux-fleet/plugin-flux-fleet-common';

const LABEL: Record<CapacityVerdict, string> = {
  ok: 'ok',
  'near-capacity': 'near capacity',
  'over-capacity': 'over capacity',
};

/** A capacity verdict with Backstage's state colour and icon. */
export const VerdictStatus = ({ verdict }: { verdict: CapacityVerdict }) => {
  const label = LABEL[verdict];
  if (verdict === 'over-capacity') return <StatusError>{label}</StatusError>;
  if (verdict === 'near-capacity') return <StatusWarning>{label}</StatusWarning>;
  return <StatusOK>{label}</StatusOK>;
};
