/**
 * The ground truth of a simulated fleet, computed from the simulator's records of what it built (placement,
 * state, tenant, service account, references), following docs/rules.md. It never parses served objects and
 * never imports the plugin's code: a plugin derivation that disagrees with it is a finding for one of the two.
 */
import { clusterEnvironment } from '../fleet/names';
import type {
  ControllerSpec,
  SimulatedObject,
  MalformedRecord,
  ObjectRef,
} from '../fleet/model';
import { recordKey } from '../fleet/model';
import type { DeploymentLoad } from '../capacity/controllerLoad';
import { byFields } from '../ordering';

/** Owner status (rules §4). */
export type OwnerStatus = 'ok' | 'orphan' | 'contested';
/** Boundary enforcement (rules §5). */
export type Enforcement = 'none' | 'partial' | 'enforced';

/** One Flux object in the truth. */
export interface TruthObject {
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  /** The owning instance (its namespace); null for orphans, contested objects, and operator kinds outside an instance. */
  instance: string | null;
  shard: string | null;
  owner: OwnerStatus;
  state: string;
  tenant: string | null;
  /** Effective service account (Kustomization and HelmRelease only; null otherwise). */
  serviceAccount: string | null;
  boundary: Enforcement;
  /** The service (`backstage.io/kubernetes-id`) the object belongs to, or null. */
  service: string | null;
  /** Present on a ready reconciler that has not applied its source's newest revision yet (rules §2: `behind`). */
  behindSource?: true;
}

/** One object-level finding (rules §8). */
export interface TruthFinding {
  type: string;
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
}

/** A malformed object injected by the `malformed` fault, listed apart from `objects`. */
export interface TruthMalformed {
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  defect: string;
}

/** A controller Deployment's modelled capacity (issue 12): from the load the simulator built, never measured. */
export interface TruthController {
  cluster: string;
  /** The Deployment's namespace (its instance). */
  namespace: string;
  deployment: string;
  component: string;
  shard: string;
  concurrent: number;
  replicas: number;
  /** Objects it reconciles on an interval (not suspended). */
  objectCount: number;
  /** λ = Σ 1/interval over those objects. */
  arrivalsPerSecond: number;
  /** Arrival-weighted mean reconcile duration. */
  meanServiceSeconds: number;
  /** ρ of its busiest controller-runtime controller (each has `concurrent` workers). */
  utilisation: number;
  verdict: 'ok' | 'near-capacity' | 'over-capacity';
  /** Per controller-runtime controller (`controller` label): its own λ, E[S] and ρ. */
  queues: Array<{
    controller: string;
    objectCount: number;
    arrivalsPerSecond: number;
    meanServiceSeconds: number;
    utilisation: number;
  }>;
}

/** The ground truth of a fleet (`truth()`, `--truth FILE`, `GET /truth`). */
export interface GroundTruth {
  /** Each cluster with the environment it was built for (its kube-system namespace's `flux-fleet.io/environment`). */
  clusters: Array<{
    name: string;
    server: string;
    fluxVersion: string;
    environment?: string;
  }>;
  objects: TruthObject[];
  findings: TruthFinding[];
  malformed: TruthMalformed[];
  /** Every Flux controller Deployment with its modelled capacity. */
  controllers: TruthController[];
}

/** A controller's truth row from its modelled load. */
export function controllerTruth(
  cluster: string,
  load: DeploymentLoad,
): TruthController {
  const round = (n: number) => Number(n.toPrecision(6));
  return {
    cluster,
    namespace: load.instance,
    deployment: load.deployment,
    component: load.component,
    shard: load.shard,
    concurrent: load.concurrent,
    replicas: load.replicas,
    objectCount: load.objectCount,
    arrivalsPerSecond: round(load.arrivalsPerSecond),
    meanServiceSeconds: round(load.meanServiceSeconds),
    utilisation: round(load.utilisation),
    verdict: load.verdict,
    queues: load.queues.map(q => ({
      controller: q.controller,
      objectCount: q.objects.length,
      arrivalsPerSecond: round(q.arrivalsPerSecond),
      meanServiceSeconds: round(q.meanServiceSeconds),
      utilisation: round(q.figures.utilisation),
    })),
  };
}

/** Kinds whose apply runs under an effective service account (rules §5). */
const IMPERSONATING = new Set(['Kustomization', 'HelmRelease']);
/** Kinds reconciled by the Flux Operator, and ExternalArtifact: never orphan or contested (rules §4). */
const OPERATOR_KINDS = new Set([
  'FluxInstance',
  'FluxReport',
  'ResourceSet',
  'ResourceSetInputProvider',
  'ExternalArtifact',
]);

/** How long a reconcile request may stay unhandled before it is a finding (rules §2). */
export const RECONCILE_NOT_HANDLED_AFTER_MS = 5 * 60 * 1000;

const LEVEL: Record<Enforcement, number> = { none: 0, partial: 1, enforced: 2 };

