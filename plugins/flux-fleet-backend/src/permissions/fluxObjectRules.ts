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

/** The fields of a Flux object that read permissions can be conditioned on. */
export type FluxObjectField = 'cluster' | 'namespace' | 'tenant' | 'service';

/** A condition as the index evaluates it: the object's field is one of the values. */
export interface FluxObjectQuery {
  field: FluxObjectField;
  values: string[];
}

/** The permission resource of a Flux object: `flux-fleet-object`, its ref being the object's key. */
export const fluxObjectResourceRef = createPermissionResourceRef<
  FleetObject,
  FluxObjectQuery
>().with({ pluginId: 'flux-fleet', resourceType: FLUX_OBJECT_RESOURCE_TYPE });

/** The value of a field of an object, as rules read it. */
export function fieldOf(object: FleetObject, field: FluxObjectField): string | null {
  switch (field) {
    case 'cluster':
      return object.ref.cluster;
    case 'namespace':
      return object.ref.namespace;
    case 'tenant':
      return object.boundary.tenant;
    default:
      return object.service;
  }
}

type Ref = typeof fluxObjectResourceRef;

/** A parameter schema: a list of names (zod 3, which the permission framework turns into JSON Schema). */
function namesSchema(param: string, what: string): any {
  return z.object({ [param]: z.array(z.string()).describe(what) });
}

const has = (object: FleetObject, field: FluxObjectField, values: string[]) => {
  const value = fieldOf(object, field);
  return value !== null && values.includes(value);
};

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
};
