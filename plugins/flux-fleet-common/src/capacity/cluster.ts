/**
 * The capacity of every instance of one cluster, and the input of one instance's sharding plan, from what the
 * fleet index holds: controllers, object records and the measurements metric collection gave (rules §12, §13).
 * Objects load controllers as in rules §9: suspended ones and those no Flux controller reconciles load none; a
 * contested object loads every controller that reconciles it.
 */
import type { CapacityHistoryPoint, InstanceCapacity } from '../capacityApi';
import { compareText } from '../order';
import { createOwnerResolver } from '../owner';
import { isSuspended } from '../record';
import type { FluxObjectRecord } from '../record';
import type { FluxController } from '../types';
import { KIND_RECONCILED_BY } from '../vocabulary';
import { assessController } from './assess';
import { assessInstance } from './instance';
import type { ControllerMeasurement } from './measurement';
import type { ShardingPlanInput } from './shardingPlan';
import { CapacityObject, ControllerWorkload, workloadOf } from './workload';

/**
 * What {@link capacityOfCluster} reads of an object: its owner's inputs (rules §4), whether it is suspended, and
 * its workload (rules §9). An index can hand these over without building whole records.
 */
export type CapacityRecord = Pick<
  FluxObjectRecord,
  'kind' | 'namespace' | 'labels' | 'suspend' | 'annotations' | 'interval' | 'lastReconcileDurationMs'
>;

/** What {@link capacityOfCluster} needs besides the objects or their workloads. */
interface ClusterCapacityJoin {
  cluster: string;
  controllers: readonly FluxController[];
  /** Measurements of the cluster's controllers, matched by namespace and Deployment name. */
  measurements?: readonly ControllerMeasurement[];
  /** Why a controller has no measurement ("the credentials lack get on pods/proxy"), when known. */
  noMeasurementReason?: (controller: FluxController) => string | undefined;
  /** A controller's measured history, oldest point first (the answer's "for 40 minutes"). */
  history?: (controller: FluxController) => readonly CapacityHistoryPoint[];
}

/** What {@link capacityOfCluster} needs. */
export interface ClusterCapacityInput extends ClusterCapacityJoin {
  objects: Iterable<CapacityRecord>;
}

/**
 * What a cluster's objects ask of each of its controllers (rules §9), by {@link controllerWorkloadKey}: the only
 * part of a cluster's capacity that reads objects. A new measurement joins the same workloads again
 * ({@link capacityOfWorkloads}); at fleet L reading every object again for each collection round cost about 11 s
 * of CPU.
 */
export type ClusterWorkloads = ReadonlyMap<string, ControllerWorkload>;

/** The key of a controller in {@link ClusterWorkloads}: its instance and Deployment name. */
export function controllerWorkloadKey(controller: Pick<FluxController, 'instance' | 'name'>): string {
  return controllerKey(controller.instance, controller.name);
}

function controllerKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

function reconciledByController(record: Pick<FluxObjectRecord, 'kind'>): boolean {
  const by = KIND_RECONCILED_BY[record.kind];
  return by !== 'flux-operator' && by !== 'none';
}

/**
 * The workload of each controller of a cluster. Objects load controllers as in rules §9: suspended ones and those
 * no Flux controller reconciles load none; a contested object loads every controller that reconciles it.
 */
export function workloadsOfCluster(
  controllers: readonly FluxController[],
  objects: Iterable<CapacityRecord>,
): ClusterWorkloads {
  const owners = createOwnerResolver(controllers);
  const objectsOf = new Map<string, CapacityObject[]>();
  for (const c of controllers) objectsOf.set(controllerWorkloadKey(c), []);
  for (const record of objects) {
    if (isSuspended(record) || !reconciledByController(record)) continue;
    const owner = owners.ownerOf(record);
    const targets =
      owner.status === 'ok' && owner.instance !== null && owner.controller
        ? [{ instance: owner.instance, controller: owner.controller }]
        : owner.candidates ?? [];
    for (const t of targets) {
      objectsOf.get(controllerKey(t.instance, t.controller))?.push(record);
    }
  }
  return new Map([...objectsOf].map(([key, list]) => [key, workloadOf(list)]));
}

/** The capacity of each instance of a cluster, by instance name. */
export function capacityOfCluster(input: ClusterCapacityInput): InstanceCapacity[] {
  return capacityOfWorkloads({ ...input, workloads: workloadsOfCluster(input.controllers, input.objects) });
}

/**
 * The capacity of each instance of a cluster from its controllers' workloads (as {@link workloadsOfCluster} gives
 * them) joined with their measurements. A controller the workloads do not name reconciles nothing.
 */
export function capacityOfWorkloads(
  input: ClusterCapacityJoin & { workloads: ClusterWorkloads },
): InstanceCapacity[] {
  const measured = new Map<string, ControllerMeasurement>();
  for (const m of input.measurements ?? []) {
    if (m.cluster === input.cluster) {
      measured.set(controllerKey(m.namespace, m.deployment), m);
    }
  }
  const byInstance = new Map<string, FluxController[]>();
  for (const c of input.controllers) {
    const list = byInstance.get(c.instance) ?? [];
    list.push(c);
    byInstance.set(c.instance, list);
  }
  return [...byInstance.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([instance, controllers]) =>
      assessInstance({
        cluster: input.cluster,
        instance,
        operatorManaged: controllers.some(c => c.operatorManaged),
        ...(input.history
          ? {
              history: new Map(
                controllers.map(c => [c.name, input.history!(c)] as const),
              ),
            }
          : {}),
        controllers: controllers.map(controller => {
          const key = controllerWorkloadKey(controller);
          return assessController({
            controller,
            workload: input.workloads.get(key) ?? workloadOf([]),
            measurement: measured.get(key),
            noMeasurementReason: input.noMeasurementReason?.(controller),
          });
        }),
      }),
    );
}

/**
 * The input of {@link planSharding} for one instance of a cluster: its controllers and the objects it reconciles
 * (or contests), suspended ones included; when the cluster has one instance, its orphans too (an object labelled
 * for a shard no controller serves belongs to no one, and the plan gives it a shard that exists).
 */
export function shardingPlanInputOf(
  input: Omit<
    ClusterCapacityInput,
    'measurements' | 'noMeasurementReason' | 'history' | 'objects'
  > & {
    objects: Iterable<FluxObjectRecord>;
    instance: string;
    capacity?: InstanceCapacity;
    shards?: number;
    fluxInstance?: string;
  },
): ShardingPlanInput {
  const controllers = input.controllers.filter(
    c => c.instance === input.instance,
  );
  const single = new Set(input.controllers.map(c => c.instance)).size === 1;
  const owners = createOwnerResolver(input.controllers);
  const objects: FluxObjectRecord[] = [];
  for (const record of input.objects) {
    const owner = owners.ownerOf(record);
    if (
      owner.instance === input.instance ||
      owner.candidates?.some(c => c.instance === input.instance) ||
      (owner.status === 'orphan' && single)
    ) {
      objects.push(record);
    }
  }
  return {
    cluster: input.cluster,
    instance: input.instance,
    operatorManaged: controllers.some(c => c.operatorManaged),
    controllers,
    objects,
    ...(input.capacity ? { capacities: input.capacity.controllers } : {}),
    ...(input.shards !== undefined ? { shards: input.shards } : {}),
    ...(input.fluxInstance !== undefined
      ? { fluxInstance: input.fluxInstance }
      : {}),
  };
}
