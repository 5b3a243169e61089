/**
 * How each service of a cluster is delivered (Kustomization only, or a Kustomization applying a HelmRelease),
 * from which source, in which state, with which dependencies — and the deliberate problems, applied to chosen
 * services before any object is built, so that objects and records always agree.
 */
import type { Random } from '../random';
import { typicalFailure } from './conditions';
import type { ClusterPlan, TeamPlan } from './clusterPlan';
import type { ReconcileStateName } from './model';
import { ALWAYS_DEPLOYED_SERVICE, type ServiceIdentity } from './names';

/** A reference as written in a spec: namespace omitted when it is the object's own. */
export interface SpecRef {
  name: string;
  namespace?: string;
}

/** A failure reason and message for a failed or stalled object. */
export interface Failure {
  reason: string;
  message: string;
}

/** How one service is delivered on one cluster. */
export interface ServicePlan {
  service: ServiceIdentity;
  team: TeamPlan;
  /** `helm`: the Kustomization applies a HelmRelease, which deploys the workloads. */
  mode: 'kustomize' | 'helm';
  /** The Kustomization's source. */
  source: {
    kind: 'GitRepository' | 'OCIRepository';
    name: string;
    namespace: string;
    own: boolean;
  };
  /** Shard label of the service's own source when it differs from the team's (cross-shard problem). */
  ownSourceShardLabel?: string;
  /** The HelmRelease's chart: from the team's HelmRepository (generates a HelmChart) or an OCIRepository. */
  chart: {
    via: 'HelmRepository' | 'OCIRepository';
    version: string;
    labelled: boolean;
  };
  /** The Kustomization (kustomize mode) or HelmRelease (helm mode) dependency. */
  dependsOn: SpecRef[];
  serviceAccountName: string | null;
  /** Which objects carry `backstage.io/kubernetes-id` themselves. */
  labelled: { kustomization: boolean; helmRelease: boolean; source: boolean };
  workloads: string[];
  /** The state of the object that deploys the workloads (Kustomization or HelmRelease). */
  state: ReconcileStateName;
  failure?: Failure;
  /** Whether that object is suspended (its status shows `state`). */
  suspended: boolean;
  /** Progressing because a spec change was not yet observed (rather than Ready Unknown). */
  generationAhead: boolean;
  /** The Kustomization of a helm-mode service: its own state. */
  kustomizationState: ReconcileStateName;
  /** Overrides for deliberate problems. */
  problem: {
    /** Shard label on the Kustomization that no controller selects. */
    orphanShard?: string;
    /** The Kustomization carries the tenant label itself (contested). */
    tenantLabel?: boolean;
    /** A reconcile request older than the threshold that the controller never handled. */
    unhandledRequest?: boolean;
    /** No status at all: never reconciled. */
    neverReconciled?: boolean;
    /** The HelmRelease (on a scaled-down shard) has an unhandled request / was never reconciled. */
    helmReleaseUnhandled?: boolean;
    helmReleaseNeverReconciled?: boolean;
    /** A sourceRef to a source that does not exist. */
    missingSource?: boolean;
    /** Every problem of the service (it is then kept out of churn and plain dependencies). */
    labels: string[];
    /** The problems per object: Kustomization, HelmRelease, HelmChart, own source. */
    on: { kustomization: string[]; helmRelease: string[]; helmChart: string[] };
  };
}

const NOT_READY: ReadonlySet<ReconcileStateName> = new Set([
  'failed',
  'stalled',
  'blocked',
  'progressing',
  'never-reconciled',
]);

function mark(
  p: ServicePlan,
  object: keyof ServicePlan['problem']['on'],
  label: string,
): void {
  p.problem.labels.push(label);
  p.problem.on[object].push(label);
}

function semver(random: Random): string {
  return `${random.int(0, 4)}.${random.int(0, 24)}.${random.int(0, 12)}`;
}

