/**
 * The platform's own Flux objects in flux-system: the bootstrap repository and its layered Kustomizations,
 * infrastructure charts, notifications, a Bucket, an ArtifactGenerator on Flux 2.7+, and the Flux Operator's
 * objects on operator-managed clusters.
 */
import { type ClusterPlan } from './clusterPlan';
import { MINUTE } from './clusterBuilder';
import {
  alert,
  artifactGenerator,
  bucket,
  externalArtifact,
  gitRepository,
  helmRepository,
  inventory,
  provider,
  receiver,
} from './fluxObjects';
import {
  fluxInstance,
  fluxReport,
  resourceSet,
  resourceSetInputProvider,
} from './installObjects';
import type { Placement } from './model';
import type { GeneratorContext } from './generatorContext';
import {
  chartAndRelease,
  kustomizationObject,
  source,
} from './reconcilerObjects';

/** What each layer of the platform's Kustomizations applied. */
function layerInventory(
  layer: string,
  ns: string,
  plan: ClusterPlan,
): Parameters<typeof inventory>[0] {
  if (layer === 'tenants') {
    return plan.teams.flatMap(t => [
      {
        namespace: '',
        name: t.namespace,
        group: '',
        kind: 'Namespace',
        version: 'v1',
      },
      {
        namespace: t.namespace,
        name: t.team,
        group: '',
        kind: 'ServiceAccount',
        version: 'v1',
      },
      {
        namespace: t.namespace,
        name: `${t.team}-apps`,
        group: 'source.toolkit.fluxcd.io',
        kind: 'GitRepository',
        version: 'v1',
      },
      {
        namespace: t.namespace,
        name: `${t.team}-apps`,
        group: 'kustomize.toolkit.fluxcd.io',
        kind: 'Kustomization',
        version: 'v1',
      },
    ]);
  }
  if (layer === 'infra-controllers') {
    return ['cert-manager', 'ingress-nginx', 'kube-prometheus-stack'].map(
      hr => ({
        namespace: ns,
        name: hr,
        group: 'helm.toolkit.fluxcd.io',
        kind: 'HelmRelease',
        version: 'v2',
      }),
    );
  }
  return [
    {
      namespace: ns,
      name: layer,
      group: '',
      kind: 'ConfigMap',
      version: 'v1',
    },
  ];
}

