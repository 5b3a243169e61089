/**
 * Realistic Flux Fleet answers for the tests, shaped by the `-common` types and modelled on the objects in
 * `/work/shared/docs/examples` (a sharded Kustomization failing its health check, a HelmRelease v2 with history).
 */
import { Entity } from '@backstage/catalog-model';
import {
  ClusterHealth,
  EntityView,
  FleetObject,
  FleetObjectDetail,
  FluxObjectRef,
  InstanceSummary,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';

/** A fixed "now" for the tests: relative times are computed against it. */
export const NOW = Date.parse('2026-07-14T10:20:00Z');

export const paymentsEntity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'payments',
    namespace: 'default',
    annotations: { 'backstage.io/kubernetes-id': 'payments' },
  },
  spec: {
    type: 'service',
    owner: 'group:default/team-payments',
    lifecycle: 'production',
  },
};

const enforcedBoundary = (
  cluster: string,
  namespace: string,
  tenant: string | null,
): TenancyBoundary => ({
  cluster,
  instance: 'flux-system',
  namespace,
  tenant,
  serviceAccount: namespace,
  serviceAccountSource: 'object',
  lockdown: true,
  enforcement: 'enforced',
  reasons: [],
});

function keyOf(ref: FluxObjectRef) {
  return `${ref.cluster}/${ref.namespace}/${ref.kind}/${ref.name}`;
}

/** A Flux object; fields not given are those of a healthy Kustomization on the main shard. */
export function fleetObject(
  ref: FluxObjectRef,
  overrides: Partial<FleetObject> = {},
): FleetObject {
  return {
    key: keyOf(ref),
    ref,
    apiVersion:
      ref.kind === 'HelmRelease'
        ? 'helm.toolkit.fluxcd.io/v2'
        : 'kustomize.toolkit.fluxcd.io/v1',
    labels: {},
    state: {
      state: 'ready',
      reason: 'ReconciliationSucceeded',
      message:
        'Applied revision: main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
      revision: 'main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
      since: '2026-07-14T10:02:30Z',
    },
    stale: false,
    owner: {
      status: 'ok',
      instance: 'flux-system',
      shard: 'main',
      controller:
        ref.kind === 'HelmRelease' ? 'helm-controller' : 'kustomize-controller',
    },
    boundary: enforcedBoundary(ref.cluster, ref.namespace, 'payments'),
    service: 'payments',
    suspended: false,
    interval: '60m',
    sourceRef: {
      kind: 'GitRepository',
      namespace: ref.namespace,
      name: 'payments',
    },
    sourceUrl: 'https://github.com/acme/payments-deploy.git',
    dependsOn: [],
    findings: [],
    updatedAt: '2026-07-14T10:02:30Z',
    ...overrides,
  };
}

/** prod-eu-1: the Kustomization of `kustomization-sharded-failing.json`, on shard1, failing its health check. */
export const failingOnShard1 = fleetObject(
  {
    cluster: 'prod-eu-1',
    namespace: 'team-payments',
    kind: 'Kustomization',
    name: 'payments',
  },
  {
    labels: { 'sharding.fluxcd.io/key': 'shard1' },
    state: {
      state: 'failed',
      reason: 'HealthCheckFailed',
      message:
        "health check failed after 3m0.01s: timeout waiting for: [Deployment/team-payments/api status: 'InProgress']",
      revision: 'main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
      attemptedRevision: 'main@sha1:9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b',
      since: '2026-07-14T09:15:10Z',
      reconcileRequestedAt: '2026-07-14T09:12:03.114253411Z',
      lastHandledReconcileAt: '2026-07-14T09:12:03.114253411Z',
    },
    owner: {
      status: 'ok',
      instance: 'flux-system',
      shard: 'shard1',
      controller: 'kustomize-controller-shard1',
    },
    dependsOn: [
      {
        kind: 'Kustomization',
        namespace: 'flux-system',
        name: 'platform-crds',
      },
    ],
  },
);