/** Plans every service of a cluster, then applies the cluster's deliberate problems. */
export function planServices(plan: ClusterPlan, random: Random): ServicePlan[] {
  const plans: ServicePlan[] = [];
  for (const team of plan.teams) {
    const services = [...team.services].sort((a, b) =>
      a.name < b.name ? -1 : 1,
    );
    const instance = plan.instances.find(i => i.namespace === team.instance)!;
    // Earlier services of each delivery mode: dependencies point backwards, so chains never loop by accident.
    const earlier: Record<ServicePlan['mode'], ServiceIdentity[]> = {
      kustomize: [],
      helm: [],
    };
    services.forEach(service => {
      const mode: ServicePlan['mode'] = random.chance(0.35)
        ? 'helm'
        : 'kustomize';
      const sourceDraw = random.next();
      const own = sourceDraw < 0.3;
      const oci = !own && sourceDraw < 0.4;
      let source: ServicePlan['source'] = {
        kind: 'GitRepository',
        name: `${team.team}-apps`,
        namespace: team.namespace,
        own: false,
      };
      if (own) {
        source = {
          kind: 'GitRepository',
          name: service.name,
          namespace: team.namespace,
          own: true,
        };
      } else if (oci) {
        source = {
          kind: 'OCIRepository',
          name: `${service.name}-manifests`,
          namespace: team.namespace,
          own: true,
        };
      }
      const workloads = [service.name];
      if (random.chance(0.2)) workloads.push(`${service.name}-canary`);
      // Under lockdown some objects rely on the default service account; elsewhere the tenant's is set.
      const serviceAccountName =
        instance.lockdown && random.chance(0.2) ? null : team.team;
      const state = random.weighted<ReconcileStateName>(
        mode === 'helm'
          ? [
              ['ready', 88],
              ['failed', 5],
              ['stalled', 2],
              ['progressing', 3],
            ]
          : [
              ['ready', 89],
              ['failed', 6],
              ['progressing', 3],
            ],
      );
      const sameMode = earlier[mode];
      const dependsOn: SpecRef[] =
        sameMode.length > 0 && random.chance(0.3)
          ? [{ name: random.pick(sameMode).name }]
          : [];
      const servicePlan: ServicePlan = {
        service,
        team,
        mode,
        source,
        chart: {
          via: random.chance(0.3) ? 'OCIRepository' : 'HelmRepository',
          version: semver(random),
          labelled: true,
        },
        dependsOn,
        serviceAccountName,
        // The demo's catalog has a Component checkout: its objects always carry the label, so every cluster
        // links some of them to it whatever the Flux version (HelmReleases have an inventory from 2.8 only).
        labelled: {
          kustomization:
            service.name === ALWAYS_DEPLOYED_SERVICE || random.chance(0.35),
          helmRelease:
            service.name === ALWAYS_DEPLOYED_SERVICE || random.chance(0.35),
          source: random.chance(0.5),
        },
        workloads,
        state,
        suspended: random.chance(0.02),
        generationAhead: random.chance(0.4),
        kustomizationState: random.chance(0.97) ? 'ready' : 'failed',
        problem: {
          labels: [],
          on: { kustomization: [], helmRelease: [], helmChart: [] },
        },
      };
      if (state === 'failed' || state === 'stalled') {
        const kind = mode === 'helm' ? 'HelmRelease' : 'Kustomization';
        servicePlan.failure =
          state === 'stalled'
            ? {
                reason: 'RetriesExceeded',
                message: 'Failed to upgrade after 3 attempt(s)',
              }
            : typicalFailure(kind, random.int(0, 2), {
                namespace: team.namespace,
                name: service.name,
                chart: service.name,
                version: servicePlan.chart.version,
                workload: service.name,
              });
      }
      earlier[mode].push(service);
      plans.push(servicePlan);
    });
  }
  applyProblems(plan, plans, random);
  settleDependencies(plans);
  return plans;
}

