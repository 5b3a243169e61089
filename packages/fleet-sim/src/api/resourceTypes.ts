/**
 * The API resources a simulated cluster serves: a few built-in Kubernetes resources and every Flux kind, with
 * the names, short names, categories, printer columns and subresources kube-apiserver reports for them. The
 * Flux facts are written from the Flux CRDs (`shared/crds`, checked by a test), never loaded from them.
 */
import { INSTALL_RESOURCE_TYPES } from './coreResources';
import { servedFluxVersions } from './fluxReleases';
import type { PrinterColumn, ResourceType } from './resourceType';

export type { PrinterColumn, ResourceType } from './resourceType';

const ALL_VERBS = [
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'create',
  'update',
  'watch',
];

const AGE: PrinterColumn = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
};
const READY: PrinterColumn = {
  name: 'Ready',
  type: 'string',
  jsonPath: '.status.conditions[?(@.type=="Ready")].status',
};
const STATUS: PrinterColumn = {
  name: 'Status',
  type: 'string',
  jsonPath: '.status.conditions[?(@.type=="Ready")].message',
};

function flux(
  group: string,
  kind: string,
  plural: string,
  options: {
    shortNames?: string[];
    categories?: string[];
    columns: PrinterColumn[];
    statusSubresource?: boolean;
  },
): ResourceType {
  return {
    group,
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    namespaced: true,
    shortNames: options.shortNames,
    categories: options.categories,
    statusSubresource: options.statusSubresource ?? true,
    verbs: ALL_VERBS,
    columns: options.columns,
    flux: true,
  };
}

const SOURCE = 'source.toolkit.fluxcd.io';
const SOURCE_CATEGORIES = ['all', 'fluxcd', 'fluxcd-sources'];
const APPLIER_CATEGORIES = ['all', 'fluxcd', 'fluxcd-appliers'];
const IMAGE_CATEGORIES = ['all', 'fluxcd', 'fluxcd-images'];
const NOTIFICATION_CATEGORIES = ['all', 'fluxcd', 'fluxcd-notifications'];
const URL: PrinterColumn = {
  name: 'URL',
  type: 'string',
  jsonPath: '.spec.url',
};

