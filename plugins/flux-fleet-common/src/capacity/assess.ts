/**
 * The capacity of one controller (rules §12): its utilisation from its metrics when they tell it, else from the
 * interval estimate of rules §9, the verdict with every reason it rests on, and the headroom in objects.
 */
import type {
  CapacityFigure,
  CapacityReason,
  CapacitySource,
  ControllerCapacity,
  ControllerFigures,
  FigureSource,
  ReasonEffect,
} from '../capacityApi';
import type { FluxController } from '../types';
import { cleanMeasurement, MeasuredFigure } from './cleanMeasurement';
import { formatHeadroom } from './format';
import type { ControllerMeasurement } from './measurement';
import { capacityReasons } from './reasons';
import { HEADROOM_UTILISATION } from './thresholds';
import { CapacityObject, ControllerWorkload, workloadOf } from './workload';

/** What {@link assessController} needs about one controller. */
export type ControllerCapacityInput = ControllerCapacityFacts &
  (
    | {
        /** The objects it reconciles, suspended ones left out (rules §9). */
        objects: Iterable<CapacityObject>;
      }
    | {
        /** Their workload, when it was computed before ({@link workloadOf}). */
        workload: ControllerWorkload;
      }
  );

/** What {@link assessController} needs about one controller besides its objects. */
interface ControllerCapacityFacts {
  controller: FluxController;
  /** What was measured of it, when anything was. */
  measurement?: ControllerMeasurement;
  /** Why there is no measurement ("the credentials lack get on pods/proxy"); a default is said otherwise. */
  noMeasurementReason?: string;
  /** Its container's limits from the Deployment, when known; the measurement's win when it has them. */
  limits?: { cpuLimitCores?: number; memoryLimitBytes?: number };
}

/** Said when no measurement was given and the caller did not say why. */
export const NO_METRICS_REASON = 'no metrics are collected for it';

const EFFECT_ORDER: Record<ReasonEffect, number> = {
  'over-capacity': 0,
  'near-capacity': 1,
  ok: 2,
  note: 3,
};

function figure(value: number, source: FigureSource): CapacityFigure {
  return { value, source };
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0
    ? value
    : undefined;
}

/** The measured figures copied as they are, one for one. */
const COPIED: ReadonlyArray<MeasuredFigure & keyof ControllerFigures> = [
  'reconcilesPerSecond',
  'reconcileErrorsPerSecond',
  'reconcileTimeMeanSeconds',
  'reconcileTimeP95Seconds',
  'queueDepth',
  'queueDepthTrendPerMinute',
  'queueWaitP95Seconds',
  'apiRequestsPerSecond',
  'apiThrottledPerSecond',
  'cpuCores',
  'memoryBytes',
];

