/**
 * Generates one simulated cluster from its plan: namespaces, service accounts, the Flux installation, the
 * platform's own Flux objects, every team's sources and tenants, every service's Kustomization, HelmRelease,
 * HelmChart and workloads, the deliberate problems, and core Events about Flux objects. Each Flux object is
 * stored together with the simulator's record of how it was built; the ground truth comes from those records.
 */
import { LATEST_FLUX_RELEASE } from '../api/fluxReleases';
import { servedResources, type ServedResource } from '../api/resourceTypes';
import { Random } from '../random';
import type { ClusterStore } from '../store/clusterStore';
import { ClusterBuilder, DAY, HOUR, MINUTE } from './clusterBuilder';
import {
  KUBERNETES_ID,
  SHARD_KEY,
  TENANT_LABEL,
  type ClusterPlan,
  type TeamPlan,
} from './clusterPlan';
import { typicalFailure, type ConditionDetail } from './conditions';
import {
  alert,
  artifactGenerator,
  bucket,
  externalArtifact,
  gitRepository,
  helmChart,
  helmRelease,
  helmRepository,
  imagePolicy,
  imageRepository,
  imageUpdateAutomation,
  inventory,
  kustomization,
  ociRepository,
  provider,
  receiver,
  type ArtifactFacts,
  type Meta,
  type StatusFacts,
} from './fluxObjects';
import {
  controllerDeployment,
  customResourceDefinition,
  fluxInstance,
  fluxReport,
  operatorDeployment,
  resourceSet,
  resourceSetInputProvider,
} from './installObjects';
import type {
  FluxObjectRecord,
  ObjectRef,
  Placement,
  ReconcileStateName,
} from './model';
import { planServices, type ServicePlan } from './servicePlans';

/** A generated cluster: its store, what it serves, and the records of its Flux objects. */
export interface GeneratedCluster {
  name: string;
  fluxVersion: string;
  kubernetesVersion: string;
  plan?: ClusterPlan;
  store: ClusterStore;
  served: ServedResource[];
  records: Map<string, FluxObjectRecord>;
}

interface EventSpec {
  kind: string;
  apiVersion: string;
  namespace: string;
  name: string;
  uid: string;
  component: string;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  time: string;
  revision?: string;
  group: string;
}

const DEFAULT_CONCURRENCY: Record<string, number> = {
  'source-controller': 2,
  'kustomize-controller': 4,
  'helm-controller': 4,
};

/** Builds the objects of one cluster. */
class Generator {
  readonly b: ClusterBuilder;
  private readonly events: EventSpec[] = [];
  private readonly random: Random;

  constructor(
    readonly plan: ClusterPlan,
    random: Random,
    epoch: number,
    watchWindow: number,
  ) {
    const operator = plan.operator;
    this.random = random;
    this.b = new ClusterBuilder(
      plan,
      random,
      epoch,
      servedResources(plan.release.minor, operator),
      watchWindow,
    );
  }

  // ---- small helpers -------------------------------------------------------------------------------

  meta(
    name: string,
    namespace: string,
    options: {
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
      finalizers?: boolean;
      generation?: number;
    } = {},
  ): Meta {
    return {
      name,
      namespace,
      uid: this.b.uid(),
      created: this.b.between(30 * DAY, 500 * DAY),
      generation: options.generation ?? this.random.int(1, 9),
      labels: options.labels,
      annotations: options.annotations,
      finalizers: options.finalizers,
    };
  }

  /** Time the Ready condition last changed for a state. */
  since(state: ReconcileStateName): string {
    switch (state) {
      case 'failed':
      case 'stalled':
      case 'blocked':
        return this.b.between(3 * MINUTE, 9 * HOUR);
      case 'progressing':
        return this.b.between(5_000, 3 * MINUTE);
      default:
        return this.b.between(12 * MINUTE, 25 * DAY);
    }
  }

  /** A handled reconcile request on some objects (as `flux reconcile` leaves them). */
  handledRequest(annotations: Record<string, string>): string | undefined {
    if (!this.random.chance(0.2)) return undefined;
    const at = this.b
      .between(30 * MINUTE, 12 * DAY)
      .replace('Z', `.${this.random.int(100000000, 999999999)}Z`);
    annotations['reconcile.fluxcd.io/requestedAt'] = at;
    return at;
  }

  gitRevision(branch = 'main'): string {
    return `${branch}@sha1:${this.random.hex(40)}`;
  }

  digest(): string {
    return `sha256:${this.random.hex(64)}`;
  }

  artifact(
    kind: string,
    namespace: string,
    name: string,
    revision: string,
    storage: { name: string; instance: string },
    extension = 'tar.gz',
  ): ArtifactFacts {
    const digest = this.digest();
    const file = revision.includes('sha1:')
      ? revision.split('sha1:')[1]
      : digest.slice(7, 47);
    const path = `${kind.toLowerCase()}/${namespace}/${name}/${file}.${extension}`;
    return {
      revision,
      digest,
      path,
      url: `http://${storage.name}.${storage.instance}.svc.cluster.local./${path}`,
      lastUpdateTime: this.b.between(10 * MINUTE, 20 * DAY),
      size: this.random.int(2_000, 400_000),
    };
  }

  /** Who serves a source's artifacts: the placed source-controller (its Service names the shard). */
  storageOf(
    placement: Placement,
    fallbackInstance: string,
  ): { name: string; instance: string } {
    const controller = placement.controllers[0];
    if (controller)
      return { name: controller.name, instance: controller.instance };
    return { name: 'source-controller', instance: fallbackInstance };
  }

  event(spec: EventSpec): void {
    this.events.push(spec);
  }

  /** Events a controller emits about an object in a state. */
  eventsFor(
    object: Record<string, any>,
    component: string,
    state: ReconcileStateName,
    detail: ConditionDetail,
    since: string,
  ): void {
    const warning =
      state === 'failed' || state === 'stalled' || state === 'blocked';
    if (!warning && !this.random.chance(0.06)) return;
    const [group] = String(object.apiVersion).split('/');
    const conditions = (object.status?.conditions ?? []) as Array<{
      type: string;
      reason: string;
      message: string;
    }>;
    const ready = conditions.find(c => c.type === 'Ready');
    const reason =
      ready?.reason ??
      (warning ? 'ReconciliationFailed' : 'ReconciliationSucceeded');
    const message =
      ready?.message ??
      `Reconciliation finished in ${this.random.int(1, 40)}.${this.random.int(
        0,
        9,
      )}s, next run in ${object.spec?.interval ?? '10m'}`;
    this.event({
      kind: object.kind,
      apiVersion: object.apiVersion,
      namespace: object.metadata.namespace,
      name: object.metadata.name,
      uid: object.metadata.uid,
      component,
      type: warning ? 'Warning' : 'Normal',
      reason:
        state === 'ready' && object.kind === 'Kustomization'
          ? 'ReconciliationSucceeded'
          : reason,
      message:
        state === 'ready' && object.kind === 'Kustomization'
          ? `Reconciliation finished in ${this.random.int(
              1,
              40,
            )}.${this.random.int(0, 9)}s, next run in ${object.spec.interval}`
          : message,
      time: since,
      revision: detail.revision,
      group,
    });
  }