/** Every Flux kind, in the order of the vocabulary. */
export const FLUX_RESOURCE_TYPES: readonly ResourceType[] = [
  flux(SOURCE, 'GitRepository', 'gitrepositories', {
    shortNames: ['gitrepo'],
    categories: SOURCE_CATEGORIES,
    columns: [URL, AGE, READY, STATUS],
  }),
  flux(SOURCE, 'OCIRepository', 'ocirepositories', {
    shortNames: ['ocirepo'],
    categories: SOURCE_CATEGORIES,
    columns: [URL, READY, STATUS, AGE],
  }),
  flux(SOURCE, 'HelmRepository', 'helmrepositories', {
    shortNames: ['helmrepo'],
    categories: SOURCE_CATEGORIES,
    columns: [URL, AGE, READY, STATUS],
  }),
  flux(SOURCE, 'HelmChart', 'helmcharts', {
    shortNames: ['hc'],
    categories: SOURCE_CATEGORIES,
    columns: [
      { name: 'Chart', type: 'string', jsonPath: '.spec.chart' },
      { name: 'Version', type: 'string', jsonPath: '.spec.version' },
      { name: 'Source Kind', type: 'string', jsonPath: '.spec.sourceRef.kind' },
      { name: 'Source Name', type: 'string', jsonPath: '.spec.sourceRef.name' },
      AGE,
      READY,
      STATUS,
    ],
  }),
  flux(SOURCE, 'Bucket', 'buckets', {
    categories: SOURCE_CATEGORIES,
    columns: [
      { name: 'Endpoint', type: 'string', jsonPath: '.spec.endpoint' },
      AGE,
      READY,
      STATUS,
    ],
  }),
  flux(SOURCE, 'ExternalArtifact', 'externalartifacts', {
    shortNames: ['ea'],
    categories: SOURCE_CATEGORIES,
    columns: [
      AGE,
      READY,
      STATUS,
      { name: 'Source', type: 'string', jsonPath: '.spec.sourceRef.name' },
    ],
  }),
  flux('kustomize.toolkit.fluxcd.io', 'Kustomization', 'kustomizations', {
    shortNames: ['ks'],
    categories: APPLIER_CATEGORIES,
    columns: [AGE, READY, STATUS],
  }),
  flux('helm.toolkit.fluxcd.io', 'HelmRelease', 'helmreleases', {
    shortNames: ['hr'],
    categories: APPLIER_CATEGORIES,
    columns: [AGE, READY, STATUS],
  }),
  flux('notification.toolkit.fluxcd.io', 'Alert', 'alerts', {
    categories: NOTIFICATION_CATEGORIES,
    columns: [AGE],
    statusSubresource: false,
  }),
  flux('notification.toolkit.fluxcd.io', 'Provider', 'providers', {
    categories: NOTIFICATION_CATEGORIES,
    columns: [AGE],
    statusSubresource: false,
  }),
  flux('notification.toolkit.fluxcd.io', 'Receiver', 'receivers', {
    categories: NOTIFICATION_CATEGORIES,
    columns: [AGE, READY, STATUS],
  }),
  flux('image.toolkit.fluxcd.io', 'ImageRepository', 'imagerepositories', {
    shortNames: ['imgrepo', 'imagerepo'],
    categories: IMAGE_CATEGORIES,
    columns: [
      { name: 'Image', type: 'string', jsonPath: '.spec.image' },
      {
        name: 'Tags',
        type: 'string',
        jsonPath: '.status.lastScanResult.tagCount',
      },
      READY,
      STATUS,
      {
        name: 'Last scan',
        type: 'string',
        jsonPath: '.status.lastScanResult.scanTime',
        priority: 1,
      },
      AGE,
    ],
  }),
  flux('image.toolkit.fluxcd.io', 'ImagePolicy', 'imagepolicies', {
    shortNames: ['imgpol', 'imagepol'],
    categories: IMAGE_CATEGORIES,
    columns: [
      { name: 'Image', type: 'string', jsonPath: '.status.latestRef.name' },
      { name: 'Tag', type: 'string', jsonPath: '.status.latestRef.tag' },
      READY,
      STATUS,
      AGE,
    ],
  }),
  flux(
    'image.toolkit.fluxcd.io',
    'ImageUpdateAutomation',
    'imageupdateautomations',
    {
      shortNames: ['iua', 'imgupd', 'imgauto'],
      categories: IMAGE_CATEGORIES,
      columns: [
        READY,
        STATUS,
        {
          name: 'Last run',
          type: 'string',
          jsonPath: '.status.lastAutomationRunTime',
          priority: 1,
        },
        AGE,
      ],
    },
  ),
  flux(
    'source.extensions.fluxcd.io',
    'ArtifactGenerator',
    'artifactgenerators',
    {
      shortNames: ['ag'],
      columns: [AGE, READY, STATUS],
    },
  ),
  flux('fluxcd.controlplane.io', 'FluxInstance', 'fluxinstances', {
    categories: ['fluxcd', 'fluxcd-appliers'],
    columns: [
      AGE,
      READY,
      STATUS,
      {
        name: 'Revision',
        type: 'string',
        jsonPath: '.status.lastAttemptedRevision',
      },
    ],
  }),
  flux('fluxcd.controlplane.io', 'FluxReport', 'fluxreports', {
    categories: ['fluxcd'],
    columns: [
      {
        name: 'Entitlement',
        type: 'string',
        jsonPath: '.spec.distribution.entitlement',
        priority: 10,
      },
      AGE,
      READY,
      STATUS,
      {
        name: 'LastUpdated',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="Ready")].lastTransitionTime',
      },
    ],
  }),
  flux('fluxcd.controlplane.io', 'ResourceSet', 'resourcesets', {
    shortNames: ['rset'],
    categories: APPLIER_CATEGORIES,
    columns: [AGE, READY, STATUS],
  }),
  flux(
    'fluxcd.controlplane.io',
    'ResourceSetInputProvider',
    'resourcesetinputproviders',
    {
      shortNames: ['rsip'],
      categories: SOURCE_CATEGORIES,
      columns: [AGE, READY, STATUS],
    },
  ),
];

