/**
 * The words of Flux Fleet, as constants: Flux kinds and their API groups, the controllers that reconcile them,
 * reconcile states, owner statuses, boundary enforcement levels and finding types. Every package uses these
 * names, so the code, the API, the UI and the docs say the same thing. Rules: `docs/rules.md`.
 */

/** Flux kinds Flux Fleet understands, grouped by API group. */
export const FLUX_GROUPS = {
  'source.toolkit.fluxcd.io': [
    'GitRepository',
    'OCIRepository',
    'HelmRepository',
    'HelmChart',
    'Bucket',
    'ExternalArtifact',
  ],
  'kustomize.toolkit.fluxcd.io': ['Kustomization'],
  'helm.toolkit.fluxcd.io': ['HelmRelease'],
  'notification.toolkit.fluxcd.io': ['Alert', 'Provider', 'Receiver'],
  'image.toolkit.fluxcd.io': [
    'ImageRepository',
    'ImagePolicy',
    'ImageUpdateAutomation',
  ],
  'source.extensions.fluxcd.io': ['ArtifactGenerator'],
  'fluxcd.controlplane.io': [
    'FluxInstance',
    'FluxReport',
    'ResourceSet',
    'ResourceSetInputProvider',
  ],
} as const;

/** An API group that serves Flux kinds. */
export type FluxGroup = keyof typeof FLUX_GROUPS;

/** A Flux kind, e.g. `Kustomization`. */
export type FluxKind = (typeof FLUX_GROUPS)[FluxGroup][number];

/** Every Flux kind, in a stable order. */
export const FLUX_KINDS: readonly FluxKind[] = Object.values(
  FLUX_GROUPS,
).flat() as FluxKind[];

/** The API group of each Flux kind. */
export const FLUX_KIND_GROUP: Readonly<Record<FluxKind, FluxGroup>> =
  Object.fromEntries(
    Object.entries(FLUX_GROUPS).flatMap(([group, kinds]) =>
      kinds.map(kind => [kind, group]),
    ),
  ) as Record<FluxKind, FluxGroup>;

/** The lower-case plural resource name of each Flux kind, as served by the Kubernetes API. */
export const FLUX_KIND_PLURAL: Readonly<Record<FluxKind, string>> = {
  GitRepository: 'gitrepositories',
  OCIRepository: 'ocirepositories',
  HelmRepository: 'helmrepositories',
  HelmChart: 'helmcharts',
  Bucket: 'buckets',
  ExternalArtifact: 'externalartifacts',
  Kustomization: 'kustomizations',
  HelmRelease: 'helmreleases',
  Alert: 'alerts',
  Provider: 'providers',
  Receiver: 'receivers',
  ImageRepository: 'imagerepositories',
  ImagePolicy: 'imagepolicies',
  ImageUpdateAutomation: 'imageupdateautomations',
  ArtifactGenerator: 'artifactgenerators',
  FluxInstance: 'fluxinstances',
  FluxReport: 'fluxreports',
  ResourceSet: 'resourcesets',
  ResourceSetInputProvider: 'resourcesetinputproviders',
};

/** Reconcilers apply workloads and have an inventory. */
export const RECONCILER_KINDS: readonly FluxKind[] = [
  'Kustomization',
  'HelmRelease',
  'FluxInstance',
  'ResourceSet',
];

/** Kinds whose apply runs under an effective service account (rules §5). */
export const IMPERSONATING_KINDS: readonly FluxKind[] = [
  'Kustomization',
  'HelmRelease',
];

/** A Flux controller, by its `app.kubernetes.io/component` label. */
export type ControllerComponent =
  | 'source-controller'
  | 'kustomize-controller'
  | 'helm-controller'
  | 'notification-controller'
  | 'image-reflector-controller'
  | 'image-automation-controller'
  | 'source-watcher';

/** The controller components a Flux instance can have, in a stable order. */
export const CONTROLLER_COMPONENTS: readonly ControllerComponent[] = [
  'source-controller',
  'kustomize-controller',
  'helm-controller',
  'notification-controller',
  'image-reflector-controller',
  'image-automation-controller',
  'source-watcher',
];

/**
 * Who reconciles each kind (rules §3): a controller component, `flux-operator`, or `none` (ExternalArtifact is
 * written by its producer).
 */
export const KIND_RECONCILED_BY: Readonly<
  Record<FluxKind, ControllerComponent | 'flux-operator' | 'none'>
> = {
  GitRepository: 'source-controller',
  OCIRepository: 'source-controller',
  HelmRepository: 'source-controller',
  HelmChart: 'source-controller',
  Bucket: 'source-controller',
  ExternalArtifact: 'none',
  Kustomization: 'kustomize-controller',
  HelmRelease: 'helm-controller',
  Alert: 'notification-controller',
  Provider: 'notification-controller',
  Receiver: 'notification-controller',
  ImageRepository: 'image-reflector-controller',
  ImagePolicy: 'image-reflector-controller',
  ImageUpdateAutomation: 'image-automation-controller',
  ArtifactGenerator: 'source-watcher',
  FluxInstance: 'flux-operator',
  FluxReport: 'flux-operator',
  ResourceSet: 'flux-operator',
  ResourceSetInputProvider: 'flux-operator',
};

/** Reconcile states (rules §2). */
export const RECONCILE_STATES = [
  'ready',
  'progressing',
  'failed',
  'blocked',
  'stalled',
  'suspended',
  'never-reconciled',
  'terminating',
  'unknown',
] as const;

/** A reconcile state (rules §2). */
export type ReconcileStateName = (typeof RECONCILE_STATES)[number];

/** Owner statuses (rules §4). */
export const OWNER_STATUSES = ['ok', 'orphan', 'contested'] as const;

