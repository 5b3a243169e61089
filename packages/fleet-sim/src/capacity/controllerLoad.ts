/**
 * The modelled load of each Flux controller Deployment of a cluster, from the simulator's records of the
 * objects each one owns (not suspended) and the Deployments' flags and limits. Each controller-runtime
 * controller in the binary (one per kind it reconciles, named after the lower-case kind) is its own work queue
 * with `--concurrent` workers; a Deployment's utilisation is that of its busiest queue. The metrics the
 * simulated pods serve and the ground truth's `controllers` both come from here.
 */
import type { ControllerSpec, SimulatedObject } from '../fleet/model';
import {
  capacityVerdict,
  queueFigures,
  type CapacityVerdict,
  type QueueFigures,
} from './queueModel';

/** The controller-runtime controllers each component runs (`controller` label: the lower-case kind). */
export const COMPONENT_CONTROLLERS: Readonly<
  Record<string, readonly string[]>
> = {
  'source-controller': [
    'bucket',
    'gitrepository',
    'helmchart',
    'helmrepository',
    'ocirepository',
  ],
  'kustomize-controller': ['kustomization'],
  'helm-controller': ['helmrelease'],
  // Alerts and Providers (v1beta3) have no reconciler; Receivers do.
  'notification-controller': ['receiver'],
  'image-reflector-controller': ['imagepolicy', 'imagerepository'],
  'image-automation-controller': ['imageupdateautomation'],
  'source-watcher': ['artifactgenerator'],
};

/** CPU a busy worker uses, in cores (a reconcile mostly waits on the API server and on fetches). */
export const CPU_PER_BUSY_WORKER = 0.05;
/** CPU of an idle controller, in cores. */
export const IDLE_CPU = 0.004;
/** Resident memory of an idle controller, and what each owned object adds (its cache entries). */
export const BASE_MEMORY_BYTES = 48 * 2 ** 20;
export const MEMORY_PER_OBJECT_BYTES = 40 * 2 ** 10;

/** One object in a queue. */
export interface QueuedObject {
  kind: string;
  namespace: string;
  name: string;
  arrivalsPerSecond: number;
  reconcileSeconds: number;
  /** Its last reconcile failed (failed or stalled): its reconciles count as errors. */
  failing: boolean;
}

/** One controller-runtime controller (work queue) of a Deployment. */
export interface QueueLoad {
  /** `kustomization`, `helmrelease`, `gitrepository`, … */
  controller: string;
  objects: QueuedObject[];
  arrivalsPerSecond: number;
  meanServiceSeconds: number;
  /** Share of reconciles that end in an error. */
  errorShare: number;
  figures: QueueFigures;
}

/** The modelled load of one controller Deployment. */
export interface DeploymentLoad {
  instance: string;
  deployment: string;
  component: string;
  shard: string;
  concurrent: number;
  replicas: number;
  queues: QueueLoad[];
  objectCount: number;
  arrivalsPerSecond: number;
  /** Arrival-weighted mean reconcile duration over all its queues. */
  meanServiceSeconds: number;
  /** The utilisation of its busiest queue. */
  utilisation: number;
  unbounded: boolean;
  busyWorkers: number;
  cpuCores: number;
  cpuLimitCores?: number;
  memoryBytes: number;
  memoryLimitBytes?: number;
  verdict: CapacityVerdict;
}

/** CPU and memory limits of a Deployment's first container. */
export interface Limits {
  cpuCores?: number;
  memoryBytes?: number;
}

const MEMORY_SUFFIXES: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/** Parses a Kubernetes CPU quantity (`100m`, `1`, `0.5`) into cores. */
export function parseCpu(text: unknown): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(String(text ?? ''));
  if (!m) return undefined;
  return Number(m[1]) / (m[2] ? 1000 : 1);
}

/** Parses a Kubernetes memory quantity (`64Mi`, `1Gi`, `1G`, `1073741824`) into bytes. */
export function parseMemory(text: unknown): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([kMGT]i?|Ki)?$/.exec(String(text ?? ''));
  if (!m) return undefined;
  return Number(m[1]) * (MEMORY_SUFFIXES[m[2] ?? ''] ?? NaN);
}

/** The limits of a Deployment object's first container. */
export function limitsOf(deployment: any): Limits {
  const limits =
    deployment?.spec?.template?.spec?.containers?.[0]?.resources?.limits ?? {};
  return {
    cpuCores: parseCpu(limits.cpu),
    memoryBytes: parseMemory(limits.memory),
  };
}