/** The capacity of one controller (rules §12). Never throws, whatever the measurement holds. */
export function assessController(
  input: ControllerCapacityInput,
): ControllerCapacity {
  const { controller, measurement } = input;
  const workload = 'workload' in input ? input.workload : workloadOf(input.objects);
  const clean = measurement ? cleanMeasurement(measurement) : undefined;
  const v = clean?.values ?? {};
  const problems = clean?.problems ?? [];

  const figures: ControllerFigures = {
    concurrent:
      v.maxConcurrentReconciles !== undefined
        ? figure(v.maxConcurrentReconciles, 'measured')
        : figure(
            Number.isFinite(controller.concurrent)
              ? Math.max(0, controller.concurrent)
              : 0,
            'configured',
          ),
  };
  for (const name of COPIED) {
    const value = v[name];
    if (value !== undefined) figures[name] = figure(value, 'measured');
  }

  // Busy workers: the gauge when there is one, else Little's law on the measured rate and mean time, else §9.
  let source: CapacitySource = 'metrics';
  if (v.activeWorkers !== undefined) {
    figures.busyWorkers = figure(v.activeWorkers, 'measured');
  } else if (
    v.reconcilesPerSecond !== undefined &&
    v.reconcileTimeMeanSeconds !== undefined
  ) {
    figures.busyWorkers = figure(
      v.reconcilesPerSecond * v.reconcileTimeMeanSeconds,
      'measured',
    );
  } else {
    source = 'estimate';
    figures.busyWorkers = figure(workload.estimatedBusyWorkers, 'estimated');
  }
  const concurrent = figures.concurrent.value;
  if (concurrent > 0) {
    figures.utilisation = figure(
      figures.busyWorkers.value / concurrent,
      figures.busyWorkers.source,
    );
  }

  const cpuLimit = v.cpuLimitCores ?? positive(input.limits?.cpuLimitCores);
  const memoryLimit =
    v.memoryLimitBytes ?? positive(input.limits?.memoryLimitBytes);
  const limitSource = (measured: number | undefined): FigureSource =>
    measured !== undefined ? 'measured' : 'configured';
  if (cpuLimit !== undefined) {
    figures.cpuLimitCores = figure(cpuLimit, limitSource(v.cpuLimitCores));
    if (v.cpuCores !== undefined) {
      figures.cpuOfLimit = figure(v.cpuCores / cpuLimit, 'measured');
    }
  }
  if (memoryLimit !== undefined) {
    figures.memoryLimitBytes = figure(
      memoryLimit,
      limitSource(v.memoryLimitBytes),
    );
    if (v.memoryBytes !== undefined) {
      figures.memoryOfLimit = figure(v.memoryBytes / memoryLimit, 'measured');
    }
  }
  if (workload.shortestIntervalMs !== undefined) {
    figures.shortestIntervalSeconds = figure(
      workload.shortestIntervalMs / 1000,
      'configured',
    );
  }

  const reasons = capacityReasons(figures, workload.objectCount).sort(
    (a: CapacityReason, b: CapacityReason) =>
      EFFECT_ORDER[a.effect] - EFFECT_ORDER[b.effect],
  );
  const worst = reasons[0]?.effect;
  const verdict =
    worst === 'over-capacity' || worst === 'near-capacity' ? worst : 'ok';

  const result: ControllerCapacity = {
    cluster: controller.cluster,
    instance: controller.instance,
    shard: controller.shard,
    controller: controller.name,
    component: controller.component,
    source,
    objectCount: workload.objectCount,
    countsByKind: workload.countsByKind,
    figures,
    estimatedBusyWorkers: workload.estimatedBusyWorkers,
    verdict,
    reasons,
    problems,
  };
  if (measurement && source === 'metrics') {
    result.measuredAt = measurement.measuredAt;
    if (Number.isFinite(measurement.windowSeconds)) {
      result.windowSeconds = measurement.windowSeconds;
    }
  }
  if (source === 'estimate') {
    result.estimateReason = measurement
      ? `the metrics of ${
          measurement.deployment
        } give neither active workers nor reconcile rate and mean time${
          problems.length > 0 ? ` (${problems.join('; ')})` : ''
        }`
      : input.noMeasurementReason ?? NO_METRICS_REASON;
  }
  const headroom = headroomObjects(
    figures,
    workload.objectCount,
    workload.estimatedBusyWorkers,
  );
  if (headroom !== undefined) {
    result.headroomObjects = headroom;
    result.headroomText = formatHeadroom(headroom);
  }
  return result;
}

/**
 * More objects of the current mix that fit before utilisation reaches 70 % (0 when it is there already): the
 * busy workers one object adds is the controller's busy workers ÷ its objects (the §9 estimate's when the
 * measured controller is idle). Undefined without objects, workers or load to scale by.
 */
export function headroomObjects(
  figures: ControllerFigures,
  objectCount: number,
  estimatedBusyWorkers: number,
): number | undefined {
  const concurrent = figures.concurrent.value;
  const busy = figures.busyWorkers?.value;
  if (objectCount <= 0 || concurrent <= 0 || busy === undefined) {
    return undefined;
  }
  let perObject = busy / objectCount;
  if (perObject <= 0) perObject = estimatedBusyWorkers / objectCount;
  if (!(perObject > 0)) return undefined;
  const room = (HEADROOM_UTILISATION * concurrent - busy) / perObject;
  return room > 0 ? Math.floor(room) : 0;
}