/** Whether exactly one controller watches an object (rules §4). */
export type OwnerStatus = (typeof OWNER_STATUSES)[number];

/** Boundary enforcement levels, weakest first (rules §5). */
export const ENFORCEMENT_LEVELS = ['none', 'partial', 'enforced'] as const;

/** Whether the instance enforces an object's tenancy boundary (rules §5). */
export type Enforcement = (typeof ENFORCEMENT_LEVELS)[number];

/** Finding types (rules §8). */
export const FINDING_TYPES = [
  'orphan',
  'contested',
  'cross-shard-reference',
  'cross-tenant-reference',
  'boundary-none',
  'reconcile-not-handled',
  'dependency-cycle',
  'missing-dependency',
  'missing-source',
  'shard-over-capacity',
  'mixed-versions',
  'upgrade-blocked',
  'deprecated-api',
] as const;

/** A kind of problem the fleet analysis reports (rules §8). */
export type FindingType = (typeof FINDING_TYPES)[number];

/** How bad a finding is. */
export type FindingSeverity = 'error' | 'warning' | 'info';

/** The shard name of controllers without a shard selector. */
export const MAIN_SHARD = 'main';

/** Labels and annotations Flux Fleet reads. */
export const LABELS = {
  partOf: 'app.kubernetes.io/part-of',
  instance: 'app.kubernetes.io/instance',
  component: 'app.kubernetes.io/component',
  version: 'app.kubernetes.io/version',
  managedBy: 'app.kubernetes.io/managed-by',
  shardKey: 'sharding.fluxcd.io/key',
  tenant: 'toolkit.fluxcd.io/tenant',
  kubernetesId: 'backstage.io/kubernetes-id',
} as const;

/** Annotations Flux Fleet reads or writes. */
export const ANNOTATIONS = {
  reconcileRequestedAt: 'reconcile.fluxcd.io/requestedAt',
  reconcileForceAt: 'reconcile.fluxcd.io/forceAt',
  reconcileResetAt: 'reconcile.fluxcd.io/resetAt',
  operatorReconcile: 'fluxcd.controlplane.io/reconcile',
  /** Our own annotation linking a Flux object to a service (rules §6). */
  service: 'flux-fleet.io/service',
  kubernetesLabelSelector: 'backstage.io/kubernetes-label-selector',
  kubernetesId: 'backstage.io/kubernetes-id',
} as const;

/** How long a reconcile request may stay unhandled before it is a finding (rules §2). */
export const RECONCILE_NOT_HANDLED_AFTER_MS = 5 * 60 * 1000;

const FLUX_KIND_SET: ReadonlySet<string> = new Set(FLUX_KINDS);

/** Whether a string is one of the Flux kinds of {@link FLUX_KINDS}. */
export function isFluxKind(value: unknown): value is FluxKind {
  return typeof value === 'string' && FLUX_KIND_SET.has(value);
}

/** Sources served by source-controller (the kinds whose load estimate is that of a source, rules §9). */
export const SOURCE_KINDS: readonly FluxKind[] = [
  'GitRepository',
  'OCIRepository',
  'HelmRepository',
  'HelmChart',
  'Bucket',
];

/** The controller name an owner shows for the kinds the Flux Operator reconciles (rules §4). */
export const FLUX_OPERATOR = 'flux-operator';

/** Default `--concurrent` of each controller when the flag is absent (rules §3). */
export const DEFAULT_CONCURRENCY: Readonly<
  Record<ControllerComponent, number>
> = {
  'source-controller': 2,
  'kustomize-controller': 4,
  'helm-controller': 4,
  'notification-controller': 4,
  'image-reflector-controller': 4,
  'image-automation-controller': 4,
  'source-watcher': 4,
};

/**
 * Controllers that accept `--no-cross-namespace-refs` (source-controller and source-watcher do not): an
 * instance locks down cross-namespace references when all of these that it runs have the flag on.
 */
export const LOCKDOWN_COMPONENTS: readonly ControllerComponent[] = [
  'kustomize-controller',
  'helm-controller',
  'notification-controller',
  'image-reflector-controller',
  'image-automation-controller',
];

/**
 * Workload kinds whose `backstage.io/kubernetes-id` label names the service of the Flux object that applied
 * them (rules §6), with their API group as it appears in inventory ids.
 */
export const WORKLOAD_KIND_GROUP = {
  Deployment: 'apps',
  StatefulSet: 'apps',
  DaemonSet: 'apps',
  CronJob: 'batch',
} as const;

/** A workload kind (rules §6). */
export type WorkloadKind = keyof typeof WORKLOAD_KIND_GROUP;

/** How bad each kind of finding is (rules §8). */
export const FINDING_SEVERITY: Readonly<Record<FindingType, FindingSeverity>> =
  {
    orphan: 'error',
    contested: 'error',
    'cross-shard-reference': 'warning',
    'cross-tenant-reference': 'warning',
    'boundary-none': 'warning',
    'reconcile-not-handled': 'warning',
    'dependency-cycle': 'error',
    'missing-dependency': 'error',
    'missing-source': 'error',
    'shard-over-capacity': 'warning',
    'mixed-versions': 'warning',
    'upgrade-blocked': 'error',
    'deprecated-api': 'warning',
  };

/** Load estimates per kind when an object does not report its last reconcile duration (rules §9), in ms. */
export function estimatedReconcileDurationMs(kind: FluxKind): number {
  if (SOURCE_KINDS.includes(kind)) return 2_000;
  if (kind === 'Kustomization') return 10_000;
  if (kind === 'HelmRelease') return 20_000;
  return 1_000;
}

/** The interval assumed when an object has no readable `spec.interval` (rules §9), in ms. */
export const DEFAULT_INTERVAL_MS = 10 * 60 * 1000;
