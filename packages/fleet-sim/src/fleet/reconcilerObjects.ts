/**
 * Sources, Kustomizations and HelmReleases (with their HelmCharts) as the generator builds them: each stored with
 * the record of how it was built, its status rendered for the state it was given, and its controller's Events.
 */
import { KUBERNETES_ID } from './clusterPlan';
import { DAY, HOUR, MINUTE } from './clusterBuilder';
import { typicalFailure, type ConditionDetail } from './conditions';
import {
  helmChart,
  helmRelease,
  inventory,
  kustomization,
  type ArtifactFacts,
  type Meta,
  type StatusFacts,
} from './fluxObjects';
import type { ObjectRef, Placement, ReconcileStateName } from './model';
import type { GeneratorContext } from './generatorContext';
import { eventsFor } from './eventObjects';

export function source(
  ctx: GeneratorContext,
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
  const state = ctx.random.weighted<ReconcileStateName>(
    o.stateWeights ?? [
      ['ready', 95],
      ['failed', 4],
      ['progressing', 1],
    ],
  );
  const suspended = o.stateWeights === undefined && ctx.random.chance(0.01);
  const since = ctx.since(state);
  const detail: ConditionDetail = { revision: o.revision };
  if (state === 'failed') {
    Object.assign(
      detail,
      typicalFailure(kind, ctx.random.int(0, 2), {
        namespace: o.meta.namespace,
        name: o.meta.name,
        url: o.url,
      }),
    );
  }
  const annotations = { ...(o.meta.annotations ?? {}) };
  const requested = ctx.handledRequest(annotations);
  const meta = { ...o.meta, annotations };
  const storage = o.storage ?? ctx.storageOf(o.placement, o.meta.namespace);
  const artifact = ctx.artifact(
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
  ctx.b.putFlux(
    object,
    ctx.record({
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
  eventsFor(ctx, object, 'source-controller', state, detail, since);
  return state;
}

export function kustomizationObject(
  ctx: GeneratorContext,
  o: {
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
  },
): Record<string, any> {
  const { b } = ctx;
  const annotations = { ...(o.meta.annotations ?? {}) };
  let requestedAt: string | undefined;
  let lastHandled: string | undefined;
  if (o.unhandledRequest) {
    requestedAt = ctx.b
      .between(90 * MINUTE, 6 * HOUR)
      .replace('Z', '.118204113Z');
    annotations['reconcile.fluxcd.io/requestedAt'] = requestedAt;
    lastHandled = ctx.b.between(4 * DAY, 9 * DAY).replace('Z', '.502113976Z');
  } else if (!o.neverReconciled) {
    requestedAt = ctx.handledRequest(annotations);
    lastHandled = requestedAt;
  }
  const meta = { ...o.meta, annotations };
  const progressingByGeneration =
    o.state === 'progressing' && o.generationAhead && meta.generation > 1;
  const shown: ReconcileStateName = progressingByGeneration ? 'ready' : o.state;
  const since = ctx.since(o.state);
  const previous = o.revision.replace(/[0-9a-f]{40}$/, ctx.random.hex(40));
  const detail: ConditionDetail = {
    revision:
      o.state === 'failed' || o.state === 'stalled' ? previous : o.revision,
    dependency: undefined,
    ...(o.failure ?? {}),
  };
  const duration = `${ctx.random.int(1, 90)}.${ctx.random.int(0, 9)}s`;
  // A Kustomization blocked before its first apply has no inventory yet.
  const withInventory = !(o.state === 'blocked' && ctx.random.chance(0.3));
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
        ctx.plan.release.minor >= 7
          ? [
              {
                digest: ctx.digest(),
                firstReconciled: ctx.b.between(5 * DAY, 60 * DAY),
                lastReconciled: since,
                lastReconciledDuration: duration,
                lastReconciledStatus:
                  o.state === 'ready' || o.state === 'progressing'
                    ? 'ReconciliationSucceeded'
                    : detail.reason ?? 'ReconciliationFailed',
                totalReconciliations: ctx.random.int(1, 4000),
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
    ctx.record({
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
    eventsFor(ctx, object, 'kustomize-controller', o.state, detail, since);
  return object;
}

/** A HelmRelease and, for `spec.chart`, the HelmChart helm-controller generates for it. */
export function chartAndRelease(
  ctx: GeneratorContext,
  o: {
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
  },
): void {
  const { b } = ctx;
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
      keepReady || ctx.random.chance(0.97) ? 'ready' : 'failed';
    const chartMeta = ctx.meta(helmChartName, ns, {
      labels: o.chartLabels,
      generation: 1,
    });
    const chartSince = ctx.since(chartState);
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
      ctx.artifact(
        'HelmChart',
        ns,
        helmChartName,
        pulled,
        ctx.storageOf(chartPlacement, ns),
        'tgz',
      ),
      o.repositoryRevision,
    );
    b.putFlux(
      chartObject,
      ctx.record({
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
    eventsFor(
      ctx,
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
    requestedAt = ctx.b.between(2 * HOUR, 7 * HOUR).replace('Z', '.733120458Z');
    annotations['reconcile.fluxcd.io/requestedAt'] = requestedAt;
    lastHandled = ctx.b.between(3 * DAY, 8 * DAY).replace('Z', '.104992311Z');
  } else if (!o.neverReconciled) {
    requestedAt = ctx.handledRequest(annotations);
    lastHandled = requestedAt;
  }
  const meta = ctx.meta(o.release, ns, { labels: o.labels, annotations });
  const releaseVersion = ctx.random.int(1, 40);
  const since = ctx.since(state);
  const progressingByGeneration =
    state === 'progressing' && o.generationAhead && meta.generation > 1;
  const attempted =
    state === 'failed' || state === 'stalled'
      ? o.version.replace(/^(\d+)\.(\d+)/, (_, a, m) => `${a}.${Number(m) + 1}`)
      : o.version;
  const detail: ConditionDetail = {
    revision: o.version,
    readyReason: releaseVersion > 1 ? 'UpgradeSucceeded' : 'InstallSucceeded',
    readyMessage: `Helm ${
      releaseVersion > 1 ? 'upgrade' : 'install'
    } succeeded for release ${ns}/${o.release}.v${releaseVersion} with chart ${
      o.chart
    }@${o.version}`,
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
  const withInventory = ctx.plan.release.minor >= 8;
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
      values: { replicaCount: ctx.random.int(1, 4) },
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
      firstDeployed: ctx.b.between(40 * DAY, 300 * DAY),
      lastDeployed:
        state === 'ready' ? since : ctx.b.between(1 * DAY, 30 * DAY),
      digest: ctx.digest(),
      configDigest: ctx.digest(),
      failures:
        state === 'failed' || state === 'stalled'
          ? ctx.random.int(1, 6)
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
    ctx.record({
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
    eventsFor(ctx, object, 'helm-controller', state, detail, since);
}
