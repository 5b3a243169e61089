import { usePermission } from '@backstage/plugin-permission-react';
import {
  fluxObjectReconcilePermission,
  fluxObjectSuspendPermission,
} from '@flux-fleet/plugin-flux-fleet-common';

/** One permission decision about an object. */
export interface PermissionDecision {
  allowed: boolean;
  loading: boolean;
}

/**
 * Whether the signed-in user may reconcile, and suspend or resume, one Flux object (resource ref: the object's key).
 * The permission client batches these, so a table of rows costs one request.
 */
export function useObjectPermissions(key: string): {
  reconcile: PermissionDecision;
  suspend: PermissionDecision;
} {
  const reconcile = usePermission({
    permission: fluxObjectReconcilePermission,
    resourceRef: key,
  });
  const suspend = usePermission({
    permission: fluxObjectSuspendPermission,
    resourceRef: key,
  });
  return {
    reconcile: { allowed: reconcile.allowed, loading: reconcile.loading },
    suspend: { allowed: suspend.allowed, loading: suspend.loading },
  };
}