function enforcementOf(
  kind: string,
  lockdown: boolean,
  serviceAccount: string | null,
): Enforcement {
  if (!IMPERSONATING.has(kind)) return lockdown ? 'enforced' : 'none';
  if (lockdown && serviceAccount !== null) return 'enforced';
  if (lockdown || serviceAccount !== null) return 'partial';
  return 'none';
}

interface Boundary {
  serviceAccount: string | null;
  enforcement: Enforcement;
}

/** Controllers that have a `--no-cross-namespace-refs` flag. */
const LOCKABLE_COMPONENTS = new Set([
  'kustomize-controller',
  'helm-controller',
  'notification-controller',
  'image-reflector-controller',
  'image-automation-controller',
]);

/**
 * Lockdown of an object's controller (rules §5): its own flag, or, for source-controller and source-watcher (which
 * have none), whether every controller of its instance that has the flag runs with it.
 */
function lockdownUnder(
  controller: ControllerSpec | undefined,
  clusterControllers: readonly ControllerSpec[],
): boolean {
  if (!controller) return false;
  if (LOCKABLE_COMPONENTS.has(controller.component)) {
    return controller.noCrossNamespaceRefs;
  }
  const lockable = clusterControllers.filter(
    c =>
      c.instance === controller.instance &&
      LOCKABLE_COMPONENTS.has(c.component),
  );
  return lockable.length > 0 && lockable.every(c => c.noCrossNamespaceRefs);
}

function boundaryUnder(
  record: SimulatedObject,
  controller: ControllerSpec | undefined,
  clusterControllers: readonly ControllerSpec[],
): Boundary {
  const impersonating = IMPERSONATING.has(record.kind);
  const serviceAccount = impersonating
    ? record.serviceAccountName ?? controller?.defaultServiceAccount ?? null
    : null;
  const lockdown = lockdownUnder(controller, clusterControllers);
  return {
    serviceAccount,
    enforcement: enforcementOf(record.kind, lockdown, serviceAccount),
  };
}

/** The boundary of an object (rules §5): contested objects get the weakest over their candidates. */
function boundaryOf(
  record: SimulatedObject,
  clusterControllers: readonly ControllerSpec[],
): Boundary {
  const { placement } = record;
  if (OPERATOR_KINDS.has(record.kind) || placement.status === 'orphan') {
    return boundaryUnder(record, undefined, clusterControllers);
  }
  if (placement.status === 'ok') {
    return boundaryUnder(record, placement.controllers[0], clusterControllers);
  }
  const candidates = [...placement.controllers].sort(
    byFields<ControllerSpec>('instance', 'shard'),
  );
  let weakest: Boundary | undefined;
  for (const candidate of candidates) {
    const boundary = boundaryUnder(record, candidate, clusterControllers);
    if (!weakest || LEVEL[boundary.enforcement] < LEVEL[weakest.enforcement]) {
      weakest = boundary;
    }
  }
  return weakest ?? boundaryUnder(record, undefined, clusterControllers);
}

/** Instance and shard of an object (null unless its owner is ok). */
export function ownerOf(record: SimulatedObject): {
  owner: OwnerStatus;
  instance: string | null;
  shard: string | null;
} {
  if (OPERATOR_KINDS.has(record.kind)) {
    return {
      owner: 'ok',
      instance: record.placement.operatorInstance ?? null,
      shard: 'main',
    };
  }
  const { placement } = record;
  if (placement.status !== 'ok') {
    return { owner: placement.status, instance: null, shard: null };
  }
  return {
    owner: 'ok',
    instance: placement.controllers[0].instance,
    shard: placement.controllers[0].shard,
  };
}

/** Whether a reconcile request is older than the threshold and not handled (rules §2). */
export function reconcileNotHandled(
  record: SimulatedObject,
  now: number,
): boolean {
  if (record.requestedAt === undefined || record.suspended) return false;
  if (record.requestedAt === record.lastHandledReconcileAt) return false;
  const requested = Date.parse(record.requestedAt);
  if (Number.isNaN(requested)) return true;
  return now - requested > RECONCILE_NOT_HANDLED_AFTER_MS;
}

/** The objects on a `dependsOn` cycle (strongly connected components of size > 1, or self-dependencies). */
function objectsOnCycles(records: Map<string, SimulatedObject>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result = new Set<string>();
  let counter = 0;

  const edges = (key: string): string[] => {
    const record = records.get(key)!;
    return record.dependsOn
      .map(d => recordKey(d.kind, d.namespace, d.name))
      .filter(k => records.has(k));
  };

  // Iterative Tarjan, so that long chains in big fleets cannot overflow the stack.
  const work: Array<{ key: string; next: number; targets: string[] }> = [];
  const visit = (key: string) => {
    index.set(key, counter);
    low.set(key, counter);
    counter++;
    stack.push(key);
    onStack.add(key);
    work.push({ key, next: 0, targets: edges(key) });
  };
  for (const start of records.keys()) {
    if (index.has(start) || records.get(start)!.dependsOn.length === 0)
      continue;
    visit(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next++];
        if (!index.has(target)) {
          visit(target);
        } else if (onStack.has(target)) {
          low.set(frame.key, Math.min(low.get(frame.key)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].key;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.key)!));
      }
      if (low.get(frame.key) === index.get(frame.key)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.key);
        const selfLoop =
          component.length === 1 && frame.targets.includes(component[0]);
        if (component.length > 1 || selfLoop) {
          for (const k of component) result.add(k);
        }
      }
    }
  }
  return result;
}

