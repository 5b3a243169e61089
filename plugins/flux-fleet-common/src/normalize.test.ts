import {
  alert,
  bucket,
  externalArtifact,
  failingKustomization,
  fluxInstance,
  gitRepository,
  helmChart,
  imagePolicy,
  imageRepository,
  imageUpdateAutomation,
  newKustomization,
  ociHelmRepository,
  ociRepository,
  provider,
  readyHelmRelease,
  readyKustomization,
  receiver,
  resourceSet,
  v1beta1Kustomization,
  v1beta2ImagePolicy,
  v2beta1HelmRelease,
} from './fixtures/fluxObjects';
import {
  normalizeFluxObject,
  normalizeNamespace,
  normalizeWorkload,
  urlHost,
  withoutCredentials,
} from './normalize';
import {
  FluxObjectRecord,
  inventoryEntries,
  inventoryWorkloadIds,
  MAX_MESSAGE_LENGTH,
} from './record';
import { ValuePool } from './valuePool';

function recordOf(raw: unknown): FluxObjectRecord {
  const result = normalizeFluxObject('prod-eu', raw);
  if (!result.record) throw new Error(result.error);
  return result.record;
}

describe('normalizeFluxObject', () => {
  it('keeps what the derivations, the API and the UI read of a Kustomization, and nothing else', () => {
    expect(recordOf(readyKustomization())).toEqual({
      key: 'prod-eu/team-payments/Kustomization/payments-api',
      cluster: 'prod-eu',
      namespace: 'team-payments',
      kind: 'Kustomization',
      name: 'payments-api',
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      generation: 3,
      labels: {
        'sharding.fluxcd.io/key': 'shard1',
        'kustomize.toolkit.fluxcd.io/name': 'tenants',
        'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
      },
      // last-applied-configuration is dropped: only the annotations Flux Fleet reads are kept.
      annotations: {
        'reconcile.fluxcd.io/requestedAt': '2026-07-14T09:12:03.114253411Z',
      },
      suspend: false,
      serviceAccountName: 'team-payments',
      interval: '10m',
      sourceRef: { kind: 'GitRepository', name: 'payments' },
      dependsOn: [
        {
          kind: 'Kustomization',
          name: 'platform-crds',
          namespace: 'flux-system',
        },
      ],
      remote: false,
      // Packed: the object's own namespace is written `*`.
      inventory: [
        '*_payments-api__Service v1',
        '*_payments-api_apps_Deployment v1',
        '*_payments-worker_apps_Deployment v1',
        '*_payments-nightly_batch_CronJob v1',
        '_payments-read_rbac.authorization.k8s.io_ClusterRole v1',
        '_system__payments-read_rbac.authorization.k8s.io_ClusterRoleBinding v1',
      ].join('\n'),
      inventoryCount: 6,
      ready: {
        status: 'True',
        reason: 'ReconciliationSucceeded',
        message:
          'Applied revision: main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
        lastTransitionTime: '2026-07-14T09:13:10Z',
        observedGeneration: 3,
      },
      observedGeneration: 3,
      lastHandledReconcileAt: '2026-07-14T09:12:03.114253411Z',
      revision: 'main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
      attemptedRevision: 'main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
      lastReconcileDurationMs: 66_200,
    });
  });

  it('keeps Ready, Stalled and Reconciling and drops the other conditions', () => {
    const record = recordOf(failingKustomization());
    expect(record.ready).toMatchObject({
      status: 'False',
      reason: 'HealthCheckFailed',
    });
    expect(record.reconciling).toMatchObject({
      status: 'True',
      reason: 'ProgressingWithRetry',
    });
    expect(record.stalled).toBeUndefined();
    expect(record.revision).toBe(
      'main@sha1:4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
    );
    expect(record.attemptedRevision).toBe(
      'main@sha1:9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b',
    );
  });

  it('reads an object without status as having no conditions, revision or observed generation', () => {
    const record = recordOf(newKustomization());
    expect(record).toMatchObject({
      generation: 1,
      inventoryCount: 0,
      annotations: {},
    });
    expect(record.ready).toBeUndefined();
    expect(record.observedGeneration).toBeUndefined();
    expect(record.revision).toBeUndefined();
    expect(record.problems).toBeUndefined();
  });

  it.each<[string, () => unknown, Partial<FluxObjectRecord>]>([
    [
      'HelmRelease v2: revision from history[0].chartVersion, chartRef as source',
      readyHelmRelease,
      {
        revision: '1.8.2',
        attemptedRevision: '1.8.2',
        sourceRef: { kind: 'OCIRepository', name: 'checkout-chart' },
        dependsOn: [{ kind: 'HelmRelease', name: 'redis' }],
        serviceAccountName: 'team-shop',
        inventoryCount: 2,
        remote: false,
      },
    ],
    [
      'HelmRelease v2beta1: lastAppliedRevision, chart template source, remote through kubeConfig',
      v2beta1HelmRelease,
      {
        apiVersion: 'helm.toolkit.fluxcd.io/v2beta1',
        revision: '4.10.1',
        sourceRef: {
          kind: 'HelmRepository',
          name: 'ingress-nginx',
          namespace: 'flux-system',
        },
        chart: 'ingress-nginx',
        remote: true,
        inventoryCount: 0,
      },
    ],
    [
      'Kustomization v1beta1: status.snapshot gives no inventory, legacy revision kept as written',
      v1beta1Kustomization,
      {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1beta1',
        revision: 'main/4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e',
        inventory: undefined,
        inventoryCount: 0,
        interval: '5m',
      },
    ],
    [
      'GitRepository: artifact revision, artifact host naming the shard, URL without the token',
      gitRepository,
      {
        revision: 'main@sha1:9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b',
        artifactHost: 'source-controller-shard1.flux-system.svc.cluster.local.',
        url: 'https://github.com/acme/payments-deploy.git',
        serviceAccountName: undefined,
      },
    ],
    [
      'OCIRepository: digest revision',
      ociRepository,
      {
        revision:
          '1.8.2@sha256:0cc9a8446c95009ef382f5eade883a67c257f77d50f84e78ecef2aac9428d1e5',
        url: 'oci://ghcr.io/acme/charts/checkout',
      },
    ],
    [
      'HelmRepository of type oci: no status',
      ociHelmRepository,
      { revision: undefined, url: 'oci://registry-1.docker.io/bitnamicharts' },
    ],
    [
      'HelmChart: its source is always in its own namespace',
      helmChart,
      {
        revision: '4.10.1',
        sourceRef: { kind: 'HelmRepository', name: 'ingress-nginx' },
      },
    ],
    [
      'Bucket: endpoint and bucket name as URL',
      bucket,
      { url: 'minio.minio.svc.cluster.local:9000/fleet-manifests' },
    ],
    [
      'ExternalArtifact: artifact revision, no source reference (its producer is not a source)',
      externalArtifact,
      { revision: `latest@sha256:${'ab'.repeat(32)}`, sourceRef: undefined },
    ],
    [
      'ImageRepository: image as URL',
      imageRepository,
      { url: 'ghcr.io/acme/checkout', revision: undefined },
    ],
    [
      'ImagePolicy v1: latestRef.tag, image repository reference',
      imagePolicy,
      {
        revision: '1.8.2',
        sourceRef: { kind: 'ImageRepository', name: 'checkout' },
      },
    ],
    [
      'ImagePolicy v1beta2: latestImage',
      v1beta2ImagePolicy,
      {
        revision: 'ghcr.io/stefanprodan/podinfo:6.7.0',
        sourceRef: {
          kind: 'ImageRepository',
          name: 'podinfo',
          namespace: 'flux-system',
        },
      },
    ],
    [
      'ImageUpdateAutomation: last pushed commit, Git source',
      imageUpdateAutomation,
      {
        revision: '9ab2e7c41d0f3b5a6e8c2d4f1a7b9e0c3d5f6a8b',
        sourceRef: { kind: 'GitRepository', name: 'shop-deploy' },
      },
    ],
    [
      'Alert v1beta3: provider reference, no status',
      alert,
      { sourceRef: { kind: 'Provider', name: 'slack' }, ready: undefined },
    ],
    [
      'Provider: the webhook address (a secret) is not kept',
      provider,
      { url: undefined },
    ],
    [
      'Receiver',
      receiver,
      { ready: expect.objectContaining({ status: 'True' }) },
    ],
    [
      'FluxInstance: observed generation from its Ready condition, inventory, revision',
      fluxInstance,
      {
        observedGeneration: 3,
        inventoryCount: 3,
        revision:
          'v2.8.3@sha256:4cc5babdb1279ad0177bf513292deadbfa3f7b7c3da0be7fa53b39ab434f7219',
        serviceAccountName: undefined,
      },
    ],
    [
      'ResourceSet: inventory and revision',
      resourceSet,
      { inventoryCount: 1, revision: 'sha256:77aa', observedGeneration: 1 },
    ],
  ])('reads %s', (_, fixture, expected) => {
    const record = recordOf(fixture());
    expect(record).toMatchObject(expected);
    // toMatchObject lets an expected undefined match a present value; these must really be absent.
    const absent = Object.keys(expected).filter(
      field => expected[field as keyof FluxObjectRecord] === undefined,
    );
    expect(
      absent.filter(
        field => record[field as keyof FluxObjectRecord] !== undefined,
      ),
    ).toEqual([]);
    expect(record.problems).toBeUndefined();
  });

  it('uses the kind and apiVersion the watcher read at when the object does not carry them', () => {
    const raw: Record<string, unknown> = { ...readyKustomization() };
    delete raw.kind;
    delete raw.apiVersion;
    const result = normalizeFluxObject('prod-eu', raw, {
      kind: 'Kustomization',
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    });
    expect(result.record?.key).toBe(
      'prod-eu/team-payments/Kustomization/payments-api',
    );
  });

  it.each<[string, unknown, string]>([
    [
      'null',
      null,
      'cluster prod-eu: a Flux object should be a JSON object, got null',
    ],
    [
      'a list',
      [readyKustomization()],
      'cluster prod-eu: a Flux object should be a JSON object, got a list',
    ],
    [
      'text',
      'Kustomization',
      'cluster prod-eu: a Flux object should be a JSON object, got text "Kustomization"',
    ],
    [
      'an object of another kind',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'api', namespace: 'apps' },
      },
      'Deployment apps/api in cluster prod-eu: kind text "Deployment" is not a Flux kind',
    ],
    [
      'an object without kind',
      { metadata: { name: 'api', namespace: 'apps' } },
      'object apps/api in cluster prod-eu: has no kind',
    ],
    [
      'an object without name',
      {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { namespace: 'apps' },
      },
      'Kustomization apps/? in cluster prod-eu: metadata.name should be text but is undefined',
    ],
    [
      'an object with a number as name',
      {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name: 42, namespace: 'apps' },
      },
      'Kustomization apps/? in cluster prod-eu: metadata.name should be text but is number 42',
    ],
    [
      'an object without namespace',
      {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name: 'apps' },
      },
      'Kustomization ?/apps in cluster prod-eu: metadata.namespace should be text but is undefined (Flux kinds are namespaced)',
    ],
    [
      'an object whose apiVersion is of another group',
      {
        apiVersion: 'helm.toolkit.fluxcd.io/v2',
        kind: 'Kustomization',
        metadata: { name: 'apps', namespace: 'flux-system' },
      },
      'Kustomization flux-system/apps in cluster prod-eu: apiVersion text "helm.toolkit.fluxcd.io/v2" is not a version of kustomize.toolkit.fluxcd.io',
    ],
  ])(
    'refuses %s with a message naming the cluster and the object',
    (_, raw, error) => {
      expect(normalizeFluxObject('prod-eu', raw)).toEqual({ error });
    },
  );

  it('reads an object whose status.conditions is not a list, and says so', () => {
    const raw = readyKustomization() as any;
    raw.status.conditions = { Ready: 'True' };
    const record = recordOf(raw);
    expect(record.conditionsError).toBe(
      'status.conditions should be a list but is an object',
    );
    expect(record.ready).toBeUndefined();
    expect(record.problems).toContain(
      'status.conditions should be a list but is an object',
    );
  });

  it('keeps a Ready status that is not text as a description, for the state to call unknown', () => {
    const raw = readyKustomization() as any;
    raw.status.conditions[0].status = true;
    expect(recordOf(raw).ready?.status).toBe('boolean true');
  });

  it.each<[string, (c: any) => void, string]>([
    [
      'a Ready status that is neither True, False nor Unknown',
      c => (c.status = 'Perhaps'),
      "the status of condition Ready is 'Perhaps', neither True, False nor Unknown; read as unknown",
    ],
    [
      'a Ready status that is not text',
      c => (c.status = true),
      'the status of condition Ready is boolean true, neither True, False nor Unknown; read as unknown',
    ],
    [
      'a lastTransitionTime that is not a time',
      c => (c.lastTransitionTime = 'yesterday'),
      "the lastTransitionTime of condition Ready is 'yesterday', not a time; ignored",
    ],
  ])(
    'names %s as a problem, so the object is listed as malformed',
    (_, spoil, problem) => {
      const raw = readyKustomization() as any;
      spoil(raw.status.conditions[0]);
      expect(recordOf(raw).problems).toContain(problem);
    },
  );

  it('names a Kustomization without spec.sourceRef, which its CRD requires', () => {
    const raw = readyKustomization() as any;
    delete raw.spec.sourceRef;
    expect(recordOf(raw).problems).toContain(
      'spec.sourceRef is missing (the Kustomization CRD requires it)',
    );
  });

  it('ignores conditions of unknown types and entries that are not objects', () => {
    const raw = readyKustomization() as any;
    raw.status.conditions = [
      'Ready',
      { type: 'SourceVerified', status: 'True', reason: 'Succeeded' },
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'Progressing',
        message: 'reconciliation in progress',
      },
      { type: 'Ready', status: 'True', reason: 'Later duplicate' },
    ];
    const record = recordOf(raw);
    expect(record.ready).toEqual({
      status: 'Unknown',
      reason: 'Progressing',
      message: 'reconciliation in progress',
    });
    expect(record.problems).toEqual([
      'status.conditions[0] should be an object but is text "Ready"; ignored',
    ]);
  });

  it('cuts a huge condition message to 1 KiB and says so', () => {
    const raw = failingKustomization() as any;
    const huge = `kustomize build failed: ${'accumulating resources: '.repeat(
      20_000,
    )}`;
    raw.status.conditions[0].message = huge;
    const record = recordOf(raw);
    expect(record.ready?.message).toHaveLength(MAX_MESSAGE_LENGTH);
    expect(record.ready?.message?.endsWith('…')).toBe(true);
    expect(
      record.ready?.message?.startsWith('kustomize build failed: accumulating'),
    ).toBe(true);
    expect(record.problems).toEqual([
      `the message of condition Ready was ${huge.length} characters long; cut to ${MAX_MESSAGE_LENGTH}`,
    ]);
  });

  it('ignores fields of the wrong type, keeps the rest and lists what it ignored', () => {
    const raw = readyKustomization() as any;
    raw.metadata.generation = '3';
    raw.metadata.labels.team = 7;
    raw.spec.suspend = 'true';
    raw.spec.interval = 600;
    raw.spec.dependsOn = [
      { namespace: 'flux-system' },
      'platform',
      { name: 'infra' },
    ];
    raw.spec.sourceRef = { name: 'payments' };
    raw.status.inventory.entries = [
      { id: 'team-payments_api_apps_Deployment', v: 'v1' },
      { v: 'v1' },
      'x',
    ];
    raw.status.history = [{ lastReconciledDuration: 'ages' }];
    const record = recordOf(raw);
    expect(record).toMatchObject({
      generation: undefined,
      suspend: false,
      interval: undefined,
      sourceRef: undefined,
      dependsOn: [{ kind: 'Kustomization', name: 'infra' }],
      inventoryCount: 1,
      lastReconcileDurationMs: undefined,
    });
    expect(record.labels).not.toHaveProperty('team');
    expect(record.labels['sharding.fluxcd.io/key']).toBe('shard1');
    expect(record.problems).toEqual([
      'metadata.labels["team"] should be text but is number 7; ignored',
      'spec.sourceRef has no kind; ignored',
      '2 of 3 entries of status.inventory.entries have no readable id; ignored',
      'spec.interval should be text but is number 600; ignored',
      "status.history[0].lastReconciledDuration 'ages' is not a duration; ignored",
      'spec.suspend should be true or false but is text "true"; ignored',
      'metadata.generation should be a whole number but is text "3"; ignored',
      'spec.dependsOn[0] has no name; ignored',
      'spec.dependsOn[1] has no name; ignored',
    ]);
  });

  it('never throws, whatever the input', () => {
    const odd: unknown[] = [
      undefined,
      0,
      true,
      {},
      { kind: 'Kustomization' },
      {
        kind: 'Kustomization',
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        metadata: 'x',
      },
      {
        kind: 'HelmRelease',
        apiVersion: 'helm.toolkit.fluxcd.io/v2',
        metadata: { name: 'a', namespace: 'b' },
        spec: [],
        status: 'ok',
      },
      {
        kind: 'HelmRelease',
        apiVersion: 'helm.toolkit.fluxcd.io/v2',
        metadata: { name: 'a', namespace: 'b', labels: [] },
        spec: { chart: { spec: 1 }, dependsOn: {} },
        status: { history: [null], conditions: [null, 1, { type: 5 }] },
      },
      {
        kind: 'GitRepository',
        apiVersion: 'source.toolkit.fluxcd.io/v1',
        metadata: { name: 'a', namespace: 'b', annotations: 5 },
        spec: { url: {} },
        status: { artifact: [] },
      },
      {
        kind: 'ImagePolicy',
        apiVersion: 'image.toolkit.fluxcd.io/v1',
        metadata: { name: 'a', namespace: 'b' },
        status: { latestRef: 'x', latestImage: 3 },
      },
      Object.create(null),
    ];
    for (const raw of odd) {
      const result = normalizeFluxObject('c', raw);
      expect(
        result.record !== undefined || typeof result.error === 'string',
      ).toBe(true);
    }
  });

  it('shares equal strings and label sets between records, so a large fleet stores them once', () => {
    const pool = new ValuePool();
    const a = normalizeFluxObject('prod-eu', readyKustomization(), { pool })
      .record!;
    const b = normalizeFluxObject('prod-eu', readyKustomization(), { pool })
      .record!;
    expect(b.labels).toBe(a.labels);
    expect(b.sourceRef).toBe(a.sourceRef);
    expect(b.dependsOn?.[0].name).toBe(a.dependsOn?.[0].name);
    expect(Object.isFrozen(a.labels)).toBe(true);
  });

  it('does not pool condition messages, which name their object and are rarely equal', () => {
    const pool = new ValuePool();
    const withMessage = (message: string) => {
      const raw = readyKustomization() as unknown as { status: { conditions: Array<Record<string, unknown>> } };
      raw.status.conditions = raw.status.conditions.map(c => ({ ...c, message }));
      return normalizeFluxObject('prod-eu', raw, { pool }).record!;
    };
    const first = withMessage('Applied revision: main@sha1:1111111111111111111111111111111111111111');
    const size = pool.size;
    const second = withMessage('Applied revision: main@sha1:2222222222222222222222222222222222222222');
    expect(second.ready?.message).toBe('Applied revision: main@sha1:2222222222222222222222222222222222222222');
    expect(first.ready?.message).toBe('Applied revision: main@sha1:1111111111111111111111111111111111111111');
    expect(pool.size).toBe(size);
  });
});