export function platformObjects(ctx: GeneratorContext): void {
  const { plan, b } = ctx;
  const ns = 'flux-system';
  const main = (component: string) => b.placed(ns, component, 'main');
  const platformLabels = {
    'kustomize.toolkit.fluxcd.io/name': 'flux-system',
    'kustomize.toolkit.fluxcd.io/namespace': ns,
  };

  // The bootstrap repository and the Kustomizations layered on it.
  const repoPlacement = main('source-controller');
  const repoRevision = ctx.gitRevision();
  const repoUrl = 'https://git.example.com/platform/fleet-infra.git';
  source(ctx, 'GitRepository', {
    meta: ctx.meta('flux-system', ns, { labels: platformLabels }),
    placement: repoPlacement,
    tenant: null,
    service: null,
    build: (meta, facts, artifact) =>
      gitRepository(
        b.apiVersion('GitRepository'),
        meta,
        {
          url: repoUrl,
          branch: 'main',
          interval: '1m',
          secretRef: 'flux-system',
        },
        facts,
        artifact,
      ),
    revision: repoRevision,
    url: repoUrl,
    stateWeights: [['ready', 1]],
  });
  const layers: Array<[string, string, string[]]> = [
    ['flux-system', `./clusters/${plan.name}`, []],
    ['infra-controllers', './infrastructure/controllers', []],
    ['infra-configs', './infrastructure/configs', ['infra-controllers']],
    ['tenants', `./tenants/${plan.name}`, ['infra-configs']],
  ];
  for (const [name, path, deps] of layers) {
    const entries = layerInventory(name, ns, plan);
    kustomizationObject(ctx, {
      meta: ctx.meta(name, ns, {
        labels: name === 'flux-system' ? {} : platformLabels,
      }),
      placement: main('kustomize-controller'),
      tenant: null,
      service: null,
      spec: {
        interval: name === 'flux-system' ? '10m' : '1h',
        path,
        sourceRef: { kind: 'GitRepository', name: 'flux-system' },
        wait: name !== 'flux-system',
        dependsOn: deps.map(d => ({ name: d })),
      },
      sourceRefs: [
        { kind: 'GitRepository', namespace: ns, name: 'flux-system' },
      ],
      dependsOn: deps.map(d => ({
        kind: 'Kustomization',
        namespace: ns,
        name: d,
      })),
      state: 'ready',
      revision: repoRevision,
      inventoryEntries: entries,
    });
  }

  // Infrastructure charts.
  const charts: Array<[string, string, string, string]> = [
    ['cert-manager', 'jetstack', 'https://charts.jetstack.io', 'v1.16.2'],
    [
      'ingress-nginx',
      'ingress-nginx',
      'https://kubernetes.github.io/ingress-nginx',
      '4.11.3',
    ],
    [
      'kube-prometheus-stack',
      'prometheus-community',
      'https://prometheus-community.github.io/helm-charts',
      '66.3.1',
    ],
  ];
  for (const [release, repo, url, version] of charts) {
    const repoRevisionDigest = ctx.digest();
    source(ctx, 'HelmRepository', {
      meta: ctx.meta(repo, ns, { labels: platformLabels }),
      placement: main('source-controller'),
      tenant: null,
      service: null,
      build: (meta, facts, artifact) =>
        helmRepository(
          b.apiVersion('HelmRepository'),
          meta,
          { url, interval: '1h' },
          facts,
          artifact,
        ),
      revision: repoRevisionDigest,
      url,
      stateWeights: [['ready', 1]],
      extension: 'yaml',
    });
    chartAndRelease(ctx, {
      namespace: ns,
      release,
      chart: release,
      version,
      repository: repo,
      repositoryRevision: repoRevisionDigest,
      placement: {
        release: main('helm-controller'),
        chart: main('source-controller'),
      },
      labels: {
        ...platformLabels,
        'kustomize.toolkit.fluxcd.io/name': 'infra-controllers',
      },
      chartLabels: undefined,
      tenant: null,
      service: null,
      serviceAccountName: null,
      dependsOn: [],
      state: 'ready',
      suspended: false,
      workloads: [
        {
          namespace:
            release === 'kube-prometheus-stack' ? 'monitoring' : release,
          name: release,
        },
      ],
    });
  }

  // Notifications.
  const notification = main('notification-controller');
  ctx.b.putFlux(
    provider(
      b.apiVersion('Provider'),
      ctx.meta('slack', ns, { labels: platformLabels }),
      {
        type: 'slack',
        channel: `#flux-${plan.name}`,
        secretRef: 'slack-webhook',
      },
    ),
    ctx.record({
      placement: notification,
      state: 'ready',
      tenant: null,
      service: null,
    }),
  );
  ctx.b.putFlux(
    alert(
      b.apiVersion('Alert'),
      ctx.meta('platform', ns, { labels: platformLabels }),
      {
        provider: 'slack',
        severity: 'error',
        sources: [
          { kind: 'Kustomization', name: '*' },
          { kind: 'HelmRelease', name: '*' },
          { kind: 'GitRepository', name: '*' },
        ],
      },
    ),
    ctx.record({
      placement: notification,
      state: 'ready',
      tenant: null,
      service: null,
      sources: [{ kind: 'Provider', namespace: ns, name: 'slack' }],
    }),
  );
  const receiverMeta = ctx.meta('github-receiver', ns, {
    labels: platformLabels,
  });
  const since = ctx.since('ready');
  const webhookPath = `/hook/${ctx.random.hex(64)}`;
  ctx.b.putFlux(
    receiver(
      b.apiVersion('Receiver'),
      receiverMeta,
      {
        type: 'github',
        resources: [{ kind: 'GitRepository', name: 'flux-system' }],
        webhookPath,
      },
      {
        state: 'ready',
        since,
        detail: {
          readyMessage: `Receiver initialized for path: ${webhookPath}`,
        },
      },
    ),
    ctx.record({
      placement: notification,
      state: 'ready',
      tenant: null,
      service: null,
    }),
  );

  // A Bucket of cluster settings on some clusters.
  if (ctx.random.chance(0.5) || plan.index === 0) {
    const revision = ctx.digest();
    source(ctx, 'Bucket', {
      meta: ctx.meta('cluster-config', ns, { labels: platformLabels }),
      placement: main('source-controller'),
      tenant: null,
      service: null,
      build: (meta, facts, artifact) =>
        bucket(
          b.apiVersion('Bucket'),
          meta,
          {
            bucketName: `${plan.name}-config`,
            endpoint: 'minio.platform.svc.cluster.local:9000',
            interval: '5m',
          },
          facts,
          artifact,
        ),
      revision,
      url: 'minio.platform.svc.cluster.local:9000',
      stateWeights: [['ready', 1]],
    });
    kustomizationObject(ctx, {
      meta: ctx.meta('cluster-config', ns, { labels: platformLabels }),
      placement: main('kustomize-controller'),
      tenant: null,
      service: null,
      spec: {
        interval: '10m',
        path: './',
        sourceRef: { kind: 'Bucket', name: 'cluster-config' },
      },
      sourceRefs: [{ kind: 'Bucket', namespace: ns, name: 'cluster-config' }],
      state: 'ready',
      revision,
      inventoryEntries: [
        {
          namespace: ns,
          name: 'cluster-settings',
          group: '',
          kind: 'ConfigMap',
          version: 'v1',
        },
      ],
    });
  }

  // Flux 2.7+: an ArtifactGenerator producing an ExternalArtifact that a Kustomization applies.
  if (
    plan.sourceWatcher &&
    b.serves('ArtifactGenerator') &&
    b.serves('ExternalArtifact')
  ) {
    const digest = ctx.digest();
    const generatorMeta = ctx.meta('platform-policies', ns, {
      labels: platformLabels,
    });
    const genSince = ctx.since('ready');
    b.putFlux(
      artifactGenerator(
        b.apiVersion('ArtifactGenerator'),
        generatorMeta,
        {
          source: { kind: 'GitRepository', name: 'flux-system' },
          artifact: 'platform-policies',
        },
        {
          state: 'ready',
          since: genSince,
          detail: {
            readyMessage: 'reconciliation succeeded, generated 1 artifact(s)',
          },
        },
        { namespace: ns, digest },
      ),
      ctx.record({
        placement: main('source-watcher'),
        state: 'ready',
        tenant: null,
        service: null,
        sources: [],
      }),
    );
    const eaMeta = ctx.meta('platform-policies', ns, { generation: 1 });
    b.putFlux(
      externalArtifact(
        b.apiVersion('ExternalArtifact'),
        eaMeta,
        { producer: 'platform-policies' },
        {
          state: 'ready',
          since: genSince,
          detail: {
            readyMessage: `Artifact revision ${`latest@${digest}`} is available`,
          },
        },
        ctx.artifact(
          'ExternalArtifact',
          ns,
          'platform-policies',
          `latest@${digest}`,
          { name: 'source-watcher', instance: ns },
        ),
      ),
      ctx.record({
        placement: { status: 'ok', controllers: [], operatorInstance: ns },
        state: 'ready',
        tenant: null,
        service: null,
      }),
    );
    kustomizationObject(ctx, {
      meta: ctx.meta('policies', ns, { labels: platformLabels }),
      placement: main('kustomize-controller'),
      tenant: null,
      service: null,
      spec: {
        interval: '30m',
        path: './',
        sourceRef: { kind: 'ExternalArtifact', name: 'platform-policies' },
      },
      sourceRefs: [
        {
          kind: 'ExternalArtifact',
          namespace: ns,
          name: 'platform-policies',
        },
      ],
      state: 'ready',
      revision: `latest@${digest}`,
      inventoryEntries: [
        {
          namespace: '',
          name: 'require-labels',
          group: 'kyverno.io',
          kind: 'ClusterPolicy',
          version: 'v1',
        },
      ],
    });
  }

  if (plan.operator) operatorObjects(ctx);
}

