import {
  Enforcement,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';

/** The words of each enforcement level. */
export const ENFORCEMENT_LABEL: Readonly<Record<Enforcement, string>> = {
  enforced: 'Enforced',
  partial: 'Partial',
  none: 'None',
};

/** The identity the apply runs as (rules §5): the service account and where it comes from. */
export function serviceAccountText(boundary: TenancyBoundary): string {
  switch (boundary.serviceAccountSource) {
    case 'object':
      return `${boundary.serviceAccount} (spec.serviceAccountName)`;
    case 'default':
      return `${boundary.serviceAccount} (--default-service-account)`;
    case 'controller':
      return 'controller identity';
    default:
      return boundary.serviceAccount ?? 'not applicable';
  }
}
