import {
  createPermissionResourceRef,
  createPermissionRule,
} from '@backstage/plugin-permission-node';
import {
  FLUX_OBJECT_RESOURCE_TYPE,
  FleetObject,
} from '@flux-fleet/plugin-flux-fleet-common';
// zod 3: the permission framework turns rule parameters into JSON Schema with zod-to-json-schema
import { z } from 'zod';

/**
 * The fields of a Flux object that permissions can be conditioned on. `owner` holds several values: the catalog
 * refs that own the object (its service's Components' owners, its tenant's group).
 */
export type FluxObjectField = 'cluster' | 'namespace' | 'tenant' | 'service' | 'owner';

/** A field's value: one name, several (`owner`), or none. */
export type FluxObjectFieldValue = string | readonly string[] | null;

/** A condition as the index evaluates it: the object's field is (or, for `owner`, includes) one of the values. */
export interface FluxObjectQuery {
  field: FluxObjectField;
  values: string[];
}

/** A Flux object as permission rules see it: the API's object, and the catalog refs that own it. */
export interface FluxObjectResource extends FleetObject {
  /** Full, lower-case entity refs (`group:default/platform`), from `ObjectOwnership`. */
  ownedBy: readonly string[];
}

/** The permission resource of a Flux object: `flux-fleet-object`, its ref being the object's key. */
export const fluxObjectResourceRef = createPermissionResourceRef<
  FluxObjectResource,
  FluxObjectQuery
>().with({ pluginId: 'flux-fleet', resourceType: FLUX_OBJECT_RESOURCE_TYPE });

/**
 * The value of a field of an object, as rules read it. `owners` gives the `owner` field of an object that does
 * not carry `ownedBy` (the read routes resolve it only when a policy asks for it).
 */
export function fieldOf(
  object: FleetObject & { ownedBy?: readonly string[] },
  field: FluxObjectField,
  owners?: () => readonly string[],
): FluxObjectFieldValue {
  switch (field) {
    case 'cluster':
      return object.ref.cluster;
    case 'namespace':
      return object.ref.namespace;
    case 'tenant':
      return object.boundary.tenant;
    case 'owner':
      return object.ownedBy ?? owners?.() ?? [];
    default:
      return object.service;
  }
}

/** Whether a field's value is one of the values (entity refs compared as Backstage does: ignoring case). */
export function fieldMatches(value: FluxObjectFieldValue, field: FluxObjectField, values: readonly string[]) {
  if (value === null) return false;
  if (typeof value === 'string') return values.includes(value);
  const wanted = new Set(field === 'owner' ? values.map(v => v.toLocaleLowerCase('en-US')) : values);
  return value.some(v => wanted.has(v));
}

type Ref = typeof fluxObjectResourceRef;

/** A parameter schema: a list of names (zod 3, which the permission framework turns into JSON Schema). */
function namesSchema(param: string, what: string): any {
  return z.object({ [param]: z.array(z.string()).describe(what) });
}

const has = (object: FluxObjectResource, field: FluxObjectField, values: string[]) =>
  fieldMatches(fieldOf(object, field), field, values);

/** Rules a permission policy can condition `flux-fleet.object.*` on. */
export const fluxObjectRules = {
  isInCluster: createPermissionRule<Ref, { clusters: string[] }>({
    name: 'IS_IN_CLUSTER',
    description: 'Allow Flux objects of the given clusters',
    resourceRef: fluxObjectResourceRef,
    paramsSchema: namesSchema('clusters', 'cluster names'),
    apply: (object, { clusters }) => has(object, 'cluster', clusters),
    toQuery: ({ clusters }) => ({ field: 'cluster', values: clusters }),
  }),
  isInNamespace: createPermissionRule<Ref, { namespaces: string[] }>({
    name: 'IS_IN_NAMESPACE',
    description: 'Allow Flux objects in the given namespaces',
    resourceRef: fluxObjectResourceRef,
    paramsSchema: namesSchema('namespaces', 'namespace names'),
    apply: (object, { namespaces }) => has(object, 'namespace', namespaces),
    toQuery: ({ namespaces }) => ({ field: 'namespace', values: namespaces }),
  }),
  hasTenant: createPermissionRule<Ref, { tenants: string[] }>({
    name: 'HAS_TENANT',
    description: 'Allow Flux objects of the given tenants',
    resourceRef: fluxObjectResourceRef,
    paramsSchema: namesSchema('tenants', 'tenant names'),
    apply: (object, { tenants }) => has(object, 'tenant', tenants),
    toQuery: ({ tenants }) => ({ field: 'tenant', values: tenants }),
  }),
  belongsToService: createPermissionRule<Ref, { services: string[] }>({
    name: 'BELONGS_TO_SERVICE',
    description: 'Allow Flux objects of the given services (backstage.io/kubernetes-id)',
    resourceRef: fluxObjectResourceRef,
    paramsSchema: namesSchema('services', 'service names'),
    apply: (object, { services }) => has(object, 'service', services),
    toQuery: ({ services }) => ({ field: 'service', values: services }),
  }),
  isOwnedBy: createPermissionRule<Ref, { claims: string[] }>({
    name: 'IS_OWNED_BY',
    description:
      "Allow Flux objects owned by one of the given entity refs (a policy passes the caller's ownership refs): the owner of a catalog Component of the object's service, or the group its tenant maps to",
    resourceRef: fluxObjectResourceRef,
    paramsSchema: namesSchema('claims', 'entity refs, e.g. group:default/platform'),
    apply: (object, { claims }) => has(object, 'owner', claims),
    toQuery: ({ claims }) => ({ field: 'owner', values: claims }),
  }),
};