/** prod-us-1: ready on the main shard. */
export const readyOnMain = fleetObject({
  cluster: 'prod-us-1',
  namespace: 'team-payments',
  kind: 'Kustomization',
  name: 'payments',
});

/** staging: blocked by a dependency that failed. */
export const blockedByDependency = fleetObject(
  {
    cluster: 'staging',
    namespace: 'team-payments',
    kind: 'Kustomization',
    name: 'payments',
  },
  {
    state: {
      state: 'blocked',
      reason: 'DependencyNotReady',
      message: "dependency 'flux-system/platform-crds' is not ready",
      since: '2026-07-14T10:10:00Z',
      blockedBy: {
        kind: 'Kustomization',
        namespace: 'flux-system',
        name: 'platform-crds',
      },
    },
    dependsOn: [
      {
        kind: 'Kustomization',
        namespace: 'flux-system',
        name: 'platform-crds',
      },
    ],
  },
);

/** The HelmRelease of `helmrelease-v2-history.json`, ready at chart 1.8.2. */
export const helmRelease = fleetObject(
  {
    cluster: 'prod-eu-1',
    namespace: 'team-payments',
    kind: 'HelmRelease',
    name: 'payments-api',
  },
  {
    state: {
      state: 'ready',
      reason: 'UpgradeSucceeded',
      message:
        'Helm upgrade succeeded for release team-payments/payments-api.v3 with chart payments-api@1.8.2',
      revision: '1.8.2',
      since: '2026-07-14T10:02:30Z',
    },
    interval: '10m',
    sourceRef: {
      kind: 'OCIRepository',
      namespace: 'team-payments',
      name: 'payments-chart',
    },
    sourceUrl: 'oci://ghcr.io/acme/charts/payments-api',
    owner: {
      status: 'ok',
      instance: 'flux-system',
      shard: 'main',
      controller: 'helm-controller',
    },
  },
);

export const clusters: ClusterHealth[] = [
  'prod-eu-1',
  'prod-us-1',
  'staging',
].map(name => ({
  name,
  status: 'synced',
  synced: true,
  objectCount: 1200,
  countsByKind: { Kustomization: 400, HelmRelease: 300, GitRepository: 500 },
  lastEventAt: '2026-07-14T10:19:58Z',
  lagMs: 120,
  fluxVersions: ['v2.8.3'],
  servedVersions: { 'kustomize.toolkit.fluxcd.io': 'v1' },
}));

export const instances: InstanceSummary[] = [
  'prod-eu-1',
  'prod-us-1',
  'staging',
].map(cluster => ({
  cluster,
  name: 'flux-system',
  version: 'v2.8.3',
  operatorManaged: cluster === 'prod-eu-1',
  fluxInstance: cluster === 'prod-eu-1' ? 'flux' : undefined,
  watchAllNamespaces: true,
  lockdown: true,
  defaultServiceAccount: undefined,
  shards: cluster === 'prod-eu-1' ? ['main', 'shard1', 'shard2'] : ['main'],
  controllers: [],
  objectCount: 1200,
}));

/** The entity view of `payments`: three clusters, four objects. */
export function entityView(overrides: Partial<EntityView> = {}): EntityView {
  return {
    entityRef: 'component:default/payments',
    link: { kubernetesId: 'payments' },
    objects: [failingOnShard1, helmRelease, readyOnMain, blockedByDependency],
    clusters: clusters.filter(c => c.name !== 'staging').concat(clusters[2]),
    ...overrides,
  };
}

/** The detail of an object, with nothing beyond the object itself unless given. */
export function objectDetail(
  object: FleetObject,
  overrides: Partial<FleetObjectDetail> = {},
): FleetObjectDetail {
  return {
    ...object,
    dependencies: [],
    inventory: [],
    events: [],
    findingDetails: [],
    ...overrides,
  };
}
