/**
 * The developer's deploy answer: "did my change deploy, everywhere?" — one line per cluster where a service
 * deploys, grouped by environment, from the entity view and the revisions its reconcilers' sources hold.
 */
import {
  EntityClusterHealth,
  compareRevisions,
  FleetObject,
  fluxCliCommands,
  ObjectReference,
  RECONCILER_KINDS,
  referenceKey,
  RevisionComparison,
} from '@flux-fleet/plugin-flux-fleet-common';
import { compareStateSeverity, STATE_HINT } from './stateText';

/** How one cluster stands for the service, worst reconciler first. */
export type DeployVerdict =
  | 'deployed'
  | 'behind'
  | 'progressing'
  | 'failing'
  | 'suspended'
  | 'stale';

/** One line of the deploy answer: a cluster, the reconciler that speaks for it, and what to say about it. */
export interface DeployLine {
  cluster: string;
  environment: string;
  /** The reconciler the line speaks for: the worst of the service's reconcilers in the cluster. */
  object: FleetObject;
  /** How many reconcilers of the service the cluster has. */
  reconcilers: number;
  verdict: DeployVerdict;
  /** The revision applied (Git commit, OCI tag@digest, chart version). */
  revision?: string;
  /** What the source's artifact holds now, when known. */
  sourceRevision?: string;
  /** How the applied revision stands against the source's (rules §2): current, behind, ahead, different source, unknown. */
  comparison: RevisionComparison;
  /** Since when the verdict holds (the Ready condition's last change, or when the cluster became unreachable). */
  since?: string;
  /** The root cause or the reason of the verdict, in words; absent when deployed and up to date. */
  cause?: string;
  /** The `flux` command to look further. */
  command?: string;
}

/** Worst first: which verdict speaks for a cluster and for the whole service. */
export const VERDICT_ORDER: readonly DeployVerdict[] = [
  'failing',
  'stale',
  'behind',
  'progressing',
  'suspended',
  'deployed',
];

const ENVIRONMENT_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/^(prod|production|prd|live)$/, 'prod'],
  [/^(staging|stage|stg|preprod)$/, 'staging'],
  [/^(dev|development|sandbox)$/, 'dev'],
  [/^(qa|test|testing|uat)$/, 'test'],
  [/^(preview|pr)$/, 'preview'],
];

/**
 * The environment of a cluster: the one the backend gives in `ClusterHealth.environment` (configured, or named by
 * the cluster's `flux-fleet.io/environment` namespace label: rules §11) when there is one, else the first word of
 * its name that names an environment (`prod-eu-1` → prod), else the name's first word.
 */
export function environmentOf(
  cluster: string,
  health?: Pick<EntityClusterHealth, 'name'> & { environment?: string },
): string {
  if (health?.environment) return health.environment;
  const words = cluster.toLowerCase().split(/[-_.]/);
  for (const word of words) {
    for (const [pattern, name] of ENVIRONMENT_WORDS) {
      if (pattern.test(word)) return name;
    }
  }
  return words[0] || cluster;
}

/** The usual word an environment's name stands for (`production` → prod), or undefined. */
function usualEnvironment(name: string): string | undefined {
  const word = name.toLowerCase();
  return ENVIRONMENT_WORDS.find(([pattern]) => pattern.test(word))?.[1];
}

/**
 * Environments in the order a release goes through them (configured names too: `development` before `staging`
 * before `production`); others by name, after.
 */
export function compareEnvironments(a: string, b: string): number {
  const order = ['dev', 'test', 'preview', 'staging', 'prod'];
  const ia = order.indexOf(usualEnvironment(a) ?? a);
  const ib = order.indexOf(usualEnvironment(b) ?? b);
  if (ia !== ib) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  return a.localeCompare(b);
}

/**
 * The source whose artifact a reconciler applies: its `sourceRef`, except for a HelmRelease whose source is a
 * HelmRepository, where helm-controller builds the chart in a HelmChart named `<namespace>-<name>` in the
 * repository's namespace (Flux's convention), whose artifact revision is the chart version.
 */
