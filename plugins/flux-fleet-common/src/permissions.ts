/**
 * Permissions of Flux Fleet. Reading and acting on Flux objects are resource permissions on the resource type
 * `flux-fleet-object`, whose resource ref is the object's key (`cluster/namespace/kind/name`), so a policy can
 * decide per object with the rules the backend registers (owner of the entity, tenant group, cluster, namespace).
 */
import { createPermission } from '@backstage/plugin-permission-common';

/** The permission resource type of a Flux object. */
export const FLUX_OBJECT_RESOURCE_TYPE = 'flux-fleet-object';

/** Read a Flux object's state, owner, boundary and details. */
export const fluxObjectReadPermission = createPermission({
  name: 'flux-fleet.object.read',
  attributes: { action: 'read' },
  resourceType: FLUX_OBJECT_RESOURCE_TYPE,
});

/** Ask Flux to reconcile an object now (`reconcile.fluxcd.io/requestedAt`). */
export const fluxObjectReconcilePermission = createPermission({
  name: 'flux-fleet.object.reconcile',
  attributes: { action: 'update' },
  resourceType: FLUX_OBJECT_RESOURCE_TYPE,
});

/** Suspend or resume an object (`spec.suspend`). */
export const fluxObjectSuspendPermission = createPermission({
  name: 'flux-fleet.object.suspend',
  attributes: { action: 'update' },
  resourceType: FLUX_OBJECT_RESOURCE_TYPE,
});

/** Every permission of Flux Fleet. */
export const fluxFleetPermissions = [
  fluxObjectReadPermission,
  fluxObjectReconcilePermission,
  fluxObjectSuspendPermission,
];