function controllerKey(c: { instance: string; name: string }): string {
  return `${c.instance}/${c.name}`;
}

function queueOf(
  controller: string,
  objects: QueuedObject[],
  concurrent: number,
): QueueLoad {
  let arrivals = 0;
  let work = 0;
  let failing = 0;
  for (const o of objects) {
    arrivals += o.arrivalsPerSecond;
    work += o.arrivalsPerSecond * o.reconcileSeconds;
    if (o.failing) failing += o.arrivalsPerSecond;
  }
  const meanServiceSeconds = arrivals > 0 ? work / arrivals : 0;
  return {
    controller,
    objects,
    arrivalsPerSecond: arrivals,
    meanServiceSeconds,
    errorShare: arrivals > 0 ? failing / arrivals : 0,
    figures: queueFigures(arrivals, meanServiceSeconds, concurrent),
  };
}

/**
 * The load of every controller Deployment, from the records of the objects they own. Objects of a contested
 * placement load every controller that reconciles them (a double reconcile); orphans load none.
 */
export function deploymentLoads(
  records: Iterable<SimulatedObject>,
  controllers: readonly ControllerSpec[],
  limits: (controller: ControllerSpec) => Limits,
): DeploymentLoad[] {
  const owned = new Map<string, Map<string, QueuedObject[]>>();
  for (const c of controllers) owned.set(controllerKey(c), new Map());
  for (const record of records) {
    if (!record.load || record.suspended) continue;
    if (record.state === 'terminating') continue;
    const queued: QueuedObject = {
      kind: record.kind,
      namespace: record.namespace,
      name: record.name,
      arrivalsPerSecond: 1 / record.load.intervalSeconds,
      reconcileSeconds: record.load.reconcileSeconds,
      failing: record.state === 'failed' || record.state === 'stalled',
    };
    const queue = record.kind.toLowerCase();
    for (const c of record.placement.controllers) {
      const byQueue = owned.get(controllerKey(c));
      if (!byQueue) continue;
      const list = byQueue.get(queue) ?? [];
      list.push(queued);
      byQueue.set(queue, list);
    }
  }
  return controllers.map(c => {
    const byQueue = owned.get(controllerKey(c))!;
    const names = new Set([
      ...(COMPONENT_CONTROLLERS[c.component] ?? []),
      ...byQueue.keys(),
    ]);
    const queues = [...names]
      .sort()
      .map(name => queueOf(name, byQueue.get(name) ?? [], c.concurrent));
    let arrivals = 0;
    let work = 0;
    let objectCount = 0;
    let utilisation = 0;
    let busyWorkers = 0;
    let unbounded = false;
    for (const q of queues) {
      arrivals += q.arrivalsPerSecond;
      work += q.arrivalsPerSecond * q.meanServiceSeconds;
      objectCount += q.objects.length;
      utilisation = Math.max(utilisation, q.figures.utilisation);
      busyWorkers += q.figures.busyWorkers;
      unbounded ||= q.figures.unbounded;
    }
    const limit = limits(c);
    const cpuCores = Math.min(
      IDLE_CPU + busyWorkers * CPU_PER_BUSY_WORKER,
      limit.cpuCores ?? Infinity,
    );
    const memoryBytes =
      BASE_MEMORY_BYTES + objectCount * MEMORY_PER_OBJECT_BYTES;
    return {
      instance: c.instance,
      deployment: c.name,
      component: c.component,
      shard: c.shard,
      concurrent: c.concurrent,
      replicas: c.replicas,
      queues,
      objectCount,
      arrivalsPerSecond: arrivals,
      meanServiceSeconds: arrivals > 0 ? work / arrivals : 0,
      utilisation,
      unbounded,
      busyWorkers,
      cpuCores,
      cpuLimitCores: limit.cpuCores,
      memoryBytes,
      memoryLimitBytes: limit.memoryBytes,
      verdict: capacityVerdict({
        utilisation,
        unbounded,
        cpuShareOfLimit: limit.cpuCores ? cpuCores / limit.cpuCores : undefined,
        memoryShareOfLimit: limit.memoryBytes
          ? memoryBytes / limit.memoryBytes
          : undefined,
      }),
    };
  });
}
