/**
 * The built-in Kubernetes resources a Flux install also writes (`flux install --export`): core `v1` Services and
 * ConfigMaps, `networking.k8s.io/v1` NetworkPolicies and the `rbac.authorization.k8s.io/v1` kinds. The simulator
 * stores and serves them like kube-apiserver (names, short names, scope, printer columns); it does not act on
 * them. Kept apart from `resourceTypes.ts` so that other core kinds can be added there without conflict.
 */
import type { PrinterColumn, ResourceType } from './resourceType';

const VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

const AGE: PrinterColumn = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
};

function builtIn(
  group: string,
  kind: string,
  plural: string,
  options: {
    namespaced?: boolean;
    shortNames?: string[];
    categories?: string[];
    statusSubresource?: boolean;
    columns?: PrinterColumn[];
  } = {},
): { type: ResourceType; version: string } {
  return {
    version: 'v1',
    type: {
      group,
      kind,
      listKind: `${kind}List`,
      plural,
      singular: kind.toLowerCase(),
      namespaced: options.namespaced ?? true,
      shortNames: options.shortNames,
      categories: options.categories,
      statusSubresource: options.statusSubresource ?? false,
      verbs: VERBS,
      columns: options.columns ?? [AGE],
      flux: false,
    },
  };
}

const RBAC = 'rbac.authorization.k8s.io';

/** Services, ConfigMaps, NetworkPolicies and RBAC, each at `v1`. */
export const INSTALL_RESOURCE_TYPES: ReadonlyArray<{
  type: ResourceType;
  version: string;
}> = [
  builtIn('', 'Service', 'services', {
    shortNames: ['svc'],
    categories: ['all'],
    statusSubresource: true,
    columns: [
      { name: 'Type', type: 'string', jsonPath: '.spec.type' },
      { name: 'Cluster-IP', type: 'string', jsonPath: '.spec.clusterIP' },
      AGE,
    ],
  }),
  builtIn('', 'ConfigMap', 'configmaps', { shortNames: ['cm'] }),
  builtIn('networking.k8s.io', 'NetworkPolicy', 'networkpolicies', {
    shortNames: ['netpol'],
  }),
  builtIn(RBAC, 'ClusterRole', 'clusterroles', { namespaced: false }),
  builtIn(RBAC, 'ClusterRoleBinding', 'clusterrolebindings', {
    namespaced: false,
  }),
  builtIn(RBAC, 'Role', 'roles'),
  builtIn(RBAC, 'RoleBinding', 'rolebindings'),
];