/** The truth of one cluster's Flux objects and object-level findings. */
export function clusterTruth(
  cluster: string,
  records: Map<string, SimulatedObject>,
  now: number,
  controllers: readonly ControllerSpec[] = [],
): { objects: TruthObject[]; findings: TruthFinding[] } {
  const objects: TruthObject[] = [];
  const findings: TruthFinding[] = [];
  const owners = new Map<string, ReturnType<typeof ownerOf>>();
  for (const [key, record] of records) owners.set(key, ownerOf(record));
  const cycles = objectsOnCycles(records);

  const exists = (ref: ObjectRef) =>
    records.has(recordKey(ref.kind, ref.namespace, ref.name));
  const finding = (type: string, record: SimulatedObject) =>
    findings.push({
      type,
      cluster,
      kind: record.kind,
      namespace: record.namespace,
      name: record.name,
    });

  for (const [key, record] of records) {
    const owner = owners.get(key)!;
    const boundary = boundaryOf(record, controllers);
    objects.push({
      cluster,
      kind: record.kind,
      namespace: record.namespace,
      name: record.name,
      instance: owner.instance,
      shard: owner.shard,
      owner: owner.owner,
      state: record.state,
      tenant: record.tenant,
      serviceAccount: boundary.serviceAccount,
      boundary: boundary.enforcement,
      service: record.service,
      ...(record.behindSource === true &&
        record.state === 'ready' && { behindSource: true as const }),
    });

    if (owner.owner === 'orphan') finding('orphan', record);
    if (owner.owner === 'contested') finding('contested', record);

    let crossShard = false;
    let missingSource = false;
    for (const ref of record.sources) {
      const targetKey = recordKey(ref.kind, ref.namespace, ref.name);
      const target = records.get(targetKey);
      if (!target) {
        missingSource = true;
        continue;
      }
      const targetOwner = owners.get(targetKey)!;
      if (
        owner.owner === 'ok' &&
        targetOwner.owner === 'ok' &&
        (owner.instance !== targetOwner.instance ||
          owner.shard !== targetOwner.shard)
      ) {
        crossShard = true;
      }
    }
    if (crossShard) finding('cross-shard-reference', record);

    const crossTenant =
      record.tenant !== null &&
      [...record.sources, ...record.dependsOn].some(ref => {
        const target = records.get(
          recordKey(ref.kind, ref.namespace, ref.name),
        );
        return (
          target !== undefined &&
          target.tenant !== null &&
          target.tenant !== record.tenant
        );
      });
    if (crossTenant) finding('cross-tenant-reference', record);

    if (
      IMPERSONATING.has(record.kind) &&
      record.tenant !== null &&
      boundary.enforcement === 'none'
    ) {
      finding('boundary-none', record);
    }
    if (reconcileNotHandled(record, now))
      finding('reconcile-not-handled', record);
    if (cycles.has(key)) finding('dependency-cycle', record);
    if (record.dependsOn.some(d => !exists(d)))
      finding('missing-dependency', record);
    if (missingSource) finding('missing-source', record);
  }
  return { objects, findings };
}

/** Assembles the truth of a fleet, sorted so that the same fleet always prints the same JSON. */
export function fleetTruth(
  clusters: Array<{
    name: string;
    server: string;
    fluxVersion: string;
    records: Map<string, SimulatedObject>;
    malformed: MalformedRecord[];
    /** The cluster's Flux controllers as they are now. */
    controllers: readonly ControllerSpec[];
    /** The controllers' modelled load now (absent: no controller rows). */
    loads?: readonly DeploymentLoad[];
  }>,
  now: number,
): GroundTruth {
  const truth: GroundTruth = {
    clusters: clusters.map(c => {
      const environment = clusterEnvironment(c.name);
      return {
        name: c.name,
        server: c.server,
        fluxVersion: c.fluxVersion,
        ...(environment ? { environment } : {}),
      };
    }),
    objects: [],
    findings: [],
    malformed: [],
    controllers: [],
  };
  for (const cluster of clusters) {
    for (const load of cluster.loads ?? [])
      truth.controllers.push(controllerTruth(cluster.name, load));
    const { objects, findings } = clusterTruth(
      cluster.name,
      cluster.records,
      now,
      cluster.controllers,
    );
    truth.objects.push(
      ...objects.sort(byFields<TruthObject>('namespace', 'kind', 'name')),
    );
    truth.findings.push(
      ...findings.sort(
        byFields<TruthFinding>('namespace', 'kind', 'name', 'type'),
      ),
    );
    truth.malformed.push(
      ...cluster.malformed
        .map(m => ({ cluster: cluster.name, ...m }))
        .sort(byFields<TruthMalformed>('namespace', 'kind', 'name')),
    );
  }
  return truth;
}
