/**
 * The plan of one simulated cluster: its Flux release, its instances and their controllers (shards, flags),
 * its teams (tenants) with the shard each is placed on, its services, and the deliberate problems it gets.
 * The first clusters of every fleet follow fixed archetypes so that even the smallest fleet (S, 3 clusters)
 * has every feature and every problem; later clusters vary at random.
 */
import {
  FLUX_RELEASES,
  fluxRelease,
  type FluxComponent,
  type FluxRelease,
} from '../api/fluxReleases';
import type { Random } from '../random';
import type { ControllerSpec } from './model';
import type { ServiceIdentity } from './names';

/** The shard label key Flux uses. */
export const SHARD_KEY = 'sharding.fluxcd.io/key';
/** The namespace label Flux Fleet reads a cluster's environment from (on `kube-system`). */
export const ENVIRONMENT_LABEL = 'flux-fleet.io/environment';
/** The tenant label `flux create tenant` sets. */
export const TENANT_LABEL = 'toolkit.fluxcd.io/tenant';
/** The label that links objects to catalog entities. */
export const KUBERNETES_ID = 'backstage.io/kubernetes-id';

/** One Flux installation of the plan. */
export interface InstancePlan {
  namespace: string;
  operatorManaged: boolean;
  /** Shard names besides main, e.g. `shard1`. */
  shards: string[];
  /** `--no-cross-namespace-refs=true` (+ `--default-service-account`) on its controllers. */
  lockdown: boolean;
  defaultServiceAccount?: string;
  /** `--watch-all-namespaces=false`: it reconciles only its own namespace. */
  namespaceScoped: boolean;
  /** For a namespace-scoped instance: the shard key value its objects carry and only its controllers select. */
  scopeKey?: string;
  controllers: ControllerSpec[];
}

/** A team (tenant) of a cluster and where its Flux objects are reconciled. */
export interface TeamPlan {
  team: string;
  namespace: string;
  /** The instance (namespace) that reconciles its objects. */
  instance: string;
  /** The shard its objects are placed on (`main` or a shard name; the scope key for a second instance). */
  shard: string;
  /** The shard label value its objects carry (undefined on main). */
  shardLabel?: string;
  services: ServiceIdentity[];
}

/** The deliberate problems a cluster gets (each recorded in the truth). */
export interface ProblemPlan {
  /** Objects labelled with a shard no controller selects. */
  orphanShard?: string;
  /** A kustomize-controller selecting this tenant label overlaps the main one: double reconcile. */
  contestedTeam?: string;
  crossShard: boolean;
  /** A HelmRelease without `spec.chart.metadata.labels`: its HelmChart lands on main, its repository on a shard. */
  helmChartOffShard: boolean;
  crossTenant: boolean;
  /** Services whose Kustomizations run with no service account on an instance without lockdown. */
  boundaryNone: boolean;
  /** A shard whose helm-controller is scaled to zero: requests there are never handled. */
  scaledDownShard?: string;
  missingDependency: boolean;
  missingSource: boolean;
  dependencyCycle: boolean;
}

/** The plan of one cluster. */
export interface ClusterPlan {
  index: number;
  name: string;
  release: FluxRelease;
  operator: boolean;
  /** Image automation controllers installed. */
  imageAutomation: boolean;
  /** source-watcher installed (Flux 2.7+). */
  sourceWatcher: boolean;
  instances: InstancePlan[];
  teams: TeamPlan[];
  problems: ProblemPlan;
}

interface Archetype {
  release: string;
  operator: boolean;
  shards: number;
  lockdown: boolean;
  secondInstance: boolean;
  imageAutomation: boolean;
  problems: Omit<
    ProblemPlan,
    'orphanShard' | 'contestedTeam' | 'scaledDownShard'
  > & {
    orphans: boolean;
    contested: boolean;
    scaledDown: boolean;
  };
}

/** The first clusters of every fleet: together they cover every feature and every problem. */
const ARCHETYPES: Archetype[] = [
  {
    release: 'v2.8.3',
    operator: true,
    shards: 2,
    lockdown: true,
    secondInstance: false,
    imageAutomation: true,
    problems: {
      orphans: true,
      contested: false,
      crossShard: true,
      helmChartOffShard: true,
      crossTenant: true,
      boundaryNone: false,
      scaledDown: false,
      missingDependency: true,
      missingSource: false,
      dependencyCycle: true,
    },
  },
  {
    release: 'v2.4.0',
    operator: false,
    shards: 0,
    lockdown: false,
    secondInstance: true,
    imageAutomation: false,
    problems: {
      orphans: true,
      contested: true,
      crossShard: false,
      helmChartOffShard: false,
      crossTenant: true,
      boundaryNone: true,
      scaledDown: false,
      missingDependency: false,
      missingSource: true,
      dependencyCycle: false,
    },
  },
  {
    release: 'v2.7.5',
    operator: true,
    shards: 4,
    lockdown: false,
    secondInstance: false,
    imageAutomation: true,
    problems: {
      orphans: false,
      contested: true,
      crossShard: true,
      helmChartOffShard: false,
      crossTenant: false,
      boundaryNone: true,
      scaledDown: true,
      missingDependency: true,
      missingSource: true,
      dependencyCycle: false,
    },
  },
];

