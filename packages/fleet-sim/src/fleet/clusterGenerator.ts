/**
 * Generates one simulated cluster from its plan: namespaces, service accounts, the Flux installation, the
 * platform's own Flux objects, every team's and service's objects with the deliberate problems, and core Events
 * about Flux objects. Each Flux object is stored together with the simulator's record of how it was built; the
 * ground truth comes from those records.
 */
import { LATEST_FLUX_RELEASE } from '../api/fluxReleases';
import { servedResources, type ServedResource } from '../api/resourceTypes';
import { Random } from '../random';
import type { ClusterStore } from '../store/clusterStore';
import { ClusterBuilder, DAY } from './clusterBuilder';
import { ENVIRONMENT_LABEL, TENANT_LABEL, type ClusterPlan } from './clusterPlan';
import { clusterEnvironment } from './names';
import { emitEvents } from './eventObjects';
import { GeneratorContext } from './generatorContext';
import {
  controllerDeployment,
  customResourceDefinition,
  operatorDeployment,
} from './installObjects';
import type { SimulatedObject } from './model';
import { shapeDemoLoad, writeObservedDurations } from '../capacity/demoLoad';
import { ControllerPods } from '../sim/controllerPods';
import { platformObjects } from './platformObjects';
import { planServices } from './servicePlans';
import { teamObjects } from './teamObjects';

/** A generated cluster: its store, what it serves, and the records of its Flux objects. */
export interface GeneratedCluster {
  name: string;
  fluxVersion: string;
  kubernetesVersion: string;
  plan?: ClusterPlan;
  store: ClusterStore;
  served: ServedResource[];
  records: Map<string, SimulatedObject>;
  /** What the controller Pods' names are derived from (the fleet seed and the cluster). */
  podSeed: string;
}

const DEFAULT_CONCURRENCY: Record<string, number> = {
  'source-controller': 2,
  'kustomize-controller': 4,
  'helm-controller': 4,
};

function namespaceObject(
  ctx: GeneratorContext,
  name: string,
  labels: Record<string, string> = {},
): void {
  ctx.b.put({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: ctx.b.uid(),
      creationTimestamp: ctx.b.between(200 * DAY, 600 * DAY),
      labels: { 'kubernetes.io/metadata.name': name, ...labels },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  });
}

function serviceAccountObject(
  ctx: GeneratorContext,
  name: string,
  namespace: string,
  labels?: Record<string, string>,
): void {
  ctx.b.put({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {
      name,
      namespace,
      uid: ctx.b.uid(),
      creationTimestamp: ctx.b.between(100 * DAY, 500 * DAY),
      ...(labels ? { labels } : {}),
    },
  });
}

function namespacesAndAccounts(ctx: GeneratorContext): void {
  for (const ns of ['default', 'kube-node-lease', 'kube-public'])
    namespaceObject(ctx, ns);
  // the cluster says its environment where a platform team keeps it in Git (Flux Fleet's rules §11)
  const environment = clusterEnvironment(ctx.plan.name);
  namespaceObject(
    ctx,
    'kube-system',
    environment ? { [ENVIRONMENT_LABEL]: environment } : {},
  );
  namespaceObject(ctx, 'flux-system', {
    'app.kubernetes.io/instance': 'flux-system',
    'app.kubernetes.io/part-of': 'flux',
    'pod-security.kubernetes.io/warn': 'restricted',
  });
  for (const ns of ['cert-manager', 'ingress-nginx', 'monitoring'])
    namespaceObject(ctx, ns);
  for (const ns of ['default', 'flux-system', 'kube-system'])
    serviceAccountObject(ctx, 'default', ns);
  const components = new Set(
    ctx.plan.instances[0].controllers.map(c => c.component),
  );
  for (const component of components)
    serviceAccountObject(ctx, component, 'flux-system');
  for (const team of ctx.plan.teams) {
    const tenant = { [TENANT_LABEL]: team.team };
    namespaceObject(ctx, team.namespace, tenant);
    serviceAccountObject(ctx, 'default', team.namespace);
    serviceAccountObject(ctx, team.team, team.namespace, tenant);
    const instance = ctx.plan.instances.find(
      i => i.namespace === team.instance,
    )!;
    if (
      instance.defaultServiceAccount &&
      instance.defaultServiceAccount !== team.team
    ) {
      serviceAccountObject(
        ctx,
        instance.defaultServiceAccount,
        team.namespace,
        tenant,
      );
    }
    if (instance.namespace === team.namespace) {
      for (const c of instance.controllers)
        serviceAccountObject(ctx, c.component, team.namespace);
    }
  }
}

function installation(ctx: GeneratorContext): void {
  const { plan } = ctx;
  for (const instance of plan.instances) {
    for (const spec of instance.controllers) {
      ctx.b.put(
        controllerDeployment(
          spec,
          plan.release,
          { uid: ctx.b.uid(), created: ctx.b.between(20 * DAY, 200 * DAY) },
          DEFAULT_CONCURRENCY[spec.component] ?? 4,
        ),
      );
    }
  }
  if (plan.operator) {
    ctx.b.put(
      operatorDeployment({
        uid: ctx.b.uid(),
        created: ctx.b.between(20 * DAY, 200 * DAY),
      }),
    );
  }
  for (const served of ctx.b.served) {
    if (!served.type.flux) continue;
    ctx.b.put(
      customResourceDefinition(
        served,
        plan.release,
        {
          uid: ctx.b.uid(),
          created: ctx.b.between(200 * DAY, 400 * DAY),
          // every third cluster from the third on (the first is the v2.7.5 archetype) was never migrated
          legacy: plan.index % 3 === 2,
        },
        plan.operator,
      ),
    );
  }
}

/** Generates a cluster from its plan. */
export function generateCluster(
  plan: ClusterPlan,
  random: Random,
  options: { epoch: number; watchWindow: number; seed?: number },
): GeneratedCluster {
  const podSeed = `${options.seed ?? 1}/${plan.name}`;
  const ctx = new GeneratorContext(
    plan,
    random,
    options.epoch,
    options.watchWindow,
  );
  namespacesAndAccounts(ctx);
  installation(ctx);
  new ControllerPods(ctx.b.store, podSeed).syncAll(
    deployment => deployment.metadata.creationTimestamp,
  );
  platformObjects(ctx);
  const services = planServices(plan, random.fork('services'));
  for (const team of plan.teams) {
    teamObjects(
      ctx,
      team,
      services.filter(s => s.team === team),
    );
  }
  shapeDemoLoad(plan, ctx.b.records.values());
  if (ctx.b.serves('Kustomization') && plan.release.minor >= 7)
    writeObservedDurations(
      ctx.b.store,
      ctx.b.type('Kustomization'),
      ctx.b.records.values(),
    );
  emitEvents(ctx);
  ctx.b.store.markLoaded();
  return {
    name: plan.name,
    fluxVersion: plan.release.version,
    kubernetesVersion: plan.release.kubernetesVersion,
    plan,
    store: ctx.b.store,
    served: ctx.b.served,
    records: ctx.b.records,
    podSeed,
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
    podSeed: name,
  };
}