  // ---- the cluster ----------------------------------------------------------------------------------

  generate(): void {
    this.namespacesAndAccounts();
    this.installation();
    this.platform();
    const services = planServices(this.plan, this.random.fork('services'));
    for (const team of this.plan.teams)
      this.team(
        team,
        services.filter(s => s.team === team),
      );
    this.emitEvents();
    this.b.store.markLoaded();
  }

  private namespace(name: string, labels: Record<string, string> = {}): void {
    this.b.put({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        uid: this.b.uid(),
        creationTimestamp: this.b.between(200 * DAY, 600 * DAY),
        labels: { 'kubernetes.io/metadata.name': name, ...labels },
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }

  private serviceAccount(
    name: string,
    namespace: string,
    labels?: Record<string, string>,
  ): void {
    this.b.put({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: {
        name,
        namespace,
        uid: this.b.uid(),
        creationTimestamp: this.b.between(100 * DAY, 500 * DAY),
        ...(labels ? { labels } : {}),
      },
    });
  }

  private namespacesAndAccounts(): void {
    for (const ns of [
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ])
      this.namespace(ns);
    this.namespace('flux-system', {
      'app.kubernetes.io/instance': 'flux-system',
      'app.kubernetes.io/part-of': 'flux',
      'pod-security.kubernetes.io/warn': 'restricted',
    });
    for (const ns of ['cert-manager', 'ingress-nginx', 'monitoring'])
      this.namespace(ns);
    for (const ns of ['default', 'flux-system', 'kube-system'])
      this.serviceAccount('default', ns);
    const components = new Set(
      this.plan.instances[0].controllers.map(c => c.component),
    );
    for (const component of components)
      this.serviceAccount(component, 'flux-system');
    for (const team of this.plan.teams) {
      const tenant = { [TENANT_LABEL]: team.team };
      this.namespace(team.namespace, tenant);
      this.serviceAccount('default', team.namespace);
      this.serviceAccount(team.team, team.namespace, tenant);
      const instance = this.plan.instances.find(
        i => i.namespace === team.instance,
      )!;
      if (
        instance.defaultServiceAccount &&
        instance.defaultServiceAccount !== team.team
      ) {
        this.serviceAccount(
          instance.defaultServiceAccount,
          team.namespace,
          tenant,
        );
      }
      if (instance.namespace === team.namespace) {
        for (const c of instance.controllers)
          this.serviceAccount(c.component, team.namespace);
      }
    }
  }

  private installation(): void {
    const { plan } = this;
    for (const instance of plan.instances) {
      for (const spec of instance.controllers) {
        this.b.put(
          controllerDeployment(
            spec,
            plan.release,
            { uid: this.b.uid(), created: this.b.between(20 * DAY, 200 * DAY) },
            DEFAULT_CONCURRENCY[spec.component] ?? 4,
          ),
        );
      }
    }
    if (plan.operator) {
      this.b.put(
        operatorDeployment({
          uid: this.b.uid(),
          created: this.b.between(20 * DAY, 200 * DAY),
        }),
      );
    }
    for (const served of this.b.served) {
      if (!served.type.flux) continue;
      this.b.put(
        customResourceDefinition(
          served,
          plan.release,
          { uid: this.b.uid(), created: this.b.between(200 * DAY, 400 * DAY) },
          plan.operator,
        ),
      );
    }
  }

  // ---- flux-system: the platform's own objects ------------------------------------------------------

  /** What each layer of the platform's Kustomizations applied. */
  private layerInventory(
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

  private platform(): void {
    const { plan, b } = this;
    const ns = 'flux-system';
    const main = (component: string) => b.placed(ns, component, 'main');
    const platformLabels = {
      'kustomize.toolkit.fluxcd.io/name': 'flux-system',
      'kustomize.toolkit.fluxcd.io/namespace': ns,
    };

    // The bootstrap repository and the Kustomizations layered on it.
    const repoPlacement = main('source-controller');
    const repoRevision = this.gitRevision();
    const repoUrl = 'https://git.example.com/platform/fleet-infra.git';
    this.source('GitRepository', {
      meta: this.meta('flux-system', ns, { labels: platformLabels }),
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
      const entries = this.layerInventory(name, ns, plan);
      this.kustomizationObject({
        meta: this.meta(name, ns, {
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
      const repoRevisionDigest = this.digest();
      this.source('HelmRepository', {
        meta: this.meta(repo, ns, { labels: platformLabels }),
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
      this.chartAndRelease({
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
    this.b.putFlux(
      provider(
        b.apiVersion('Provider'),
        this.meta('slack', ns, { labels: platformLabels }),
        {
          type: 'slack',
          channel: `#flux-${plan.name}`,
          secretRef: 'slack-webhook',
        },
      ),
      this.record({
        placement: notification,
        state: 'never-reconciled',
        tenant: null,
        service: null,
      }),
    );
    this.b.putFlux(
      alert(
        b.apiVersion('Alert'),
        this.meta('platform', ns, { labels: platformLabels }),
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
      this.record({
        placement: notification,
        state: 'never-reconciled',
        tenant: null,
        service: null,
        sources: [{ kind: 'Provider', namespace: ns, name: 'slack' }],
      }),
    );
    const receiverMeta = this.meta('github-receiver', ns, {
      labels: platformLabels,
    });
    const since = this.since('ready');
    const webhookPath = `/hook/${this.random.hex(64)}`;
    this.b.putFlux(
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
      this.record({
        placement: notification,
        state: 'ready',
        tenant: null,
        service: null,
      }),
    );

    // A Bucket of cluster settings on some clusters.
    if (this.random.chance(0.5) || plan.index === 0) {
      const revision = this.digest();
      this.source('Bucket', {
        meta: this.meta('cluster-config', ns, { labels: platformLabels }),
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
      this.kustomizationObject({
        meta: this.meta('cluster-config', ns, { labels: platformLabels }),
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
      const digest = this.digest();
      const generatorMeta = this.meta('platform-policies', ns, {
        labels: platformLabels,
      });
      const genSince = this.since('ready');
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
        this.record({
          placement: main('source-watcher'),
          state: 'ready',
          tenant: null,
          service: null,
          sources: [],
        }),
      );
      const eaMeta = this.meta('platform-policies', ns, { generation: 1 });
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
          this.artifact(
            'ExternalArtifact',
            ns,
            'platform-policies',
            `latest@${digest}`,
            { name: 'source-watcher', instance: ns },
          ),
        ),
        this.record({
          placement: { status: 'ok', controllers: [], operatorInstance: ns },
          state: 'ready',
          tenant: null,
          service: null,
        }),
      );
      this.kustomizationObject({
        meta: this.meta('policies', ns, { labels: platformLabels }),
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

    if (plan.operator) this.operatorObjects();
  }

  private operatorObjects(): void {
    const { b, plan } = this;
    const ns = 'flux-system';
    const operatorPlacement: Placement = {
      status: 'ok',
      controllers: [],
      operatorInstance: ns,
    };
    const instance = plan.instances[0];
    const since = this.since('ready');
    b.putFlux(
      fluxInstance(
        this.meta('flux', ns, { generation: this.random.int(1, 6) }),
        instance,
        plan.release,
        {
          state: 'ready',
          since,
          detail: {
            readyMessage: `Reconciliation finished in ${this.random.int(
              20,
              60,
            )}s`,
            readyReason: 'ReconciliationSucceeded',
          },
        },
        this.digest(),
      ),
      this.record({
        placement: operatorPlacement,
        state: 'ready',
        tenant: null,
        service: null,
      }),
    );
    b.putFlux(
      fluxReport(
        this.meta('flux', ns, { generation: 1 }),
        plan.release,
        {
          state: 'ready',
          since: this.b.between(MINUTE, 10 * MINUTE),
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
      this.record({
        placement: operatorPlacement,
        state: 'ready',
        tenant: null,
        service: null,
      }),
    );
    if (plan.index % 2 === 0) {
      const inputs = [
        { id: String(this.random.int(1000, 4999)), sha: this.random.hex(40) },
        { id: String(this.random.int(5000, 9999)), sha: this.random.hex(40) },
      ];
      b.putFlux(
        resourceSetInputProvider(
          this.meta('preview-prs', ns),
          { url: 'https://github.com/acme/storefront' },
          { state: 'ready', since: this.since('ready'), detail: {} },
          inputs,
        ),
        this.record({
          placement: operatorPlacement,
          state: 'ready',
          tenant: null,
          service: null,
        }),
      );
      b.putFlux(
        resourceSet(
          this.meta('previews', ns),
          { provider: 'preview-prs' },
          { state: 'ready', since: this.since('ready'), detail: {} },
          inputs.map(i => `preview-${i.id}`),
        ),
        this.record({
          placement: operatorPlacement,
          state: 'ready',
          tenant: null,
          service: null,
        }),
      );
    }
  }

  // ---- records ----------------------------------------------------------------------------------

  record(facts: {
    placement: Placement;
    state: ReconcileStateName;
    tenant: string | null;
    service: string | null;
    suspended?: boolean;
    steadyState?: ReconcileStateName;
    serviceAccountName?: string | null;
    sources?: ObjectRef[];
    dependsOn?: ObjectRef[];
    requestedAt?: string;
    lastHandledReconcileAt?: string;
    problems?: string[];
    churnable?: boolean;
  }): Omit<FluxObjectRecord, 'kind' | 'namespace' | 'name'> {
    const suspended = facts.suspended ?? false;
    return {
      placement: facts.placement,
      state: suspended ? 'suspended' : facts.state,
      suspended,
      steadyState: facts.steadyState ?? facts.state,
      tenant: facts.tenant,
      serviceAccountName: facts.serviceAccountName ?? null,
      service: facts.service,
      sources: facts.sources ?? [],
      dependsOn: facts.dependsOn ?? [],
      requestedAt: facts.requestedAt,
      lastHandledReconcileAt: facts.lastHandledReconcileAt,
      generated: true,
      problems:
        facts.problems && facts.problems.length > 0
          ? facts.problems
          : undefined,
      churnable: facts.churnable,
    };
  }

  // ---- sources ------------------------------------------------------------------------------------

  source(
    kind: 'GitRepository' | 'OCIRepository' | 'HelmRepository' | 'Bucket',
    o: {
      meta: Meta;
      placement: Placement;
      tenant: string | null;
      service: string | null;
      build: (
        meta: Meta,
        facts: StatusFacts | undefined,
        artifact: ArtifactFacts | undefined,
      ) => Record<string, any>;
      revision: string;
      url: string;
      stateWeights?: Array<readonly [ReconcileStateName, number]>;
      extension?: string;
      problems?: string[];
      /** Storage host for orphans (the shard that served it before). */
      storage?: { name: string; instance: string };
    },
  ): ReconcileStateName {
    const state = this.random.weighted<ReconcileStateName>(
      o.stateWeights ?? [
        ['ready', 95],
        ['failed', 4],
        ['progressing', 1],
      ],
    );
    const suspended = o.stateWeights === undefined && this.random.chance(0.01);
    const since = this.since(state);
    const detail: ConditionDetail = { revision: o.revision };
    if (state === 'failed') {
      Object.assign(
        detail,
        typicalFailure(kind, this.random.int(0, 2), {
          namespace: o.meta.namespace,
          name: o.meta.name,
          url: o.url,
        }),
      );
    }
    const annotations = { ...(o.meta.annotations ?? {}) };
    const requested = this.handledRequest(annotations);
    const meta = { ...o.meta, annotations };
    const storage = o.storage ?? this.storageOf(o.placement, o.meta.namespace);
    const artifact = this.artifact(
      kind,
      o.meta.namespace,
      o.meta.name,
      o.revision,
      storage,
      o.extension,
    );
    const facts: StatusFacts = {
      state,
      since,
      detail,
      lastHandledReconcileAt: requested,
    };
    const object = o.build(meta, facts, artifact);
    if (suspended) (object.spec as any).suspend = true;
    const ok = o.placement.status === 'ok';
    this.b.putFlux(
      object,
      this.record({
        placement: o.placement,
        state,
        suspended,
        tenant: o.tenant,
        service: o.service,
        requestedAt: requested,
        lastHandledReconcileAt: requested,
        problems: o.problems,
        churnable: ok && !suspended && (o.problems ?? []).length === 0,
      }),
    );
    this.eventsFor(object, 'source-controller', state, detail, since);
    return state;
  }

  // ---- Kustomizations and HelmReleases -----------------------------------------------------------

  kustomizationObject(o: {
    meta: Meta;
    placement: Placement;
    tenant: string | null;
    /** The service its labelled workloads belong to (linked through the inventory, rules §6). */
    service: string | null;
    spec: Parameters<typeof kustomization>[2];
    sourceRefs: ObjectRef[];
    dependsOn?: ObjectRef[];
    state: ReconcileStateName;
    failure?: { reason: string; message: string };
    suspended?: boolean;
    generationAhead?: boolean;
    neverReconciled?: boolean;
    unhandledRequest?: boolean;
    revision: string;
    inventoryEntries: Parameters<typeof inventory>[0];
    problems?: string[];
    churnable?: boolean;
  }): Record<string, any> {
    const { b } = this;
    const annotations = { ...(o.meta.annotations ?? {}) };
    let requestedAt: string | undefined;
    let lastHandled: string | undefined;
    if (o.unhandledRequest) {
      requestedAt = this.b
        .between(90 * MINUTE, 6 * HOUR)
        .replace('Z', '.118204113Z');
      annotations['reconcile.fluxcd.io/requestedAt'] = requestedAt;
      lastHandled = this.b
        .between(4 * DAY, 9 * DAY)
        .replace('Z', '.502113976Z');
    } else if (!o.neverReconciled) {
      requestedAt = this.handledRequest(annotations);
      lastHandled = requestedAt;
    }
    const meta = { ...o.meta, annotations };
    const progressingByGeneration =
      o.state === 'progressing' && o.generationAhead && meta.generation > 1;
    const shown: ReconcileStateName = progressingByGeneration
      ? 'ready'
      : o.state;
    const since = this.since(o.state);
    const previous = o.revision.replace(/[0-9a-f]{40}$/, this.random.hex(40));
    const detail: ConditionDetail = {
      revision:
        o.state === 'failed' || o.state === 'stalled' ? previous : o.revision,
      dependency: undefined,
      ...(o.failure ?? {}),
    };
    const duration = `${this.random.int(1, 90)}.${this.random.int(0, 9)}s`;
    // A Kustomization blocked before its first apply has no inventory yet.
    const withInventory = !(o.state === 'blocked' && this.random.chance(0.3));
    const labelService = o.meta.labels?.[KUBERNETES_ID] ?? null;
    const service =
      labelService ?? (o.neverReconciled || !withInventory ? null : o.service);
    const object = kustomization(
      b.apiVersion('Kustomization'),
      meta,
      { ...o.spec, suspend: o.suspended },
      o.neverReconciled
        ? undefined
        : {
            state: shown,
            since,
            detail,
            observedGeneration: progressingByGeneration
              ? meta.generation - 1
              : meta.generation,
            lastHandledReconcileAt: lastHandled,
          },
      {
        lastAppliedRevision:
          o.state === 'failed' || o.state === 'stalled' || o.state === 'blocked'
            ? previous
            : o.revision,
        lastAttemptedRevision: o.revision,
        inventory: withInventory ? inventory(o.inventoryEntries) : undefined,
        history:
          this.plan.release.minor >= 7
            ? [
                {
                  digest: this.digest(),
                  firstReconciled: this.b.between(5 * DAY, 60 * DAY),
                  lastReconciled: since,
                  lastReconciledDuration: duration,
                  lastReconciledStatus:
                    o.state === 'ready' || o.state === 'progressing'
                      ? 'ReconciliationSucceeded'
                      : detail.reason ?? 'ReconciliationFailed',
                  totalReconciliations: this.random.int(1, 4000),
                  metadata: { revision: o.revision },
                },
              ]
            : undefined,
      },
    );
    const state: ReconcileStateName = o.neverReconciled
      ? 'never-reconciled'
      : o.state;
    b.putFlux(
      object,
      this.record({
        placement: o.placement,
        state,
        suspended: o.suspended,
        tenant: o.tenant,
        service,
        serviceAccountName: o.spec.serviceAccountName ?? null,
        sources: o.sourceRefs,
        dependsOn: o.dependsOn ?? [],
        requestedAt,
        lastHandledReconcileAt: o.neverReconciled ? undefined : lastHandled,
        problems: o.problems,
        churnable: o.churnable,
      }),
    );
    if (!o.neverReconciled)
      this.eventsFor(object, 'kustomize-controller', o.state, detail, since);
    return object;
  }

  /** A HelmRelease and, for `spec.chart`, the HelmChart helm-controller generates for it. */
  chartAndRelease(o: {
    namespace: string;
    release: string;
    chart: string;
    version: string;
    /** HelmRepository name, or undefined for an OCIRepository chartRef. */
    repository?: string;
    repositoryRevision?: string;
    ociChart?: string;
    placement: { release: Placement; chart?: Placement };
    labels: Record<string, string>;
    chartLabels?: Record<string, string>;
    tenant: string | null;
    service: string | null;
    serviceAccountName: string | null;
    dependsOn: ObjectRef[];
    state: ReconcileStateName;
    failure?: { reason: string; message: string };
    suspended: boolean;
    generationAhead?: boolean;
    unhandledRequest?: boolean;
    neverReconciled?: boolean;
    workloads: Array<{ namespace: string; name: string }>;
    problems?: string[];
    churnable?: boolean;
    chartProblems?: string[];
  }): void {
    const { b } = this;
    const ns = o.namespace;
    let state = o.state;
    let failure = o.failure;
    let helmChartName: string | undefined;
    if (o.repository) {
      // The HelmChart lives in the repository's namespace, named <namespace>-<name> of the release.
      helmChartName = `${ns}-${o.release}`;
      const chartPlacement = o.placement.chart!;
      // Charts of problem releases stay ready so that only the intended problem shows.
      const keepReady = o.neverReconciled || o.chartProblems !== undefined;
      const chartState: ReconcileStateName =
        keepReady || this.random.chance(0.97) ? 'ready' : 'failed';
      const chartMeta = this.meta(helmChartName, ns, {
        labels: o.chartLabels,
        generation: 1,
      });
      const chartSince = this.since(chartState);
      const pulled = o.version;
      const detail: ConditionDetail = {
        revision: pulled,
        readyReason: 'ChartPullSucceeded',
        readyMessage: `pulled '${o.chart}' chart with version '${pulled}'`,
      };
      if (chartState === 'failed') {
        Object.assign(
          detail,
          typicalFailure('HelmChart', 0, {
            namespace: ns,
            name: helmChartName,
            chart: o.chart,
            version: `>=${Number(pulled.split('.')[0]) + 1}.0.0`,
          }),
        );
      }
      const chartObject = helmChart(
        b.apiVersion('HelmChart'),
        chartMeta,
        {
          chart: o.chart,
          version:
            chartState === 'failed'
              ? `>=${Number(pulled.split('.')[0]) + 1}.0.0`
              : `${pulled.split('.')[0]}.x`,
          repository: o.repository,
        },
        { state: chartState, since: chartSince, detail },
        this.artifact(
          'HelmChart',
          ns,
          helmChartName,
          pulled,
          this.storageOf(chartPlacement, ns),
          'tgz',
        ),
        o.repositoryRevision,
      );
      b.putFlux(
        chartObject,
        this.record({
          placement: chartPlacement,
          state: chartState,
          tenant: o.tenant,
          service: null,
          sources: [
            { kind: 'HelmRepository', namespace: ns, name: o.repository },
          ],
          problems: o.chartProblems,
          churnable: false,
        }),
      );
      this.eventsFor(
        chartObject,
        'source-controller',
        chartState,
        detail,
        chartSince,
      );
      if (chartState === 'failed' && state === 'ready') {
        state = 'failed';
        failure = {
          reason: 'ArtifactFailed',
          message: `HelmChart '${ns}/${helmChartName}' is not ready: ${detail.message}`,
        };
      }
    }

    const annotations: Record<string, string> = {};
    let requestedAt: string | undefined;
    let lastHandled: string | undefined;
    if (o.unhandledRequest) {
      requestedAt = this.b
        .between(2 * HOUR, 7 * HOUR)
        .replace('Z', '.733120458Z');
      annotations['reconcile.fluxcd.io/requestedAt'] = requestedAt;
      lastHandled = this.b
        .between(3 * DAY, 8 * DAY)
        .replace('Z', '.104992311Z');
    } else if (!o.neverReconciled) {
      requestedAt = this.handledRequest(annotations);
      lastHandled = requestedAt;
    }
    const meta = this.meta(o.release, ns, { labels: o.labels, annotations });
    const releaseVersion = this.random.int(1, 40);
    const since = this.since(state);
    const progressingByGeneration =
      state === 'progressing' && o.generationAhead && meta.generation > 1;
    const attempted =
      state === 'failed' || state === 'stalled'
        ? o.version.replace(
            /^(\d+)\.(\d+)/,
            (_, a, m) => `${a}.${Number(m) + 1}`,
          )
        : o.version;
    const detail: ConditionDetail = {
      revision: o.version,
      readyReason: releaseVersion > 1 ? 'UpgradeSucceeded' : 'InstallSucceeded',
      readyMessage: `Helm ${
        releaseVersion > 1 ? 'upgrade' : 'install'
      } succeeded for release ${ns}/${
        o.release
      }.v${releaseVersion} with chart ${o.chart}@${o.version}`,
      ...(failure
        ? {
            reason: failure.reason,
            message: failure.message.replace(
              `${o.chart}@${o.version}`,
              `${o.chart}@${attempted}`,
            ),
          }
        : {}),
    };
    const withInventory = this.plan.release.minor >= 8;
    const object = helmRelease(
      b.apiVersion('HelmRelease'),
      meta,
      {
        interval: '10m',
        chart: o.repository
          ? {
              chart: o.chart,
              version: `${o.version.split('.')[0]}.x`,
              repository: o.repository,
              labels: o.chartLabels,
            }
          : undefined,
        chartRef: o.ociChart
          ? { kind: 'OCIRepository', name: o.ociChart }
          : undefined,
        serviceAccountName: o.serviceAccountName,
        dependsOn: o.dependsOn.map(d =>
          d.namespace === ns
            ? { name: d.name }
            : { name: d.name, namespace: d.namespace },
        ),
        suspend: o.suspended,
        values: { replicaCount: this.random.int(1, 4) },
      },
      o.neverReconciled
        ? undefined
        : {
            state: progressingByGeneration ? 'ready' : state,
            since,
            detail,
            observedGeneration: progressingByGeneration
              ? meta.generation - 1
              : meta.generation,
            lastHandledReconcileAt: lastHandled,
          },
      {
        chart: o.chart,
        chartVersion: o.version,
        releaseVersion,
        attemptedVersion: attempted,
        action: releaseVersion > 1 ? 'upgrade' : 'install',
        firstDeployed: this.b.between(40 * DAY, 300 * DAY),
        lastDeployed:
          state === 'ready' ? since : this.b.between(1 * DAY, 30 * DAY),
        digest: this.digest(),
        configDigest: this.digest(),
        failures:
          state === 'failed' || state === 'stalled'
            ? this.random.int(1, 6)
            : undefined,
        inventory: withInventory
          ? inventory(
              o.workloads.flatMap(w => [
                {
                  namespace: w.namespace,
                  name: w.name,
                  group: 'apps',
                  kind: 'Deployment',
                  version: 'v1',
                },
                {
                  namespace: w.namespace,
                  name: w.name,
                  group: '',
                  kind: 'Service',
                  version: 'v1',
                },
              ]),
            )
          : undefined,
        helmChart: helmChartName ? `${ns}/${helmChartName}` : undefined,
      },
    );
    b.putFlux(
      object,
      this.record({
        placement: o.placement.release,
        state: o.neverReconciled ? 'never-reconciled' : state,
        suspended: o.suspended,
        tenant: o.tenant,
        service:
          o.labels[KUBERNETES_ID] ??
          (withInventory && !o.neverReconciled ? o.service : null),
        serviceAccountName: o.serviceAccountName,
        sources: o.repository
          ? [{ kind: 'HelmRepository', namespace: ns, name: o.repository }]
          : [{ kind: 'OCIRepository', namespace: ns, name: o.ociChart! }],
        dependsOn: o.dependsOn,
        requestedAt,
        lastHandledReconcileAt: o.neverReconciled ? undefined : lastHandled,
        problems: o.problems,
        churnable: o.churnable && !failure?.reason.startsWith('Artifact'),
      }),
    );
    if (!o.neverReconciled)
      this.eventsFor(object, 'helm-controller', state, detail, since);
  }

  // ---- teams and services -------------------------------------------------------------------------

  private team(team: TeamPlan, services: ServicePlan[]): void {
    const { b, plan } = this;
    const ns = team.namespace;
    const instance = plan.instances.find(i => i.namespace === team.instance)!;
    const shardLabels: Record<string, string> = team.shardLabel
      ? { [SHARD_KEY]: team.shardLabel }
      : {};
    const teamParent = {
      'kustomize.toolkit.fluxcd.io/name': 'tenants',
      'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
    };
    const sourcePlacement = b.placed(
      team.instance,
      'source-controller',
      team.shard,
    );
    const ksPlacement = b.placed(
      team.instance,
      'kustomize-controller',
      team.shard,
    );
    const helmPlacement = b.placed(
      team.instance,
      'helm-controller',
      team.shard,
    );
    const ksParent = {
      'kustomize.toolkit.fluxcd.io/name': `${team.team}-apps`,
      'kustomize.toolkit.fluxcd.io/namespace': ns,
    };

    // The team's repository and the Kustomization that applies its services.
    const teamRevision = this.gitRevision();
    const teamUrl = `https://git.example.com/${team.team}/apps.git`;
    this.source('GitRepository', {
      meta: this.meta(`${team.team}-apps`, ns, {
        labels: { ...teamParent, ...shardLabels },
      }),
      placement: sourcePlacement,
      tenant: team.team,
      service: null,
      build: (meta, facts, artifact) =>
        gitRepository(
          b.apiVersion('GitRepository'),
          meta,
          {
            url: teamUrl,
            branch: 'main',
            interval: '1m',
            secretRef: `${team.team}-git-auth`,
          },
          facts,
          artifact,
        ),
      revision: teamRevision,
      url: teamUrl,
    });
    this.kustomizationObject({
      meta: this.meta(`${team.team}-apps`, ns, {
        labels: { ...teamParent, ...shardLabels },
      }),
      placement: ksPlacement,
      tenant: team.team,
      service: null,
      spec: {
        interval: '10m',
        path: `./clusters/${plan.name}`,
        sourceRef: { kind: 'GitRepository', name: `${team.team}-apps` },
        serviceAccountName: team.team,
      },
      sourceRefs: [
        { kind: 'GitRepository', namespace: ns, name: `${team.team}-apps` },
      ],
      state: 'ready',
      revision: teamRevision,
      inventoryEntries: services.map(s => ({
        namespace: ns,
        name: s.service.name,
        group: 'kustomize.toolkit.fluxcd.io',
        kind: 'Kustomization',
        version: 'v1',
      })),
      churnable: true,
    });

    // The team's chart repository, when a service deploys with Helm from one.
    const chartRepo = `${team.team}-charts`;
    let chartRepoRevision: string | undefined;
    if (
      services.some(s => s.mode === 'helm' && s.chart.via === 'HelmRepository')
    ) {
      chartRepoRevision = this.digest();
      const url = `https://charts.example.com/${team.team}`;
      this.source('HelmRepository', {
        meta: this.meta(chartRepo, ns, {
          labels: { ...teamParent, ...shardLabels },
        }),
        placement: sourcePlacement,
        tenant: team.team,
        service: null,
        build: (meta, facts, artifact) =>
          helmRepository(
            b.apiVersion('HelmRepository'),
            meta,
            { url, interval: '1h' },
            facts,
            artifact,
          ),
        revision: chartRepoRevision,
        url,
        extension: 'yaml',
      });
    }

    for (const s of services)
      this.service(s, {
        instance,
        shardLabels,
        ksParent,
        teamRevision,
        chartRepo,
        chartRepoRevision,
        sourcePlacement,
        ksPlacement,
        helmPlacement,
      });

    // Some teams get their own alerting, and teams on main their image automation.
    if (this.random.chance(0.5)) {
      const notification = b.placed(
        team.instance,
        'notification-controller',
        team.instance === 'flux-system' ? 'main' : team.shard,
      );
      const labels = {
        ...teamParent,
        ...(team.instance === 'flux-system' ? {} : shardLabels),
      };
      b.putFlux(
        provider(
          b.apiVersion('Provider'),
          this.meta(`${team.team}-slack`, ns, { labels }),
          {
            type: 'slack',
            channel: `#${team.team}-deploys`,
            secretRef: 'slack-webhook',
          },
        ),
        this.record({
          placement: notification,
          state: 'never-reconciled',
          tenant: team.team,
          service: null,
        }),
      );
      b.putFlux(
        alert(b.apiVersion('Alert'), this.meta(team.team, ns, { labels }), {
          provider: `${team.team}-slack`,
          severity: 'info',
          sources: [
            { kind: 'Kustomization', name: '*' },
            { kind: 'HelmRelease', name: '*' },
          ],
        }),
        this.record({
          placement: notification,
          state: 'never-reconciled',
          tenant: team.team,
          service: null,
          sources: [
            { kind: 'Provider', namespace: ns, name: `${team.team}-slack` },
          ],
        }),
      );
    }
    if (
      plan.imageAutomation &&
      team.instance === 'flux-system' &&
      team.shard === 'main'
    ) {
      const automated = services
        .filter(s => !s.problem.labels.length)
        .slice(0, 3);
      if (automated.length > 0)
        this.imageAutomation(team, automated, teamRevision);
    }
  }

  private service(
    s: ServicePlan,
    ctx: {
      instance: ClusterPlan['instances'][number];
      shardLabels: Record<string, string>;
      ksParent: Record<string, string>;
      teamRevision: string;
      chartRepo: string;
      chartRepoRevision?: string;
      sourcePlacement: Placement;
      ksPlacement: Placement;
      helmPlacement: Placement;
    },
  ): void {
    const { b } = this;
    const team = s.team;
    const ns = team.namespace;
    const name = s.service.name;
    const problems = s.problem.labels;

    // The service's own source, if it has one.
    let revision = ctx.teamRevision;
    if (s.source.own && !s.problem.missingSource) {
      const sourceShard = s.ownSourceShardLabel;
      let shardLabels = ctx.shardLabels;
      if (sourceShard !== undefined) {
        shardLabels =
          sourceShard === 'main' ? {} : { [SHARD_KEY]: sourceShard };
      }
      const labels: Record<string, string> = {
        ...shardLabels,
        ...(s.labelled.source ? { [KUBERNETES_ID]: name } : {}),
      };
      const placement =
        sourceShard !== undefined
          ? b.placed(team.instance, 'source-controller', sourceShard)
          : ctx.sourcePlacement;
      if (s.source.kind === 'GitRepository') {
        revision = this.gitRevision();
        const url = `https://git.example.com/${team.team}/${name}.git`;
        this.source('GitRepository', {
          meta: this.meta(s.source.name, ns, { labels }),
          placement,
          tenant: team.team,
          service: s.labelled.source ? name : null,
          build: (meta, facts, artifact) =>
            gitRepository(
              b.apiVersion('GitRepository'),
              meta,
              {
                url,
                branch: 'main',
                interval: '1m',
                secretRef: `${team.team}-git-auth`,
              },
              facts,
              artifact,
            ),
          revision,
          url,
        });
      } else {
        const tag = 'latest';
        revision = `${tag}@${this.digest()}`;
        const url = `oci://ghcr.io/acme/manifests/${name}`;
        this.source('OCIRepository', {
          meta: this.meta(s.source.name, ns, { labels }),
          placement,
          tenant: team.team,
          service: s.labelled.source ? name : null,
          build: (meta, facts, artifact) =>
            ociRepository(
              b.apiVersion('OCIRepository'),
              meta,
              { url, tag, interval: '5m' },
              facts,
              artifact,
            ),
          revision,
          url,
        });
      }
    }
    const crossTenantSource = s.source.namespace !== ns;

    // Workloads, labelled for the catalog.
    const helm = s.mode === 'helm';
    const version = s.chart.version;
    // A failing health check or Helm release leaves the workloads without their replicas.
    const degraded =
      (s.state === 'failed' || s.state === 'stalled') &&
      (helm || s.failure?.reason === 'HealthCheckFailed');
    for (const workload of s.workloads) {
      this.workload(ns, workload, name, helm, version, degraded);
    }

    // The Kustomization: applies the workloads (kustomize mode) or the HelmRelease (helm mode).
    const ksLabels: Record<string, string> = {
      ...ctx.ksParent,
      ...(s.problem.orphanShard
        ? { [SHARD_KEY]: s.problem.orphanShard }
        : ctx.shardLabels),
      ...(s.labelled.kustomization ? { [KUBERNETES_ID]: name } : {}),
      ...(s.problem.tenantLabel ? { [TENANT_LABEL]: team.team } : {}),
    };
    let ksPlacement = ctx.ksPlacement;
    if (s.problem.orphanShard)
      ksPlacement = { status: 'orphan', controllers: [] };
    if (s.problem.tenantLabel) {
      ksPlacement = {
        status: 'contested',
        controllers: [
          ctx.ksPlacement.controllers[0],
          b.controller(team.instance, 'kustomize-controller', team.team),
        ],
      };
    }
    const ksDependsOn = helm ? [] : s.dependsOn;
    const ksState = helm ? s.kustomizationState : s.state;
    let ksFailure = s.failure;
    if (helm) {
      ksFailure =
        ksState === 'failed'
          ? typicalFailure('Kustomization', 2, {
              namespace: ns,
              name,
              workload: name,
            })
          : undefined;
    }
    const workloadEntries = helm
      ? [
          {
            namespace: ns,
            name,
            group: 'helm.toolkit.fluxcd.io',
            kind: 'HelmRelease',
            version: 'v2',
          },
          {
            namespace: ns,
            name: `${name}-values`,
            group: '',
            kind: 'ConfigMap',
            version: 'v1',
          },
        ]
      : [
          { namespace: ns, name, group: '', kind: 'Service', version: 'v1' },
          ...s.workloads.map(w => ({
            namespace: ns,
            name: w,
            group: 'apps',
            kind: 'Deployment',
            version: 'v1',
          })),
        ];
    const sourceRef: { kind: string; name: string; namespace?: string } = {
      kind: s.source.kind,
      name: s.source.name,
      ...(crossTenantSource ? { namespace: s.source.namespace } : {}),
    };
    this.kustomizationObject({
      meta: this.meta(name, ns, { labels: ksLabels }),
      placement: ksPlacement,
      tenant: team.team,
      service: helm ? null : name,
      spec: {
        interval: '10m',
        path: s.source.own
          ? './deploy/production'
          : `./apps/${name}/overlays/production`,
        sourceRef,
        wait: !helm && this.random.chance(0.5),
        targetNamespace: ns,
        serviceAccountName: s.serviceAccountName,
        dependsOn: ksDependsOn.map(d =>
          d.namespace
            ? { name: d.name, namespace: d.namespace }
            : { name: d.name },
        ),
      },
      sourceRefs: [
        {
          kind: s.source.kind,
          namespace: s.source.namespace,
          name: s.source.name,
        },
      ],
      dependsOn: ksDependsOn.map(d => ({
        kind: 'Kustomization',
        namespace: d.namespace ?? ns,
        name: d.name,
      })),
      state: ksState,
      failure: ksFailure,
      suspended: !helm && s.suspended,
      generationAhead: s.generationAhead,
      neverReconciled: s.problem.neverReconciled,
      unhandledRequest: s.problem.unhandledRequest,
      revision,
      inventoryEntries: workloadEntries,
      problems: s.problem.on.kustomization,
      churnable:
        problems.length === 0 &&
        ksPlacement.status === 'ok' &&
        !(!helm && s.suspended) &&
        ksState !== 'blocked',
    });

    if (!helm) return;
    // The HelmRelease and its chart source.
    let ociChart: string | undefined;
    if (s.chart.via === 'OCIRepository') {
      ociChart = `${name}-chart`;
      const url = `oci://ghcr.io/acme/charts/${name}`;
      this.source('OCIRepository', {
        meta: this.meta(ociChart, ns, {
          labels: { ...ctx.shardLabels, ...ctx.ksParent },
        }),
        placement: ctx.sourcePlacement,
        tenant: team.team,
        service: null,
        build: (meta, facts, artifact) =>
          ociRepository(
            b.apiVersion('OCIRepository'),
            meta,
            { url, semver: `${version.split('.')[0]}.x`, interval: '10m' },
            facts,
            artifact,
          ),
        revision: `${version}@${this.digest()}`,
        url,
      });
    }
    const chartLabels = s.chart.labelled ? ctx.shardLabels : undefined;
    const chartOnShard =
      s.chart.labelled && Object.keys(ctx.shardLabels).length > 0;
    const chartPlacement = chartOnShard
      ? ctx.sourcePlacement
      : b.placed(
          team.instance,
          'source-controller',
          team.instance === 'flux-system' ? 'main' : team.shard,
        );
    const hrLabels: Record<string, string> = {
      ...ctx.shardLabels,
      'kustomize.toolkit.fluxcd.io/name': name,
      'kustomize.toolkit.fluxcd.io/namespace': ns,
      ...(s.labelled.helmRelease ? { [KUBERNETES_ID]: name } : {}),
    };
    this.chartAndRelease({
      namespace: ns,
      release: name,
      chart: name,
      version,
      repository: ociChart ? undefined : ctx.chartRepo,
      repositoryRevision: ctx.chartRepoRevision,
      ociChart,
      placement: { release: ctx.helmPlacement, chart: chartPlacement },
      labels: hrLabels,
      chartLabels:
        chartLabels && Object.keys(chartLabels).length > 0
          ? chartLabels
          : undefined,
      tenant: team.team,
      service: name,
      serviceAccountName: s.serviceAccountName,
      dependsOn: s.dependsOn.map(d => ({
        kind: 'HelmRelease',
        namespace: d.namespace ?? ns,
        name: d.name,
      })),
      state: s.state,
      failure: s.failure,
      suspended: s.suspended,
      generationAhead: s.generationAhead,
      unhandledRequest: s.problem.helmReleaseUnhandled,
      neverReconciled: s.problem.helmReleaseNeverReconciled,
      workloads: s.workloads.map(w => ({ namespace: ns, name: w })),
      problems: s.problem.on.helmRelease,
      chartProblems:
        s.problem.on.helmChart.length > 0 ? s.problem.on.helmChart : undefined,
      churnable:
        problems.length === 0 &&
        !s.suspended &&
        s.state !== 'blocked' &&
        ctx.helmPlacement.controllers[0].replicas > 0,
    });
  }

  private workload(
    namespace: string,
    name: string,
    service: string,
    helm: boolean,
    version: string,
    degraded: boolean,
  ): void {
    const replicas = this.random.int(1, 4);
    const ready = degraded ? this.random.int(0, replicas - 1) : replicas;
    const labels: Record<string, string> = {
      'app.kubernetes.io/name': name,
      [KUBERNETES_ID]: service,
      ...(helm
        ? {
            'app.kubernetes.io/managed-by': 'Helm',
            'helm.sh/chart': `${service}-${version}`,
            'helm.toolkit.fluxcd.io/name': service,
            'helm.toolkit.fluxcd.io/namespace': namespace,
          }
        : {
            'kustomize.toolkit.fluxcd.io/name': service,
            'kustomize.toolkit.fluxcd.io/namespace': namespace,
          }),
    };
    const created = this.b.between(10 * DAY, 300 * DAY);
    this.b.put({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name,
        namespace,
        uid: this.b.uid(),
        generation: this.random.int(1, 30),
        creationTimestamp: created,
        labels,
        annotations: {
          'deployment.kubernetes.io/revision': String(this.random.int(1, 40)),
        },
      },
      spec: {
        replicas,
        selector: { matchLabels: { 'app.kubernetes.io/name': name } },
        template: {
          metadata: {
            labels: {
              'app.kubernetes.io/name': name,
              [KUBERNETES_ID]: service,
            },
          },
          spec: {
            containers: [
              {
                name: 'app',
                image: `ghcr.io/acme/${service}:${version}`,
                ports: [{ containerPort: 8080, name: 'http' }],
              },
            ],
          },
        },
      },
      status: {
        observedGeneration: 1,
        replicas,
        ...(ready > 0
          ? { readyReplicas: ready, availableReplicas: ready }
          : {}),
        updatedReplicas: replicas,
        ...(ready < replicas ? { unavailableReplicas: replicas - ready } : {}),
        conditions: [
          {
            type: 'Available',
            status: ready > 0 ? 'True' : 'False',
            reason:
              ready > 0
                ? 'MinimumReplicasAvailable'
                : 'MinimumReplicasUnavailable',
            message:
              ready > 0
                ? 'Deployment has minimum availability.'
                : 'Deployment does not have minimum availability.',
            lastUpdateTime: created,
            lastTransitionTime: created,
          },
        ],
      },
    });
  }

  private imageAutomation(
    team: TeamPlan,
    services: ServicePlan[],
    _teamRevision: string,
  ): void {
    const { b } = this;
    const ns = team.namespace;
    const reflector = b.placed(
      'flux-system',
      'image-reflector-controller',
      'main',
    );
    for (const s of services) {
      const image = `ghcr.io/acme/${s.service.name}`;
      const since = this.since('ready');
      const tags = [
        s.chart.version,
        ...Array.from(
          { length: 4 },
          () =>
            `${this.random.int(0, 3)}.${this.random.int(
              0,
              20,
            )}.${this.random.int(0, 9)}`,
        ),
      ];
      b.putFlux(
        imageRepository(
          b.apiVersion('ImageRepository'),
          this.meta(s.service.name, ns, {
            labels: { [KUBERNETES_ID]: s.service.name },
          }),
          { image, interval: '5m' },
          {
            state: 'ready',
            since,
            detail: {
              readyMessage: `successful scan: found ${tags.length * 7} tags`,
            },
          },
          {
            tagCount: tags.length * 7,
            scanTime: this.b.between(MINUTE, 5 * MINUTE),
            latestTags: tags,
          },
        ),
        this.record({
          placement: reflector,
          state: 'ready',
          tenant: team.team,
          service: s.service.name,
        }),
      );
      b.putFlux(
        imagePolicy(
          b.apiVersion('ImagePolicy'),
          this.meta(s.service.name, ns),
          { repository: s.service.name, range: '>=0.1.0' },
          {
            state: 'ready',
            since,
            detail: {
              readyMessage: `Latest image tag for '${image}' resolved to ${s.chart.version}`,
            },
          },
          { image, tag: s.chart.version },
        ),
        this.record({
          placement: reflector,
          state: 'ready',
          tenant: team.team,
          service: null,
          sources: [
            { kind: 'ImageRepository', namespace: ns, name: s.service.name },
          ],
        }),
      );
    }
    b.putFlux(
      imageUpdateAutomation(
        b.apiVersion('ImageUpdateAutomation'),
        this.meta(`${team.team}-apps`, ns),
        { repository: `${team.team}-apps`, path: `./apps` },
        {
          state: 'ready',
          since: this.since('ready'),
          detail: { readyMessage: 'repository up-to-date' },
        },
        {
          lastRun: this.b.between(MINUTE, 30 * MINUTE),
          lastPushCommit: this.random.hex(40),
          lastPushTime: this.b.between(2 * HOUR, 9 * DAY),
        },
      ),
      this.record({
        placement: b.placed(
          'flux-system',
          'image-automation-controller',
          'main',
        ),
        state: 'ready',
        tenant: team.team,
        service: null,
        sources: [
          { kind: 'GitRepository', namespace: ns, name: `${team.team}-apps` },
        ],
      }),
    );
  }

  private emitEvents(): void {
    for (const e of this.events) {
      const suffix = this.random.hex(16);
      this.b.put({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: {
          name: `${e.name}.${suffix}`,
          namespace: e.namespace,
          uid: this.b.uid(),
          creationTimestamp: e.time,
          ...(e.revision
            ? { annotations: { [`${e.group}/revision`]: e.revision } }
            : {}),
        },
        involvedObject: {
          kind: e.kind,
          namespace: e.namespace,
          name: e.name,
          uid: e.uid,
          apiVersion: e.apiVersion,
        },
        reason: e.reason,
        message: e.message,
        source: { component: e.component },
        firstTimestamp: e.time,
        lastTimestamp: e.time,
        count: e.type === 'Warning' ? this.random.int(1, 30) : 1,
        type: e.type,
        eventTime: null,
        reportingComponent: e.component,
        reportingInstance: '',
      });
    }
  }
}

/** Generates a cluster from its plan. */
export function generateCluster(
  plan: ClusterPlan,
  random: Random,
  options: { epoch: number; watchWindow: number },
): GeneratedCluster {
  const generator = new Generator(
    plan,
    random,
    options.epoch,
    options.watchWindow,
  );
  generator.generate();
  return {
    name: plan.name,
    fluxVersion: plan.release.version,
    kubernetesVersion: plan.release.kubernetesVersion,
    plan,
    store: generator.b.store,
    served: generator.b.served,
    records: generator.b.records,
  };
}

/** An empty cluster: it serves every Flux API of the newest release (and the Flux Operator's) and holds no objects but the default namespaces. */
export function generateEmptyCluster(
  name: string,
  options: { epoch: number; watchWindow: number },
): GeneratedCluster {
  const served = servedResources(LATEST_FLUX_RELEASE.minor, true);
  const plan: ClusterPlan = {
    index: 0,
    name,
    release: LATEST_FLUX_RELEASE,
    operator: true,
    imageAutomation: false,
    sourceWatcher: false,
    instances: [],
    teams: [],
    problems: {
      crossShard: false,
      helmChartOffShard: false,
      crossTenant: false,
      boundaryNone: false,
      missingDependency: false,
      missingSource: false,
      dependencyCycle: false,
    },
  };
  const builder = new ClusterBuilder(
    plan,
    new Random(0),
    options.epoch,
    served,
    options.watchWindow,
  );
  const created = new Date(options.epoch).toISOString().replace('.000Z', 'Z');
  let n = 0;
  for (const ns of [
    'default',
    'kube-node-lease',
    'kube-public',
    'kube-system',
  ]) {
    builder.put({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: ns,
        uid: `00000000-0000-4000-a000-${String(++n).padStart(12, '0')}`,
        creationTimestamp: created,
        labels: { 'kubernetes.io/metadata.name': ns },
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }
  builder.store.markLoaded();
  return {
    name,
    fluxVersion: LATEST_FLUX_RELEASE.version,
    kubernetesVersion: LATEST_FLUX_RELEASE.kubernetesVersion,
    store: builder.store,
    served,
    records: builder.records,
  };
}
