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

/**
 * Decides whether a caller may act on one Flux object (`flux-fleet.object.reconcile`, `…suspend`). The policy's
 * decision is asked for with `authorizeConditional`, and a conditional decision is evaluated here, on the object
 * with its owners, with the rules this plugin registered: the same evaluation the permission framework runs when
 * the frontend asks about the object, without a round trip through the permission backend for every click.
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

  /** Whether the caller holds the permission on the object. */
  async allows(
    permission: ResourcePermission<typeof FLUX_OBJECT_RESOURCE_TYPE>,
    resource: FluxObjectResource,
    credentials: BackstageCredentials,
  ): Promise<boolean> {
    const [decision] = await this.permissions.authorizeConditional([{ permission }], {
      credentials,
    });
    if (decision.result !== AuthorizeResult.CONDITIONAL) {
      return decision.result === AuthorizeResult.ALLOW;
    }
    return this.authorizeResource(decision, resource);
  }
}
