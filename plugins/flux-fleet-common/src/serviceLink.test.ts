import {
  gitRepository,
  readyHelmRelease,
  readyKustomization,
  v2beta1HelmRelease,
} from './fixtures/fluxObjects';
import { normalizeFluxObject, normalizeWorkload } from './normalize';
import type { FluxObjectRecord, WorkloadRecord } from './record';
import {
  EntityLinkTarget,
  deriveService,
  deriveServiceLink,
  entityLinkOf,
  inventoryWorkloadLabels,
  matchesEntityLink,
} from './serviceLink';

function recordOf(raw: unknown): FluxObjectRecord {
  const result = normalizeFluxObject('prod-eu', raw);
  if (!result.record) throw new Error(result.error);
  return result.record;
}

function workload(
  kind: string,
  namespace: string,
  name: string,
  labels: Record<string, string>,
): WorkloadRecord {
  const result = normalizeWorkload('prod-eu', {
    kind,
    metadata: { name, namespace, labels },
  });
  if (!result.record) throw new Error(result.error);
  return result.record;
}

const workloads = new Map(
  [
    workload('Deployment', 'team-payments', 'payments-api', {
      app: 'payments-api',
    }),
    workload('Deployment', 'team-payments', 'payments-worker', {
      'backstage.io/kubernetes-id': 'payments-worker',
      tier: 'batch',
    }),
    workload('CronJob', 'team-payments', 'payments-nightly', {
      'backstage.io/kubernetes-id': 'payments-nightly',
    }),
    workload('Deployment', 'team-shop', 'checkout', {
      'backstage.io/kubernetes-id': 'checkout-from-workload',
    }),
  ].map(w => [w.id, w.labels]),
);

function withAnnotation(service: string) {
  const k = readyKustomization() as any;
  k.metadata.annotations['flux-fleet.io/service'] = service;
  return k;
}

describe('deriveServiceLink', () => {
  it.each<[string, unknown, object | undefined]>([
    [
      '1. its own kubernetes-id label wins',
      readyHelmRelease(),
      { service: 'checkout-service', via: 'label' },
    ],
    [
      '2. else our annotation',
      withAnnotation('payments'),
      { service: 'payments', via: 'annotation' },
    ],
    [
      '3. else the first workload of its inventory that has the label (the API Deployment has none)',
      readyKustomization(),
      {
        service: 'payments-worker',
        via: 'workload',
        workload: 'team-payments_payments-worker_apps_Deployment',
      },
    ],
    ['a source applies nothing: no service', gitRepository(), undefined],
    [
      'a remote reconciler: its inventory is in another cluster',
      v2beta1HelmRelease(),
      undefined,
    ],
  ])('%s', (_, raw, expected) => {
    expect(deriveServiceLink(recordOf(raw), workloads)).toEqual(expected);
  });

  it('links a HelmRelease to its service through the status.inventory helm-controller writes (Flux 2.8+)', () => {
    const release = readyHelmRelease() as any;
    delete release.metadata.labels['backstage.io/kubernetes-id'];
    release.metadata.namespace = 'team-payments';
    release.status.inventory = {
      entries: [
        { id: 'team-payments_payments-api_apps_Deployment', v: 'v1' },
        { id: 'team-payments_payments-worker_apps_Deployment', v: 'v1' },
        { id: 'team-payments_payments-worker__Service', v: 'v1' },
      ],
    };
    expect(deriveServiceLink(recordOf(release), workloads)).toEqual({
      service: 'payments-worker',
      via: 'workload',
      workload: 'team-payments_payments-worker_apps_Deployment',
    });
  });

  it('does not read workloads of another cluster for a reconciler with spec.kubeConfig', () => {
    const k = readyKustomization() as any;
    k.spec.kubeConfig = { secretRef: { name: 'edge-kubeconfig' } };
    expect(deriveService(recordOf(k), workloads)).toBeNull();
    expect(inventoryWorkloadLabels(recordOf(k), workloads)).toEqual([]);
  });

  it('is null without workloads to look up', () => {
    expect(deriveService(recordOf(readyKustomization()))).toBeNull();
  });

  it('lists the labels of the known workloads of an inventory in inventory order', () => {
    expect(
      inventoryWorkloadLabels(recordOf(readyKustomization()), workloads),
    ).toEqual([
      { app: 'payments-api' },
      { 'backstage.io/kubernetes-id': 'payments-worker', tier: 'batch' },
      { 'backstage.io/kubernetes-id': 'payments-nightly' },
    ]);
  });
});

describe('entityLinkOf', () => {
  it.each([
    [{ metadata: { name: 'payments' } }, { kubernetesId: 'payments' }],
    [
      {
        metadata: {
          name: 'payments',
          annotations: { 'backstage.io/kubernetes-id': 'payments-svc' },
        },
      },
      { kubernetesId: 'payments-svc' },
    ],
    [
      {
        metadata: {
          name: 'payments',
          annotations: {
            'backstage.io/kubernetes-label-selector': 'app=payments',
          },
        },
      },
      { kubernetesId: 'payments', labelSelector: 'app=payments' },
    ],
  ])('reads %j', (entity, link) => {
    expect(entityLinkOf(entity)).toEqual(link);
  });
});

describe('matchesEntityLink', () => {
  const target: EntityLinkTarget = {
    labels: { 'sharding.fluxcd.io/key': 'shard1' },
    service: 'payments-worker',
    workloadLabels: [{ app: 'payments-api' }, { tier: 'batch' }],
  };

  it.each<[object, boolean]>([
    [{ kubernetesId: 'payments-worker' }, true],
    [{ kubernetesId: 'checkout' }, false],
    [
      {
        kubernetesId: 'checkout',
        labelSelector: 'sharding.fluxcd.io/key=shard1',
      },
      true,
    ],
    [{ kubernetesId: 'checkout', labelSelector: 'app=payments-api' }, true],
    [{ kubernetesId: 'checkout', labelSelector: 'tier in (batch,web)' }, true],
    [{ kubernetesId: 'checkout', labelSelector: 'app=checkout' }, false],
    [{ kubernetesId: 'checkout', labelSelector: 'app in (' }, false],
    [{}, false],
  ])('%j: %s', (link, expected) => {
    expect(matchesEntityLink(target, link)).toBe(expected);
  });

  it('does not match an object without service by an absent kubernetes-id', () => {
    expect(
      matchesEntityLink(
        { labels: {}, service: null },
        { labelSelector: 'app=x' },
      ),
    ).toBe(false);
  });
});