export function artifactSourceOf(
  object: FleetObject,
): ObjectReference | undefined {
  const ref = object.sourceRef;
  if (!ref) return undefined;
  if (object.ref.kind === 'HelmRelease' && ref.kind === 'HelmRepository') {
    return {
      kind: 'HelmChart',
      namespace: ref.namespace,
      name: `${object.ref.namespace}-${object.ref.name}`,
    };
  }
  return ref;
}

/** The key of a reconciler's artifact source in its cluster, for looking its revision up. */
export function artifactSourceKey(object: FleetObject): string | undefined {
  const ref = artifactSourceOf(object);
  return ref ? referenceKey(object.ref.cluster, ref) : undefined;
}

function verdictOf(
  o: FleetObject,
  comparison: RevisionComparison,
): DeployVerdict {
  if (o.stale) return 'stale';
  switch (o.state.state) {
    case 'suspended':
      return 'suspended';
    case 'progressing':
    case 'terminating':
      return 'progressing';
    case 'ready':
      return comparison === 'behind' ? 'behind' : 'deployed';
    default:
      return 'failing';
  }
}

function firstSentence(message: string): string {
  const line = message.split('\n')[0].trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function causeOf(
  o: FleetObject,
  verdict: DeployVerdict,
  sourceRevision: string | undefined,
): string | undefined {
  const { state } = o;
  switch (verdict) {
    case 'stale':
      return `Cluster ${o.ref.cluster} cannot be reached: this is the last state known (${state.state}).`;
    case 'suspended':
      return STATE_HINT.suspended;
    case 'behind':
      return `The source holds ${sourceRevision}; Flux has not applied it yet${
        o.interval ? ` (it reconciles every ${o.interval})` : ''
      }.`;
    case 'progressing':
      return state.attemptedRevision
        ? `Applying ${state.attemptedRevision}.`
        : state.message && firstSentence(state.message);
    case 'failing': {
      if (state.state === 'blocked') {
        const by = state.blockedBy;
        return by
          ? `Waiting for its dependency ${by.kind} ${by.namespace}/${by.name}, which is not ready.`
          : 'Waiting for a dependency that is not ready.';
      }
      const words = state.message ? firstSentence(state.message) : undefined;
      const reason = state.reason ? `${state.reason}: ` : '';
      const hint = state.state === 'stalled' ? ` ${STATE_HINT.stalled}` : '';
      return words
        ? `${reason}${words}${hint}`
        : `${state.reason ?? state.state}.${hint}`;
    }
    default:
      return undefined;
  }
}

function commandOf(o: FleetObject, verdict: DeployVerdict): string | undefined {
  const commands = fluxCliCommands(o.ref, { instance: o.owner.instance });
  // a blocked object's cause is up its dependsOn tree; a failing one's in its events
  let wanted = 'get';
  if (verdict === 'failing') wanted = o.state.state === 'blocked' ? 'tree' : 'events';
  else if (verdict === 'behind') wanted = 'reconcile-with-source';
  const found =
    commands.find(c => c.id === wanted) ?? commands.find(c => c.id === 'get');
  return found?.command;
}

function lineOf(
  o: FleetObject,
  sourceRevisions: ReadonlyMap<string, string>,
): Omit<DeployLine, 'environment' | 'reconcilers'> {
  const sourceKey = artifactSourceKey(o);
  const sourceRevision = sourceKey ? sourceRevisions.get(sourceKey) : undefined;
  const revision = o.state.revision;
  const comparison = compareRevisions(o.ref.kind, revision, sourceRevision);
  const verdict = verdictOf(o, comparison);
  return {
    cluster: o.ref.cluster,
    object: o,
    verdict,
    ...(revision && { revision }),
    ...(sourceRevision && { sourceRevision }),
    comparison,
    since: verdict === 'stale' ? o.staleSince ?? o.state.since : o.state.since,
    cause: causeOf(o, verdict, sourceRevision),
    command: commandOf(o, verdict),
  };
}

/** Compares lines worst verdict first. */
export function compareVerdicts(a: DeployVerdict, b: DeployVerdict): number {
  return VERDICT_ORDER.indexOf(a) - VERDICT_ORDER.indexOf(b);
}

/**
 * The deploy answer: for each cluster where the service has a reconciler (Kustomization, HelmRelease; else any
 * Flux object), the line of its worst reconciler, ordered by environment then cluster. `sourceRevisions` maps a
 * source's key to its artifact revision (from the view's own sources and those read apart).
 */
export function deployAnswer(
  objects: readonly FleetObject[],
  clusters: readonly EntityClusterHealth[],
  sourceRevisions: ReadonlyMap<string, string>,
): DeployLine[] {
  const byCluster = new Map<string, FleetObject[]>();
  for (const o of objects) {
    const list = byCluster.get(o.ref.cluster) ?? [];
    list.push(o);
    byCluster.set(o.ref.cluster, list);
  }
  const lines: DeployLine[] = [];
  for (const [cluster, list] of byCluster) {
    const reconcilers = list.filter(o => RECONCILER_KINDS.includes(o.ref.kind));
    const candidates = (reconcilers.length > 0 ? reconcilers : list).map(o =>
      lineOf(o, sourceRevisions),
    );
    candidates.sort(
      (a, b) =>
        compareVerdicts(a.verdict, b.verdict) ||
        compareStateSeverity(a.object.state.state, b.object.state.state) ||
        a.object.key.localeCompare(b.object.key),
    );
    lines.push({
      ...candidates[0],
      environment: environmentOf(
        cluster,
        clusters.find(c => c.name === cluster),
      ),
      reconcilers: reconcilers.length,
    });
  }
  return lines.sort(
    (a, b) =>
      compareEnvironments(a.environment, b.environment) ||
      a.cluster.localeCompare(b.cluster),
  );
}

/** The revisions of the sources among the view's own objects, by key. */
export function sourceRevisionsOf(
  objects: readonly FleetObject[],
): Map<string, string> {
  const revisions = new Map<string, string>();
  for (const o of objects) {
    if (!RECONCILER_KINDS.includes(o.ref.kind) && o.state.revision) {
      revisions.set(o.key, o.state.revision);
    }
  }
  return revisions;
}

/**
 * What the line says after the revision applied, by how it stands against the source (`{source}` stands for the
 * source's revision); nothing when the comparison is unknown.
 */
export const COMPARISON_WORDS: Readonly<
  Record<Exclude<RevisionComparison, 'unknown'>, string>
> = {
  current: 'what the source holds',
  behind: 'behind the source, which holds',
  ahead: 'ahead of the source, which holds',
  'different-source': 'from another ref than the source, which holds',
};

/** The words of each verdict. */
export const VERDICT_WORDS: Readonly<Record<DeployVerdict, string>> = {
  deployed: 'Deployed',
  behind: 'Behind its source',
  progressing: 'Progressing',
  failing: 'Failing',
  suspended: 'Suspended',
  stale: 'Cluster unreachable',
};

/** The one sentence the answer leads with, for the whole service. */
export function deployHeadline(lines: readonly DeployLine[]): string {
  if (lines.length === 0) return 'Not deployed by Flux on any cluster.';
  const count = (v: DeployVerdict) => lines.filter(l => l.verdict === v).length;
  const total = lines.length;
  const clusters = (n: number) => `${n} cluster${n === 1 ? '' : 's'}`;
  if (count('deployed') === total) {
    const known = lines.every(l => l.comparison === 'current');
    return known
      ? `Deployed and up to date with its source on all ${clusters(total)}.`
      : `Deployed on all ${clusters(total)}.`;
  }
  const parts = VERDICT_ORDER.filter(v => v !== 'deployed' && count(v) > 0).map(
    v => `${VERDICT_WORDS[v]} on ${clusters(count(v))}`,
  );
  return `${parts.join(', ')}; deployed on ${count('deployed')} of ${total}.`;
}