function randomArchetype(index: number, random: Random): Archetype {
  // Spread releases evenly so that every line of 2.4–2.9 is present in fleets of six clusters or more.
  const release = FLUX_RELEASES[(index * 5 + 1) % FLUX_RELEASES.length].version;
  const shards = random.weighted([
    [0, 4],
    [1, 1],
    [2, 3],
    [3, 2],
    [4, 1],
  ] as const);
  const lockdown = random.chance(0.4);
  return {
    release,
    operator: random.chance(0.5),
    shards,
    lockdown,
    secondInstance: random.chance(0.2),
    imageAutomation: random.chance(0.7),
    problems: {
      orphans: random.chance(0.6),
      contested: random.chance(0.3),
      crossShard: shards > 0 && random.chance(0.6),
      helmChartOffShard: shards > 0 && random.chance(0.3),
      crossTenant: random.chance(0.5),
      boundaryNone: !lockdown && random.chance(0.7),
      scaledDown: shards >= 2 && random.chance(0.25),
      missingDependency: random.chance(0.4),
      missingSource: random.chance(0.4),
      dependencyCycle: random.chance(0.25),
    },
  };
}

const DEFAULT_CONCURRENCY: Record<FluxComponent, number> = {
  'source-controller': 2,
  'kustomize-controller': 4,
  'helm-controller': 4,
  'notification-controller': 4,
  'image-reflector-controller': 4,
  'image-automation-controller': 4,
  'source-watcher': 4,
};

const LOCKDOWN_COMPONENTS: ReadonlySet<FluxComponent> = new Set([
  'kustomize-controller',
  'helm-controller',
  'notification-controller',
  'image-reflector-controller',
  'image-automation-controller',
]);

/** Components that run once per shard. */
export const SHARDED_COMPONENTS: readonly FluxComponent[] = [
  'source-controller',
  'kustomize-controller',
  'helm-controller',
];

function controller(
  instance: InstancePlan,
  release: FluxRelease,
  component: FluxComponent,
  options: {
    name?: string;
    shard: string;
    selector?: string;
    concurrent?: number;
  },
): ControllerSpec {
  const lockdown = instance.lockdown && LOCKDOWN_COMPONENTS.has(component);
  const impersonates =
    component === 'kustomize-controller' || component === 'helm-controller';
  return {
    instance: instance.namespace,
    name: options.name ?? component,
    component,
    shard: options.shard,
    selector: options.selector,
    watchAllNamespaces: !instance.namespaceScoped,
    concurrent: options.concurrent ?? DEFAULT_CONCURRENCY[component],
    defaultServiceAccount:
      instance.lockdown && impersonates
        ? instance.defaultServiceAccount
        : undefined,
    noCrossNamespaceRefs: lockdown,
    noRemoteBases: instance.lockdown && component === 'kustomize-controller',
    replicas: 1,
    operatorManaged: instance.operatorManaged,
    // a second instance is installed from the plain install.yaml: no version label on its Deployments
    ...(instance.operatorManaged || instance.namespace === 'flux-system'
      ? { version: release.version }
      : {}),
  };
}