/** Blocked = waits for a dependency that is not ready (computed after problems changed states). */
function settleDependencies(plans: ServicePlan[]): void {
  const index = new Map<string, ServicePlan>();
  for (const p of plans) index.set(`${p.team.namespace}/${p.service.name}`, p);
  // Dependencies point at earlier services, so one pass in order settles chains; cycles are set explicitly.
  for (const p of plans) {
    if (p.problem.labels.includes('dependency-cycle')) continue;
    for (const dep of p.dependsOn) {
      const target = index.get(
        `${dep.namespace ?? p.team.namespace}/${dep.name}`,
      );
      if (!target) {
        if (p.problem.labels.includes('missing-dependency')) {
          const ns = dep.namespace ?? p.team.namespace;
          const kind =
            p.mode === 'helm'
              ? 'HelmRelease.helm.toolkit.fluxcd.io'
              : 'Kustomization.kustomize.toolkit.fluxcd.io';
          p.state = 'blocked';
          p.failure = {
            reason: 'DependencyNotReady',
            message: `unable to get '${ns}/${dep.name}' dependency: ${kind} "${dep.name}" not found`,
          };
        }
        continue;
      }
      const targetState =
        p.mode === target.mode ? target.state : target.kustomizationState;
      if (NOT_READY.has(targetState) && !p.problem.missingSource) {
        p.state = 'blocked';
        p.failure = {
          reason: 'DependencyNotReady',
          message: `dependency '${target.team.namespace}/${target.service.name}' is not ready`,
        };
        break;
      }
    }
  }
}

