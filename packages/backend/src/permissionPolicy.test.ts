import {
  AuthorizeResult,
  createPermission,
} from '@backstage/plugin-permission-common';
import {
  fluxObjectReadPermission,
  fluxObjectReconcilePermission,
  fluxObjectSuspendPermission,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FluxFleetDemoPolicy } from './permissionPolicy';

const guest = {
  identity: {
    type: 'user' as const,
    userEntityRef: 'user:default/guest',
    ownershipEntityRefs: ['user:default/guest', 'group:default/platform'],
  },
  info: {
    userEntityRef: 'user:default/guest',
    ownershipEntityRefs: ['user:default/guest', 'group:default/platform'],
  },
  token: 'not-used',
  credentials: {} as any,
};

describe('the demo permission policy', () => {
  const policy = new FluxFleetDemoPolicy();

  it('lets owners reconcile, suspend and resume: a decision on the IS_OWNED_BY rule with their ownership refs', async () => {
    for (const permission of [fluxObjectReconcilePermission, fluxObjectSuspendPermission]) {
      expect(await policy.handle({ permission }, guest as any)).toEqual({
        result: AuthorizeResult.CONDITIONAL,
        pluginId: 'flux-fleet',
        resourceType: 'flux-fleet-object',
        conditions: {
          rule: 'IS_OWNED_BY',
          resourceType: 'flux-fleet-object',
          params: { claims: ['user:default/guest', 'group:default/platform'] },
        },
      });
    }
  });

  it('lets nobody but users act', async () => {
    expect(await policy.handle({ permission: fluxObjectReconcilePermission })).toEqual({
      result: AuthorizeResult.DENY,
    });
  });

  it('lets everybody read Flux objects, and allows everything else as before', async () => {
    expect(await policy.handle({ permission: fluxObjectReadPermission }, guest as any)).toEqual({
      result: AuthorizeResult.ALLOW,
    });
    expect(await policy.handle({ permission: fluxObjectReadPermission })).toEqual({
      result: AuthorizeResult.ALLOW,
    });
    const deleteEntity = createPermission({
      name: 'catalog.entity.delete',
      attributes: { action: 'delete' },
      resourceType: 'catalog-entity',
    });
    expect(await policy.handle({ permission: deleteEntity }, guest as any)).toEqual({
      result: AuthorizeResult.ALLOW,
    });
  });
});