/** Plans one cluster. `services` are the fleet services this cluster deploys. */
export function planCluster(
  index: number,
  name: string,
  services: ServiceIdentity[],
  random: Random,
): ClusterPlan {
  const archetype =
    index < ARCHETYPES.length
      ? ARCHETYPES[index]
      : randomArchetype(index, random);
  const release = fluxRelease(archetype.release);
  const sourceWatcher =
    release.minor >= 7 && (index === 2 || random.chance(0.5));

  // Teams of this cluster, largest first, so the choices below are stable.
  const byTeam = new Map<string, ServiceIdentity[]>();
  for (const service of services) {
    const list = byTeam.get(service.team) ?? [];
    list.push(service);
    byTeam.set(service.team, list);
  }
  const teamNames = [...byTeam.keys()].sort(
    (a, b) => byTeam.get(b)!.length - byTeam.get(a)!.length || (a < b ? -1 : 1),
  );

  const shards = Array.from(
    { length: archetype.shards },
    (_, i) => `shard${i + 1}`,
  );
  let secondTeam: string | undefined;
  if (archetype.secondInstance && teamNames.length > 2) {
    secondTeam = teamNames.includes('ml')
      ? 'ml'
      : teamNames[teamNames.length - 1];
  }
  const problemsWanted = archetype.problems;
  const contestedTeam = problemsWanted.contested
    ? teamNames.find(t => t !== secondTeam && t !== 'shop')
    : undefined;
  // The main controllers only need `!sharding.fluxcd.io/key` when something else carries the key.
  const mainNeedsSelector =
    shards.length > 0 || secondTeam !== undefined || problemsWanted.orphans;

  const flux: InstancePlan = {
    namespace: 'flux-system',
    operatorManaged: archetype.operator,
    shards,
    lockdown: archetype.lockdown,
    defaultServiceAccount: archetype.lockdown ? 'flux' : undefined,
    namespaceScoped: false,
    controllers: [],
  };
  const concurrency = archetype.operator
    ? {
        'kustomize-controller': 10,
        'helm-controller': 10,
        'source-controller': 10,
      }
    : {};
  const components: FluxComponent[] = [
    'source-controller',
    'kustomize-controller',
    'helm-controller',
    'notification-controller',
  ];
  if (archetype.imageAutomation) {
    components.push(
      'image-reflector-controller',
      'image-automation-controller',
    );
  }
  if (sourceWatcher) components.push('source-watcher');
  for (const component of components) {
    const sharded = SHARDED_COMPONENTS.includes(component);
    flux.controllers.push(
      controller(flux, release, component, {
        shard: 'main',
        selector:
          mainNeedsSelector && (sharded || secondTeam !== undefined)
            ? `!${SHARD_KEY}`
            : undefined,
        concurrent: (concurrency as Record<string, number>)[component],
      }),
    );
  }
  for (const shard of shards) {
    for (const component of SHARDED_COMPONENTS) {
      flux.controllers.push(
        controller(flux, release, component, {
          name: `${component}-${shard}`,
          shard,
          selector: `${SHARD_KEY}=${shard}`,
          concurrent: (concurrency as Record<string, number>)[component],
        }),
      );
    }
  }
  if (contestedTeam) {
    // A tenant-dedicated kustomize-controller whose selector overlaps the main (or shard) one for any
    // Kustomization that carries the tenant label itself: a double reconcile (flux2#4500).
    flux.controllers.push(
      controller(flux, release, 'kustomize-controller', {
        name: `kustomize-controller-${contestedTeam}`,
        shard: contestedTeam,
        selector: `${TENANT_LABEL}=${contestedTeam}`,
      }),
    );
  }
  let scaledDownShard: string | undefined;
  if (problemsWanted.scaledDown && shards.length >= 2) {
    scaledDownShard = shards[shards.length - 1];
    const helm = flux.controllers.find(
      c => c.component === 'helm-controller' && c.shard === scaledDownShard,
    )!;
    helm.replicas = 0;
  }

  const instances = [flux];
  if (secondTeam) {
    const namespace = `team-${secondTeam}`;
    const second: InstancePlan = {
      namespace,
      operatorManaged: false,
      shards: [],
      lockdown: true,
      defaultServiceAccount: secondTeam,
      namespaceScoped: true,
      scopeKey: namespace,
      controllers: [],
    };
    for (const component of [
      'source-controller',
      'kustomize-controller',
      'helm-controller',
      'notification-controller',
    ] as FluxComponent[]) {
      second.controllers.push(
        controller(second, release, component, {
          shard: namespace,
          selector: `${SHARD_KEY}=${namespace}`,
        }),
      );
    }
    instances.push(second);
  }

  // Teams: on the second instance when it is theirs, else on a shard of flux-system (most) or on main.
  const teams: TeamPlan[] = teamNames.map((team, i) => {
    const namespace = `team-${team}`;
    if (team === secondTeam) {
      return {
        team,
        namespace,
        instance: namespace,
        shard: namespace,
        shardLabel: namespace,
        services: byTeam.get(team)!,
      };
    }
    const usable = shards.filter(s => s !== scaledDownShard || i % 3 === 0);
    const onShard = shards.length > 0 && i % 5 !== 4 && usable.length > 0;
    const shard = onShard ? usable[i % usable.length] : 'main';
    return {
      team,
      namespace,
      instance: 'flux-system',
      shard,
      shardLabel: onShard ? shard : undefined,
      services: byTeam.get(team)!,
    };
  });
  if (scaledDownShard && !teams.some(t => t.shard === scaledDownShard)) {
    const candidate = teams.find(
      t => t.instance === 'flux-system' && t.shard !== 'main',
    );
    if (candidate) {
      candidate.shard = scaledDownShard;
      candidate.shardLabel = scaledDownShard;
    }
  }

  return {
    index,
    name,
    release,
    operator: archetype.operator,
    imageAutomation: archetype.imageAutomation,
    sourceWatcher,
    instances,
    teams,
    problems: {
      orphanShard: problemsWanted.orphans
        ? `shard${shards.length + 1}`
        : undefined,
      contestedTeam,
      crossShard: problemsWanted.crossShard && shards.length >= 2,
      helmChartOffShard: problemsWanted.helmChartOffShard && shards.length > 0,
      crossTenant: problemsWanted.crossTenant,
      boundaryNone: problemsWanted.boundaryNone && !archetype.lockdown,
      scaledDownShard,
      missingDependency: problemsWanted.missingDependency,
      missingSource: problemsWanted.missingSource,
      dependencyCycle: problemsWanted.dependencyCycle,
    },
  };
}
