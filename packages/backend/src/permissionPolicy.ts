/*
 * The demo's permission policy: everybody signed in may read everything; only the owners of a service may
 * reconcile, suspend or resume its Flux objects. Replaces the allow-all policy; copy it as a starting point.
 */
import { createBackendModule } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  isResourcePermission,
  PolicyDecision,
} from '@backstage/plugin-permission-common';
import type {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import {
  createFluxObjectConditionalDecision,
  fluxObjectConditions,
} from '@flux-fleet/plugin-flux-fleet-backend';
import { FLUX_OBJECT_RESOURCE_TYPE } from '@flux-fleet/plugin-flux-fleet-common';

/**
 * Owners may act on Flux objects, everybody may read. "Owner" is the plugin's IS_OWNED_BY rule with the caller's
 * ownership refs (the user and the groups they belong to): it holds when one of them owns a catalog Component of
 * the object's service (`spec.owner`), or is the group the object's tenant maps to (`fluxFleet.tenants[].group`).
 * Callers that are not users (services, scripts with a static token) may not act. Every other permission, the
 * catalog's included, is allowed as with the allow-all policy this replaces.
 */
export class FluxFleetDemoPolicy implements PermissionPolicy {
  async handle(request: PolicyQuery, user?: PolicyQueryUser): Promise<PolicyDecision> {
    const { permission } = request;
    if (
      isResourcePermission(permission, FLUX_OBJECT_RESOURCE_TYPE) &&
      permission.attributes.action !== 'read'
    ) {
      if (!user) return { result: AuthorizeResult.DENY };
      return createFluxObjectConditionalDecision(
        permission,
        fluxObjectConditions.isOwnedBy({ claims: user.info.ownershipEntityRefs }),
      );
    }
    return { result: AuthorizeResult.ALLOW };
  }
}

/** Installs {@link FluxFleetDemoPolicy} as the permission backend's policy. */
export default createBackendModule({
  pluginId: 'permission',
  moduleId: 'flux-fleet-demo-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy(new FluxFleetDemoPolicy());
      },
    });
  },
});
