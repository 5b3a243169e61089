import type {
  BackstageCredentials,
  PermissionsRegistryService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import {
  FLUX_OBJECT_RESOURCE_TYPE,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FluxObjectResource, fluxObjectResourceRef } from './fluxObjectRules';

/** Why a caller may not act, or undefined when it may. */
export type ActionRefusal = string | undefined;

/**
 * Decides whether a caller may act on one Flux object (`flux-fleet.object.reconcile`, `…suspend`).
 *
 * Actions are for people. Backstage's permission service answers ALLOW to every service principal without asking
 * the policy (a plugin's token, a static token of `backend.auth.externalAccess`), so a policy that lets only owners
 * act would be bypassed by any script with a token. Here a service principal may act only when an operator named
 * the permission in that principal's access restrictions (`accessRestrictions: [{ plugin: flux-fleet, permission:
 * flux-fleet.object.reconcile }]`); every other service principal, and every caller without a principal, is refused.
 *
 * For users the policy's decision is asked for with `authorizeConditional`, and a conditional decision is evaluated
 * here, on the object with its owners, with the rules this plugin registered: the same evaluation the permission
 * framework runs when the frontend asks about the object, without a round trip through the permission backend for
 * every click.
 */
export class ActionAccess {
  private readonly authorizeResource;

  constructor(
    private readonly permissions: PermissionsService,
    registry: PermissionsRegistryService,
  ) {
    this.authorizeResource = createConditionAuthorizer(
      registry.getPermissionRuleset(fluxObjectResourceRef),
    );
  }

  /** Why the caller may not use the permission on the object, or undefined when it may. */
  async refusal(
    permission: ResourcePermission<typeof FLUX_OBJECT_RESOURCE_TYPE>,
    resource: FluxObjectResource,
    credentials: BackstageCredentials,
  ): Promise<ActionRefusal> {
    const denied = `You do not have the permission ${permission.name} on ${resource.key}.`;
    const refusedPrincipal = principalRefusal(permission.name, credentials);
    if (refusedPrincipal) return `${denied} ${refusedPrincipal}`;
    const [decision] = await this.permissions.authorizeConditional([{ permission }], {
      credentials,
    });
    if (decision.result !== AuthorizeResult.CONDITIONAL) {
      return decision.result === AuthorizeResult.ALLOW ? undefined : denied;
    }
    return this.authorizeResource(decision, resource) ? undefined : denied;
  }
}

/**
 * Why a caller's kind of principal may not use an action permission at all, or undefined: users may (the policy
 * decides), a service principal only when its access restrictions name the permission.
 */
export function principalRefusal(
  permissionName: string,
  credentials: BackstageCredentials,
): string | undefined {
  const principal = credentials.principal as {
    type?: string;
    subject?: string;
    accessRestrictions?: { permissionNames?: string[] };
  };
  if (principal.type === 'user') return undefined;
  if (principal.type === 'service') {
    if (principal.accessRestrictions?.permissionNames?.includes(permissionName)) return undefined;
    const who = principal.subject ? `the service principal ${principal.subject}` : 'a service principal';
    return (
      `Actions are for people: ${who} may act only when its access restrictions name ${permissionName} ` +
      `(backend.auth.externalAccess[].accessRestrictions[].permission).`
    );
  }
  return 'Actions need a signed-in user.';
}
