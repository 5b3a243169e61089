import type {
  FleetObject,
  FluxKind,
  InstanceSummary,
  ObjectReference,
  Owner,
  ShardSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { InMemoryCluster } from './InMemoryFleetIndex';

const API_VERSIONS: Partial<Record<FluxKind, string>> = {
  GitRepository: 'source.toolkit.fluxcd.io/v1',
  HelmRepository: 'source.toolkit.fluxcd.io/v1',
  OCIRepository: 'source.toolkit.fluxcd.io/v1',
  Kustomization: 'kustomize.toolkit.fluxcd.io/v1',
  HelmRelease: 'helm.toolkit.fluxcd.io/v2',
  Alert: 'notification.toolkit.fluxcd.io/v1beta3',
};

/** What varies between the Flux objects of the fixtures; the rest is filled in as the backend would. */
export interface FleetObjectSpec {
  cluster: string;
  namespace: string;
  kind: FluxKind;
  name: string;
  /** `instance/shard`, `orphan`, or `contested`. */
  owner: string;
  tenant?: string;
  service?: string;
  sourceRef?: ObjectReference;
  dependsOn?: ObjectReference[];
  labels?: Record<string, string>;
}

/** A Flux object as the backend's index serves it, with live state the catalog module must ignore. */
export function fleetObject(spec: FleetObjectSpec): FleetObject {
  const ref = {
    cluster: spec.cluster,
    namespace: spec.namespace,
    kind: spec.kind,
    name: spec.name,
  };
  let owner: Owner;
  if (spec.owner === 'orphan') {
    owner = { status: 'orphan', instance: null, shard: null, controller: null };
  } else if (spec.owner === 'contested') {
    owner = {
      status: 'contested',
      instance: null,
      shard: null,
      controller: null,
      candidates: [
        { instance: 'flux-system', shard: 'shard1', controller: 'kustomize-controller-shard1' },
        { instance: 'flux-system', shard: 'main', controller: 'kustomize-controller' },
      ],
    };
  } else {
    const [instance, shard] = spec.owner.split('/');
    owner = {
      status: 'ok',
      instance,
      shard,
      controller: shard === 'main' ? 'kustomize-controller' : `kustomize-controller-${shard}`,
    };
  }
  const instance = owner.status === 'ok' ? owner.instance : null;
  return {
    key: `${spec.cluster}/${spec.namespace}/${spec.kind}/${spec.name}`,
    ref,
    apiVersion: API_VERSIONS[spec.kind] ?? 'source.toolkit.fluxcd.io/v1',
    labels: {
      ...(owner.status === 'ok' && owner.shard !== 'main'
        ? { 'sharding.fluxcd.io/key': owner.shard! }
        : {}),
      ...(spec.service ? { 'backstage.io/kubernetes-id': spec.service } : {}),
      ...spec.labels,
    },
    state: {
      state: 'ready',
      reason: 'ReconciliationSucceeded',
      message: 'Applied revision: main@sha1:4f1c2d0b9e8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d',
      revision: 'main@sha1:4f1c2d0b9e8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d',
      since: '2025-11-30T17:02:11Z',
    },
    stale: false,
    owner,
    boundary: {
      cluster: spec.cluster,
      instance,
      namespace: spec.namespace,
      tenant: spec.tenant ?? null,
      serviceAccount: null,
      serviceAccountSource: 'controller',
      lockdown: false,
      enforcement: 'none',
      reasons: [
        "runs as the controller's own identity (no spec.serviceAccountName and no --default-service-account)",
      ],
    },
    service: spec.service ?? null,
    suspended: false,
    interval: '10m',
    sourceRef: spec.sourceRef,
    dependsOn: spec.dependsOn ?? [],
    findings: owner.status === 'orphan' ? ['orphan'] : [],
    updatedAt: '2025-11-30T17:02:11Z',
  };
}

/** A Flux instance with the given shards. */
export function instanceSummary(
  cluster: string,
  name: string,
  shards: string[],
): InstanceSummary {
  return {
    cluster,
    name,
    version: 'v2.7.3',
    operatorManaged: false,
    watchAllNamespaces: true,
    lockdown: false,
    shards,
    controllers: [],
    objectCount: 0,
  };
}

/** A shard with the conventional selector and controller names. */
export function shardSummary(
  cluster: string,
  instance: string,
  name: string,
): ShardSummary {
  const suffix = name === 'main' ? '' : `-${name}`;
  return {
    cluster,
    instance,
    name,
    selector:
      name === 'main'
        ? '!sharding.fluxcd.io/key'
        : `sharding.fluxcd.io/key=${name}`,
    controllers: [
      `helm-controller${suffix}`,
      `kustomize-controller${suffix}`,
      `source-controller${suffix}`,
    ],
    objectCount: 3,
    countsByKind: { Kustomization: 2 },
    countsByState: { ready: 3 },
    utilisation: 0.42,
  };
}

/**
 * prod-eu-1: one instance (flux-system) with shards main, shard1 and shard2; a platform Kustomization, the
 * payments team's Kustomization on shard2 that depends on it, a HelmRelease of the shop team on shard1, an orphan
 * (labelled for a shard3 that does not exist), the sources, and an Alert.
 */
export function prodEu1(): InMemoryCluster {
  const cluster = 'prod-eu-1';
  return {
    status: 'synced',
    instances: [instanceSummary(cluster, 'flux-system', ['main', 'shard1', 'shard2'])],
    shards: ['main', 'shard1', 'shard2'].map(s => shardSummary(cluster, 'flux-system', s)),
    objects: [
      fleetObject({
        cluster,
        namespace: 'flux-system',
        kind: 'GitRepository',
        name: 'flux-system',
        owner: 'flux-system/main',
      }),
      fleetObject({
        cluster,
        namespace: 'apps',
        kind: 'GitRepository',
        name: 'payments',
        owner: 'flux-system/shard2',
        tenant: 'payments',
      }),
      fleetObject({
        cluster,
        namespace: 'apps',
        kind: 'HelmRepository',
        name: 'bitnami',
        owner: 'flux-system/shard1',
        tenant: 'shop',
      }),
      fleetObject({
        cluster,
        namespace: 'flux-system',
        kind: 'Kustomization',
        name: 'infra-controllers',
        owner: 'flux-system/main',
        sourceRef: { kind: 'GitRepository', namespace: 'flux-system', name: 'flux-system' },
      }),
      fleetObject({
        cluster,
        namespace: 'apps',
        kind: 'Kustomization',
        name: 'payments-api',
        owner: 'flux-system/shard2',
        tenant: 'payments',
        service: 'payments-api',
        sourceRef: { kind: 'GitRepository', namespace: 'apps', name: 'payments' },
        dependsOn: [{ kind: 'Kustomization', namespace: 'flux-system', name: 'infra-controllers' }],
      }),
      fleetObject({
        cluster,
        namespace: 'apps',
        kind: 'HelmRelease',
        name: 'checkout',
        owner: 'flux-system/shard1',
        tenant: 'shop',
        service: 'checkout',
        sourceRef: { kind: 'HelmRepository', namespace: 'apps', name: 'bitnami' },
      }),
      fleetObject({
        cluster,
        namespace: 'apps',
        kind: 'Kustomization',
        name: 'legacy-batch',
        owner: 'orphan',
        tenant: 'payments',
        labels: { 'sharding.fluxcd.io/key': 'shard3' },
      }),
      fleetObject({
        cluster,
        namespace: 'flux-system',
        kind: 'Alert',
        name: 'slack',
        owner: 'flux-system/main',
      }),
    ],
  };
}

/** prod-us-1: one unsharded instance running the payments service too. */
export function prodUs1(): InMemoryCluster {
  const cluster = 'prod-us-1';
  return {
    status: 'synced',
    instances: [instanceSummary(cluster, 'flux-system', ['main'])],
    shards: [shardSummary(cluster, 'flux-system', 'main')],
    objects: [
      fleetObject({
        cluster,
        namespace: 'apps',
        kind: 'Kustomization',
        name: 'payments-api',
        owner: 'flux-system/main',
        tenant: 'payments',
        service: 'payments-api',
        sourceRef: { kind: 'GitRepository', namespace: 'flux-system', name: 'flux-system' },
      }),
    ],
  };
}
