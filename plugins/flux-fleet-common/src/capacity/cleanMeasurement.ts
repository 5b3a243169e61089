/**
 * A {@link ControllerMeasurement} with every figure checked (rules §12): a value that is not a finite number, or
 * is negative where only a trend may be, counts as missing and says so in `problems`, so that one odd series never
 * turns a verdict into NaN.
 */
import type { ControllerMeasurement } from './measurement';

/** The figures read from a controller's metrics (the container's limits and requests, from its spec, are not). */
export const METRIC_FIGURES = [
  'maxConcurrentReconciles',
  'activeWorkers',
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
] as const;

/** The numeric figures of a measurement. */
export const MEASURED_FIGURES = [
  ...METRIC_FIGURES,
  'cpuLimitCores',
  'memoryLimitBytes',
  'cpuRequestCores',
  'memoryRequestBytes',
] as const;

/** One numeric figure of a measurement. */
export type MeasuredFigure = (typeof MEASURED_FIGURES)[number];

/** The usable figures of a measurement and what was wrong with it. */
export interface CleanMeasurement {
  values: Partial<Record<MeasuredFigure, number>>;
  problems: string[];
}

/** Figures that must be positive to mean anything (a limit or a worker count of 0 is no limit or no reading). */
const POSITIVE: ReadonlySet<MeasuredFigure> = new Set([
  'maxConcurrentReconciles',
  'cpuLimitCores',
  'memoryLimitBytes',
]);

/** Checks every figure of a measurement; never throws, whatever the measurement holds. */
export function cleanMeasurement(
  measurement: ControllerMeasurement,
): CleanMeasurement {
  const who = `${measurement.namespace}/${measurement.deployment}`;
  const problems = Array.isArray(measurement.problems)
    ? measurement.problems.filter((p): p is string => typeof p === 'string')
    : [];
  const values: Partial<Record<MeasuredFigure, number>> = {};
  const raw = measurement as unknown as Record<string, unknown>;
  for (const figure of MEASURED_FIGURES) {
    const value = raw[figure];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      problems.push(
        `${who}: ${figure} is ${String(value)}, not a finite number: ignored`,
      );
    } else if (value < 0 && figure !== 'queueDepthTrendPerMinute') {
      problems.push(`${who}: ${figure} is negative (${value}): ignored`);
    } else if (value === 0 && POSITIVE.has(figure)) {
      problems.push(`${who}: ${figure} is 0: ignored`);
    } else {
      values[figure] = value;
    }
  }
  return { values, problems };
}