/** The built-in Kubernetes resources a simulated cluster serves, with their API versions. */
export const CORE_RESOURCE_TYPES: ReadonlyArray<{
  type: ResourceType;
  version: string;
}> = [
  {
    version: 'v1',
    type: {
      group: '',
      kind: 'Namespace',
      listKind: 'NamespaceList',
      plural: 'namespaces',
      singular: 'namespace',
      namespaced: false,
      shortNames: ['ns'],
      statusSubresource: true,
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      columns: [
        { name: 'Status', type: 'string', jsonPath: '.status.phase' },
        AGE,
      ],
      flux: false,
    },
  },
  {
    version: 'v1',
    type: {
      group: '',
      kind: 'ServiceAccount',
      listKind: 'ServiceAccountList',
      plural: 'serviceaccounts',
      singular: 'serviceaccount',
      namespaced: true,
      shortNames: ['sa'],
      statusSubresource: false,
      verbs: ALL_VERBS,
      columns: [AGE],
      flux: false,
    },
  },
  {
    version: 'v1',
    type: {
      group: '',
      kind: 'Event',
      listKind: 'EventList',
      plural: 'events',
      singular: 'event',
      namespaced: true,
      shortNames: ['ev'],
      statusSubresource: false,
      verbs: ALL_VERBS,
      columns: [
        { name: 'Last Seen', type: 'date', jsonPath: '.lastTimestamp' },
        { name: 'Type', type: 'string', jsonPath: '.type' },
        { name: 'Reason', type: 'string', jsonPath: '.reason' },
        { name: 'Object', type: 'string', jsonPath: '.involvedObject.name' },
        { name: 'Message', type: 'string', jsonPath: '.message' },
      ],
      flux: false,
    },
  },
  {
    version: 'v1',
    type: {
      group: '',
      kind: 'Pod',
      listKind: 'PodList',
      plural: 'pods',
      singular: 'pod',
      namespaced: true,
      shortNames: ['po'],
      categories: ['all'],
      statusSubresource: true,
      // Pods follow their Deployment (the simulated ReplicaSet): clients read them and their metrics proxy.
      verbs: ['get', 'list', 'watch'],
      columns: [
        {
          name: 'Ready',
          type: 'string',
          jsonPath: '.status.containerStatuses',
        },
        { name: 'Status', type: 'string', jsonPath: '.status.phase' },
        {
          name: 'Restarts',
          type: 'integer',
          jsonPath: '.status.containerStatuses[0].restartCount',
        },
        AGE,
        { name: 'IP', type: 'string', jsonPath: '.status.podIP', priority: 1 },
        {
          name: 'Node',
          type: 'string',
          jsonPath: '.spec.nodeName',
          priority: 1,
        },
      ],
      flux: false,
    },
  },
  {
    version: 'v1',
    type: {
      group: 'apps',
      kind: 'Deployment',
      listKind: 'DeploymentList',
      plural: 'deployments',
      singular: 'deployment',
      namespaced: true,
      shortNames: ['deploy'],
      categories: ['all'],
      statusSubresource: true,
      verbs: ALL_VERBS,
      columns: [
        { name: 'Ready', type: 'string', jsonPath: '.status.readyReplicas' },
        {
          name: 'Up-to-date',
          type: 'integer',
          jsonPath: '.status.updatedReplicas',
        },
        {
          name: 'Available',
          type: 'integer',
          jsonPath: '.status.availableReplicas',
        },
        AGE,
      ],
      flux: false,
    },
  },
  {
    version: 'v1',
    type: {
      group: 'apiextensions.k8s.io',
      kind: 'CustomResourceDefinition',
      listKind: 'CustomResourceDefinitionList',
      plural: 'customresourcedefinitions',
      singular: 'customresourcedefinition',
      namespaced: false,
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      statusSubresource: true,
      verbs: ALL_VERBS,
      columns: [
        {
          name: 'Created At',
          type: 'date',
          jsonPath: '.metadata.creationTimestamp',
        },
      ],
      flux: false,
    },
  },
];

/** The core resource type of a kind (Namespace, ServiceAccount, Event, Pod, Deployment, CustomResourceDefinition). */
export function coreResourceType(kind: string): ResourceType {
  const entry = CORE_RESOURCE_TYPES.find(t => t.type.kind === kind);
  if (!entry) throw new Error(`Not a served core kind: ${kind}`);
  return entry.type;
}

/** Storage key of a resource type: `<group>/<plural>`. */
export function resourceKey(type: { group: string; plural: string }): string {
  return `${type.group}/${type.plural}`;
}

/** `group/version`, or `version` for the core group. */
export function groupVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** What one simulated cluster serves: each resource type with its versions, preferred first. */
export interface ServedResource {
  type: ResourceType;
  versions: string[];
}

/**
 * The resources a cluster serves for a Flux minor release. `withOperator` adds the `fluxcd.controlplane.io`
 * kinds, whose CRDs only exist where the Flux Operator is installed.
 */
export function servedResources(
  fluxMinor: number,
  withOperator: boolean,
): ServedResource[] {
  const served: ServedResource[] = [
    ...CORE_RESOURCE_TYPES,
    ...INSTALL_RESOURCE_TYPES,
  ].map(c => ({
    type: c.type,
    versions: [c.version],
  }));
  for (const type of FLUX_RESOURCE_TYPES) {
    if (type.group === 'fluxcd.controlplane.io' && !withOperator) continue;
    const versions = servedFluxVersions(type.kind, fluxMinor);
    if (versions.length > 0) served.push({ type, versions });
  }
  return served;
}