function operatorObjects(ctx: GeneratorContext): void {
  const { b, plan } = ctx;
  const ns = 'flux-system';
  const operatorPlacement: Placement = {
    status: 'ok',
    controllers: [],
    operatorInstance: ns,
  };
  const instance = plan.instances[0];
  const since = ctx.since('ready');
  b.putFlux(
    fluxInstance(
      ctx.meta('flux', ns, { generation: ctx.random.int(1, 6) }),
      instance,
      plan.release,
      {
        state: 'ready',
        since,
        detail: {
          readyMessage: `Reconciliation finished in ${ctx.random.int(20, 60)}s`,
          readyReason: 'ReconciliationSucceeded',
        },
      },
      ctx.digest(),
    ),
    ctx.record({
      placement: operatorPlacement,
      state: 'ready',
      tenant: null,
      service: null,
    }),
  );
  b.putFlux(
    fluxReport(
      ctx.meta('flux', ns, { generation: 1 }),
      plan.release,
      {
        state: 'ready',
        since: ctx.b.between(MINUTE, 10 * MINUTE),
        detail: {
          readyMessage: 'Reporting finished in 312ms',
          readyReason: 'ReconciliationSucceeded',
        },
      },
      [
        {
          kind: 'Kustomization',
          apiVersion: b.apiVersion('Kustomization'),
          ready: 0,
          failing: 0,
          suspended: 0,
          total: 0,
        },
        {
          kind: 'HelmRelease',
          apiVersion: b.apiVersion('HelmRelease'),
          ready: 0,
          failing: 0,
          suspended: 0,
          total: 0,
        },
      ],
    ),
    ctx.record({
      placement: operatorPlacement,
      state: 'ready',
      tenant: null,
      service: null,
    }),
  );
  if (plan.index % 2 === 0) {
    const inputs = [
      { id: String(ctx.random.int(1000, 4999)), sha: ctx.random.hex(40) },
      { id: String(ctx.random.int(5000, 9999)), sha: ctx.random.hex(40) },
    ];
    b.putFlux(
      resourceSetInputProvider(
        ctx.meta('preview-prs', ns),
        { url: 'https://github.com/acme/storefront' },
        { state: 'ready', since: ctx.since('ready'), detail: {} },
        inputs,
      ),
      ctx.record({
        placement: operatorPlacement,
        state: 'ready',
        tenant: null,
        service: null,
      }),
    );
    b.putFlux(
      resourceSet(
        ctx.meta('previews', ns),
        { provider: 'preview-prs' },
        { state: 'ready', since: ctx.since('ready'), detail: {} },
        inputs.map(i => `preview-${i.id}`),
      ),
      ctx.record({
        placement: operatorPlacement,
        state: 'ready',
        tenant: null,
        service: null,
      }),
    );
  }
}