function applyProblems(
  plan: ClusterPlan,
  plans: ServicePlan[],
  random: Random,
): void {
  const used = new Set<ServicePlan>();
  const take = (
    filter: (p: ServicePlan) => boolean,
    count: number,
  ): ServicePlan[] => {
    const candidates = plans.filter(
      p =>
        !used.has(p) &&
        p.service.name !== ALWAYS_DEPLOYED_SERVICE &&
        !p.suspended &&
        filter(p),
    );
    const picked = random.shuffle(candidates).slice(0, count);
    picked.forEach(p => used.add(p));
    return picked;
  };
  const onFluxSystem = (p: ServicePlan) => p.team.instance === 'flux-system';
  const { problems } = plan;

  if (problems.orphanShard) {
    const orphans = take(onFluxSystem, 2);
    orphans.forEach((p, i) => {
      p.problem.orphanShard = problems.orphanShard;
      mark(p, 'kustomization', 'orphan');
      p.kustomizationState = 'ready';
      if (p.mode === 'kustomize') p.state = 'ready';
      if (i === 0) {
        p.problem.neverReconciled = true;
      } else {
        p.problem.unhandledRequest = true;
        mark(p, 'kustomization', 'reconcile-not-handled');
      }
    });
  }

  if (problems.contestedTeam) {
    for (const p of take(s => s.team.team === problems.contestedTeam, 2)) {
      p.problem.tenantLabel = true;
      mark(p, 'kustomization', 'contested');
    }
  }

  if (problems.crossShard) {
    const sharded = plan.teams.filter(
      t => t.instance === 'flux-system' && t.shard !== 'main',
    );
    const shards = plan.instances[0].shards.filter(
      s => s !== problems.scaledDownShard,
    );
    for (const p of take(s => sharded.includes(s.team), 1)) {
      const other = shards.find(s => s !== p.team.shard) ?? 'main';
      p.source = {
        kind: 'GitRepository',
        name: p.service.name,
        namespace: p.team.namespace,
        own: true,
      };
      p.ownSourceShardLabel = other;
      mark(p, 'kustomization', 'cross-shard-reference');
    }
  }

  if (problems.helmChartOffShard) {
    const picked = take(
      s =>
        s.team.instance === 'flux-system' &&
        s.team.shard !== 'main' &&
        s.team.shard !== problems.scaledDownShard,
      1,
    );
    for (const p of picked) {
      p.mode = 'helm';
      p.chart = { ...p.chart, via: 'HelmRepository', labelled: false };
      p.dependsOn = [];
      mark(p, 'helmChart', 'cross-shard-reference');
    }
  }

  if (problems.crossTenant) {
    const teams = plan.teams.filter(t => t.instance === 'flux-system');
    if (teams.length >= 2) {
      const [a, b] = teams;
      const lockdown = plan.instances[0].lockdown;
      for (const p of take(s => s.team === a, 1)) {
        p.mode = 'kustomize';
        p.source = {
          kind: 'GitRepository',
          name: `${b.team}-apps`,
          namespace: b.namespace,
          own: false,
        };
        p.dependsOn = [];
        mark(p, 'kustomization', 'cross-tenant-reference');
        if (lockdown) {
          // Lockdown refuses the cross-namespace source: the Kustomization stalls (flux-domain.md §5).
          p.state = 'stalled';
          p.failure = {
            reason: 'AccessDenied',
            message: `cannot access GitRepository/${b.namespace}/${b.team}-apps, cross-namespace references have been blocked by the operator`,
          };
        }
      }
      const targets = plans.filter(s => s.team === b && s.mode === 'kustomize');
      if (targets.length > 0) {
        for (const p of take(s => s.team === a && s.mode === 'kustomize', 1)) {
          p.dependsOn = [
            { name: targets[0].service.name, namespace: b.namespace },
          ];
          mark(p, 'kustomization', 'cross-tenant-reference');
        }
      }
    }
  }

  if (problems.boundaryNone) {
    for (const p of take(onFluxSystem, 3)) {
      p.serviceAccountName = null;
      mark(p, 'kustomization', 'boundary-none');
      if (p.mode === 'helm') mark(p, 'helmRelease', 'boundary-none');
    }
  }

  if (problems.scaledDownShard) {
    const onShard = (p: ServicePlan) =>
      p.team.shard === problems.scaledDownShard;
    take(onShard, 3).forEach((p, i) => {
      p.mode = 'helm';
      p.state = 'ready';
      p.failure = undefined;
      p.dependsOn = [];
      if (i < 2) {
        p.problem.helmReleaseUnhandled = true;
        mark(p, 'helmRelease', 'reconcile-not-handled');
      } else {
        p.problem.helmReleaseNeverReconciled = true;
        mark(p, 'helmRelease', 'never-reconciled');
      }
    });
  }

  if (problems.missingDependency) {
    for (const p of take(
      s => s.mode === 'kustomize' && s.team.instance === 'flux-system',
      1,
    )) {
      p.dependsOn = [{ name: 'platform-crds', namespace: 'flux-system' }];
      mark(p, 'kustomization', 'missing-dependency');
    }
  }

  if (problems.missingSource) {
    for (const p of take(s => s.mode === 'kustomize', 1)) {
      p.source = {
        kind: 'GitRepository',
        name: `${p.service.name}-deploy`,
        namespace: p.team.namespace,
        own: false,
      };
      p.problem.missingSource = true;
      p.dependsOn = [];
      p.state = 'failed';
      p.failure = {
        reason: 'ArtifactFailed',
        message: `Source 'GitRepository/${p.team.namespace}/${p.service.name}-deploy' not found`,
      };
      mark(p, 'kustomization', 'missing-source');
    }
  }

  if (problems.dependencyCycle) {
    const team = plan.teams.find(
      t =>
        t.instance === 'flux-system' &&
        plans.filter(
          p => p.team === t && p.mode === 'kustomize' && !used.has(p),
        ).length >= 2,
    );
    if (team) {
      const [a, b] = take(s => s.team === team && s.mode === 'kustomize', 2);
      if (a && b) {
        a.dependsOn = [{ name: b.service.name }];
        b.dependsOn = [{ name: a.service.name }];
        for (const [p, other] of [
          [a, b],
          [b, a],
        ] as const) {
          p.state = 'blocked';
          p.failure = {
            reason: 'DependencyNotReady',
            message: `dependency '${team.namespace}/${other.service.name}' is not ready`,
          };
          mark(p, 'kustomization', 'dependency-cycle');
        }
      }
    }
  }

  // Plain services keep plain dependencies: none on a service a problem changed (its mode or state).
  const byKey = new Map<string, ServicePlan>();
  for (const p of plans) byKey.set(`${p.team.namespace}/${p.service.name}`, p);
  for (const p of plans) {
    if (p.problem.labels.length > 0) continue;
    p.dependsOn = p.dependsOn.filter(d => {
      const target = byKey.get(`${d.namespace ?? p.team.namespace}/${d.name}`);
      return (
        !target ||
        (target.mode === p.mode && target.problem.labels.length === 0)
      );
    });
  }
}
