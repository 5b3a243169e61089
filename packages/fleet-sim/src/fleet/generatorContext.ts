/**
 * What the parts of the generator share while they build one cluster: the builder (store and records), the
 * seeded randomness, the plan, pending Events, and small helpers for metadata, times, revisions, artifacts and
 * records.
 */
import { servedResources } from '../api/resourceTypes';
import type { Random } from '../random';
import { ClusterBuilder, DAY, HOUR, MINUTE } from './clusterBuilder';
import type { ClusterPlan } from './clusterPlan';
import type { ArtifactFacts, Meta } from './fluxObjects';
import type {
  SimulatedObject,
  ObjectRef,
  Placement,
  ReconcileStateName,
} from './model';

/** An Event a controller emitted about a Flux object, written once the cluster is built. */
export interface EventSpec {
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

/** The shared state and helpers of one cluster's generation. */
export class GeneratorContext {
  readonly b: ClusterBuilder;
  readonly events: EventSpec[] = [];

  constructor(
    readonly plan: ClusterPlan,
    readonly random: Random,
    epoch: number,
    watchWindow: number,
  ) {
    this.b = new ClusterBuilder(
      plan,
      random,
      epoch,
      servedResources(plan.release.minor, plan.operator),
      watchWindow,
    );
  }

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
  }): Omit<SimulatedObject, 'kind' | 'namespace' | 'name'> {
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
}