describe('inventory of a record', () => {
  it('unpacks entries with their parts, cluster-scoped ones and colons in names included', () => {
    const entries = inventoryEntries(recordOf(readyKustomization()));
    expect(entries).toHaveLength(6);
    expect(entries[1]).toEqual({
      id: 'team-payments_payments-api_apps_Deployment',
      namespace: 'team-payments',
      name: 'payments-api',
      group: 'apps',
      kind: 'Deployment',
      version: 'v1',
    });
    expect(entries[5]).toMatchObject({
      namespace: '',
      name: 'system:payments-read',
      group: 'rbac.authorization.k8s.io',
      kind: 'ClusterRoleBinding',
    });
    expect(entries[0]).toMatchObject({ group: '', kind: 'Service' });
  });

  it('lists the workloads in inventory order', () => {
    expect(inventoryWorkloadIds(recordOf(readyKustomization()))).toEqual([
      'team-payments_payments-api_apps_Deployment',
      'team-payments_payments-worker_apps_Deployment',
      'team-payments_payments-nightly_batch_CronJob',
    ]);
    expect(inventoryWorkloadIds(recordOf(gitRepository()))).toEqual([]);
  });
});

describe('normalizeNamespace', () => {
  it('keeps the name and labels', () => {
    expect(
      normalizeNamespace('prod-eu', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'team-payments',
          labels: { 'toolkit.fluxcd.io/tenant': 'payments' },
        },
      }),
    ).toEqual({
      record: {
        cluster: 'prod-eu',
        name: 'team-payments',
        labels: { 'toolkit.fluxcd.io/tenant': 'payments' },
      },
    });
  });

  it('refuses a namespace without a name', () => {
    expect(normalizeNamespace('prod-eu', { metadata: {} }).error).toBe(
      'cluster prod-eu: a Namespace has metadata.name undefined',
    );
    expect(normalizeNamespace('prod-eu', 'x').error).toContain(
      'cluster prod-eu',
    );
  });
});

