/**
 * What was measured of one Flux controller over a window: the contract between the backend's metric collection
 * (the Kubernetes API pod proxy or a Prometheus server; rules §12) and the pure capacity derivations. Every field
 * is optional because every series can be missing; `problems` says why one is.
 */
import type { ControllerComponent } from '../vocabulary';

/** Where a controller's figures came from. */
export type MeasurementSource = 'pod-proxy' | 'prometheus';

/** The figures of one controller (one Deployment, summed over its pods) over one window. */
export interface ControllerMeasurement {
  cluster: string;
  /** The controller Deployment's namespace (the instance's namespace). */
  namespace: string;
  /** The controller Deployment's name (`kustomize-controller`, `kustomize-controller-shard1`). */
  deployment: string;
  component: ControllerComponent;
  source: MeasurementSource;
  /** The pods the figures were read from. */
  pods: string[];
  /** End of the window, ISO 8601. */
  measuredAt: string;
  /** Length of the window the rates and quantiles cover, in seconds. */
  windowSeconds: number;
  /** `controller_runtime_max_concurrent_reconciles` (the controller's `--concurrent`). */
  maxConcurrentReconciles?: number;
  /** `controller_runtime_active_workers`, averaged over the window when the source can, else the last value. */
  activeWorkers?: number;
  /** `rate(controller_runtime_reconcile_total[window])`, every result. */
  reconcilesPerSecond?: number;
  /** `rate(controller_runtime_reconcile_errors_total[window])`. */
  reconcileErrorsPerSecond?: number;
  /** Mean of `controller_runtime_reconcile_time_seconds` over the window (sum rate ÷ count rate). */
  reconcileTimeMeanSeconds?: number;
  /** p95 of `controller_runtime_reconcile_time_seconds` over the window. */
  reconcileTimeP95Seconds?: number;
  /** `workqueue_depth` at the end of the window. */
  queueDepth?: number;
  /** Change of `workqueue_depth` per minute over the window (positive: the queue grows). */
  queueDepthTrendPerMinute?: number;
  /** p95 of `workqueue_queue_duration_seconds` over the window: how long an item waits for a worker. */
  queueWaitP95Seconds?: number;
  /** `rate(rest_client_requests_total[window])`, every code. */
  apiRequestsPerSecond?: number;
  /** `rate(rest_client_requests_total{code="429"}[window])`: the Kubernetes API throttling the controller. */
  apiThrottledPerSecond?: number;
  /** `rate(process_cpu_seconds_total[window])`, in cores. */
  cpuCores?: number;
  /** `process_resident_memory_bytes` at the end of the window. */
  memoryBytes?: number;
  /** The container's limits and requests from the Deployment spec. */
  cpuLimitCores?: number;
  memoryLimitBytes?: number;
  cpuRequestCores?: number;
  memoryRequestBytes?: number;
  /**
   * What could not be read and why, each a sentence naming the pod or series ("pod kustomize-controller-7d9f…:
   * scrape answered 403 Forbidden: the credentials lack get on pods/proxy"). Empty when everything was read.
   */
  problems: string[];
}
