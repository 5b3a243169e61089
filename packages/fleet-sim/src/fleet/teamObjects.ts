/**
 * Every team's (tenant's) objects and every service's: sources, the Kustomization, the HelmRelease with its
 * chart source, labelled workloads, alerting, and image automation.
 */
import {
  KUBERNETES_ID,
  SHARD_KEY,
  TENANT_LABEL,
  type ClusterPlan,
  type TeamPlan,
} from './clusterPlan';
import { DAY, HOUR, MINUTE } from './clusterBuilder';
import { typicalFailure } from './conditions';
import {
  alert,
  gitRepository,
  helmRepository,
  imagePolicy,
  imageRepository,
  imageUpdateAutomation,
  ociRepository,
  provider,
} from './fluxObjects';
import type { Placement } from './model';
import type { ServicePlan } from './servicePlans';
import type { GeneratorContext } from './generatorContext';
import {
  chartAndRelease,
  kustomizationObject,
  source,
} from './reconcilerObjects';

export function teamObjects(
  ctx: GeneratorContext,
  team: TeamPlan,
  services: ServicePlan[],
): void {
  const { b, plan } = ctx;
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
  const helmPlacement = b.placed(team.instance, 'helm-controller', team.shard);
  const ksParent = {
    'kustomize.toolkit.fluxcd.io/name': `${team.team}-apps`,
    'kustomize.toolkit.fluxcd.io/namespace': ns,
  };

  // The team's repository and the Kustomization that applies its services.
  const teamRevision = ctx.gitRevision();
  const teamUrl = `https://git.example.com/${team.team}/apps.git`;
  source(ctx, 'GitRepository', {
    meta: ctx.meta(`${team.team}-apps`, ns, {
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
  kustomizationObject(ctx, {
    meta: ctx.meta(`${team.team}-apps`, ns, {
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
    chartRepoRevision = ctx.digest();
    const url = `https://charts.example.com/${team.team}`;
    source(ctx, 'HelmRepository', {
      meta: ctx.meta(chartRepo, ns, {
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
    serviceObjects(ctx, s, {
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
  if (ctx.random.chance(0.5)) {
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
        ctx.meta(`${team.team}-slack`, ns, { labels }),
        {
          type: 'slack',
          channel: `#${team.team}-deploys`,
          secretRef: 'slack-webhook',
        },
      ),
      ctx.record({
        placement: notification,
        state: 'ready',
        tenant: team.team,
        service: null,
      }),
    );
    b.putFlux(
      alert(b.apiVersion('Alert'), ctx.meta(team.team, ns, { labels }), {
        provider: `${team.team}-slack`,
        severity: 'info',
        sources: [
          { kind: 'Kustomization', name: '*' },
          { kind: 'HelmRelease', name: '*' },
        ],
      }),
      ctx.record({
        placement: notification,
        state: 'ready',
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
      imageAutomation(ctx, team, automated, teamRevision);
  }
}

function serviceObjects(
  ctx: GeneratorContext,
  s: ServicePlan,
  scope: {
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
  const { b } = ctx;
  const team = s.team;
  const ns = team.namespace;
  const name = s.service.name;
  const problems = s.problem.labels;

  // The service's own source, if it has one.
  let revision = scope.teamRevision;
  if (s.source.own && !s.problem.missingSource) {
    const sourceShard = s.ownSourceShardLabel;
    let shardLabels = scope.shardLabels;
    if (sourceShard !== undefined) {
      shardLabels = sourceShard === 'main' ? {} : { [SHARD_KEY]: sourceShard };
    }
    const labels: Record<string, string> = {
      ...shardLabels,
      ...(s.labelled.source ? { [KUBERNETES_ID]: name } : {}),
    };
    const placement =
      sourceShard !== undefined
        ? b.placed(team.instance, 'source-controller', sourceShard)
        : scope.sourcePlacement;
    if (s.source.kind === 'GitRepository') {
      revision = ctx.gitRevision();
      const url = `https://git.example.com/${team.team}/${name}.git`;
      source(ctx, 'GitRepository', {
        meta: ctx.meta(s.source.name, ns, { labels }),
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
      revision = `${tag}@${ctx.digest()}`;
      const url = `oci://ghcr.io/acme/manifests/${name}`;
      source(ctx, 'OCIRepository', {
        meta: ctx.meta(s.source.name, ns, { labels }),
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
    workloadObject(ctx, ns, workload, name, helm, version, degraded);
  }

  // The Kustomization: applies the workloads (kustomize mode) or the HelmRelease (helm mode).
  const ksLabels: Record<string, string> = {
    ...scope.ksParent,
    ...(s.problem.orphanShard
      ? { [SHARD_KEY]: s.problem.orphanShard }
      : scope.shardLabels),
    ...(s.labelled.kustomization ? { [KUBERNETES_ID]: name } : {}),
    ...(s.problem.tenantLabel ? { [TENANT_LABEL]: team.team } : {}),
  };
  let ksPlacement = scope.ksPlacement;
  if (s.problem.orphanShard)
    ksPlacement = { status: 'orphan', controllers: [] };
  if (s.problem.tenantLabel) {
    ksPlacement = {
      status: 'contested',
      controllers: [
        scope.ksPlacement.controllers[0],
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
  kustomizationObject(ctx, {
    meta: ctx.meta(name, ns, { labels: ksLabels }),
    placement: ksPlacement,
    tenant: team.team,
    service: helm ? null : name,
    spec: {
      interval: '10m',
      path: s.source.own
        ? './deploy/production'
        : `./apps/${name}/overlays/production`,
      sourceRef,
      wait: !helm && ctx.random.chance(0.5),
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
    source(ctx, 'OCIRepository', {
      meta: ctx.meta(ociChart, ns, {
        labels: { ...scope.shardLabels, ...scope.ksParent },
      }),
      placement: scope.sourcePlacement,
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
      revision: `${version}@${ctx.digest()}`,
      url,
    });
  }
  const chartLabels = s.chart.labelled ? scope.shardLabels : undefined;
  const chartOnShard =
    s.chart.labelled && Object.keys(scope.shardLabels).length > 0;
  const chartPlacement = chartOnShard
    ? scope.sourcePlacement
    : b.placed(
        team.instance,
        'source-controller',
        team.instance === 'flux-system' ? 'main' : team.shard,
      );
  const hrLabels: Record<string, string> = {
    ...scope.shardLabels,
    'kustomize.toolkit.fluxcd.io/name': name,
    'kustomize.toolkit.fluxcd.io/namespace': ns,
    ...(s.labelled.helmRelease ? { [KUBERNETES_ID]: name } : {}),
  };
  chartAndRelease(ctx, {
    namespace: ns,
    release: name,
    chart: name,
    version,
    repository: ociChart ? undefined : scope.chartRepo,
    repositoryRevision: scope.chartRepoRevision,
    ociChart,
    placement: { release: scope.helmPlacement, chart: chartPlacement },
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
      scope.helmPlacement.controllers[0].replicas > 0,
  });
}

function workloadObject(
  ctx: GeneratorContext,
  namespace: string,
  name: string,
  service: string,
  helm: boolean,
  version: string,
  degraded: boolean,
): void {
  const replicas = ctx.random.int(1, 4);
  const ready = degraded ? ctx.random.int(0, replicas - 1) : replicas;
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
  const created = ctx.b.between(10 * DAY, 300 * DAY);
  ctx.b.put({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      uid: ctx.b.uid(),
      generation: ctx.random.int(1, 30),
      creationTimestamp: created,
      labels,
      annotations: {
        'deployment.kubernetes.io/revision': String(ctx.random.int(1, 40)),
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
      ...(ready > 0 ? { readyReplicas: ready, availableReplicas: ready } : {}),
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

export function imageAutomation(
  ctx: GeneratorContext,
  team: TeamPlan,
  services: ServicePlan[],
  _teamRevision: string,
): void {
  const { b } = ctx;
  const ns = team.namespace;
  const reflector = b.placed(
    'flux-system',
    'image-reflector-controller',
    'main',
  );
  for (const s of services) {
    const image = `ghcr.io/acme/${s.service.name}`;
    const since = ctx.since('ready');
    const tags = [
      s.chart.version,
      ...Array.from(
        { length: 4 },
        () =>
          `${ctx.random.int(0, 3)}.${ctx.random.int(0, 20)}.${ctx.random.int(
            0,
            9,
          )}`,
      ),
    ];
    b.putFlux(
      imageRepository(
        b.apiVersion('ImageRepository'),
        ctx.meta(s.service.name, ns, {
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
          scanTime: ctx.b.between(MINUTE, 5 * MINUTE),
          latestTags: tags,
        },
      ),
      ctx.record({
        placement: reflector,
        state: 'ready',
        tenant: team.team,
        service: s.service.name,
      }),
    );
    b.putFlux(
      imagePolicy(
        b.apiVersion('ImagePolicy'),
        ctx.meta(s.service.name, ns),
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
      ctx.record({
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
      ctx.meta(`${team.team}-apps`, ns),
      { repository: `${team.team}-apps`, path: `./apps` },
      {
        state: 'ready',
        since: ctx.since('ready'),
        detail: { readyMessage: 'repository up-to-date' },
      },
      {
        lastRun: ctx.b.between(MINUTE, 30 * MINUTE),
        lastPushCommit: ctx.random.hex(40),
        lastPushTime: ctx.b.between(2 * HOUR, 9 * DAY),
      },
    ),
    ctx.record({
      placement: b.placed('flux-system', 'image-automation-controller', 'main'),
      state: 'ready',
      tenant: team.team,
      service: null,
      sources: [
        { kind: 'GitRepository', namespace: ns, name: `${team.team}-apps` },
      ],
    }),
  );
}