describe('normalizeWorkload', () => {
  it('keeps identity, inventory id, kubernetes-id label and labels', () => {
    expect(
      normalizeWorkload('prod-eu', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: 'payments-api',
          namespace: 'team-payments',
          labels: {
            'backstage.io/kubernetes-id': 'payments',
            app: 'payments-api',
          },
        },
        spec: { replicas: 3 },
      }),
    ).toEqual({
      record: {
        cluster: 'prod-eu',
        id: 'team-payments_payments-api_apps_Deployment',
        namespace: 'team-payments',
        kind: 'Deployment',
        name: 'payments-api',
        kubernetesId: 'payments',
        labels: {
          'backstage.io/kubernetes-id': 'payments',
          app: 'payments-api',
        },
      },
    });
  });

  it('gives CronJobs their batch group', () => {
    const result = normalizeWorkload(
      'c',
      { metadata: { name: 'nightly', namespace: 'a' } },
      { kind: 'CronJob' },
    );
    expect(result.record?.id).toBe('a_nightly_batch_CronJob');
  });

  it('reads a workload sent as its metadata alone (PartialObjectMetadata) as of the listed kind', () => {
    const metadata = {
      name: 'ledger',
      namespace: 'team-payments',
      labels: { 'backstage.io/kubernetes-id': 'payments' },
    };
    const partial = normalizeWorkload(
      'prod-eu',
      { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata },
      { kind: 'StatefulSet', apiVersion: 'apps/v1' },
    );
    const whole = normalizeWorkload(
      'prod-eu',
      { kind: 'StatefulSet', apiVersion: 'apps/v1', metadata, spec: { replicas: 1 } },
      { kind: 'StatefulSet', apiVersion: 'apps/v1' },
    );
    expect(partial).toEqual(whole);
    expect(partial.record?.id).toBe('team-payments_ledger_apps_StatefulSet');
    // without the listed kind, metadata alone says nothing of the kind
    expect(
      normalizeWorkload('prod-eu', { kind: 'PartialObjectMetadata', metadata }).error,
    ).toBe(
      'object team-payments/ledger in cluster prod-eu: kind undefined is not a workload kind (Deployment, StatefulSet, DaemonSet, CronJob)',
    );
  });

  it('refuses kinds that are not workloads', () => {
    expect(
      normalizeWorkload('prod-eu', {
        kind: 'Service',
        metadata: { name: 'api', namespace: 'a' },
      }).error,
    ).toBe(
      'Service a/api in cluster prod-eu: kind text "Service" is not a workload kind (Deployment, StatefulSet, DaemonSet, CronJob)',
    );
  });
});

describe('URLs', () => {
  it.each([
    [
      'https://flux:ghp_token@github.com/acme/repo.git',
      'https://github.com/acme/repo.git',
    ],
    [
      'https://ghp_token@github.com/acme/repo.git',
      'https://github.com/acme/repo.git',
    ],
    [
      'ssh://git@github.com/acme/repo.git',
      'ssh://git@github.com/acme/repo.git',
    ],
    [
      'ssh://git:secret@github.com/acme/repo.git',
      'ssh://github.com/acme/repo.git',
    ],
    ['git@github.com:acme/repo.git', 'git@github.com:acme/repo.git'],
    ['oci://ghcr.io/acme/charts', 'oci://ghcr.io/acme/charts'],
  ])('removes credentials from %j', (url, expected) => {
    expect(withoutCredentials(url)).toBe(expected);
  });

  it.each([
    [
      'http://source-controller-shard1.flux-system.svc.cluster.local./gitrepository/a/b.tar.gz',
      'source-controller-shard1.flux-system.svc.cluster.local.',
    ],
    [
      'http://source-controller.flux-system.svc:9090/x',
      'source-controller.flux-system.svc:9090',
    ],
    ['not a url', undefined],
  ])('reads the host of %j', (url, host) => {
    expect(urlHost(url)).toBe(host);
  });
});
