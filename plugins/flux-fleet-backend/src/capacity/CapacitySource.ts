import type {
  ControllerComponent,
  ControllerMeasurement,
  MeasurementSource,
} from '@flux-fleet/plugin-flux-fleet-common';

/** What is known of one controller Deployment's metrics (rules §12). */
export interface ControllerCapacityReading {
  /** `cluster/instance/deployment`, as the router's controller keys. */
  key: string;
  cluster: string;
  namespace: string;
  deployment: string;
  component: ControllerComponent;
  /**
   * The measurement to use: Prometheus's when it has figures for the controller, else the pod proxy's; absent
   * when neither has any, and then the capacity figures are estimated (say so, with `unmeasured`).
   */
  measurement?: ControllerMeasurement;
  /**
   * Why a source did not measure the controller, each sentence starting with the source ("Prometheus: …",
   * "pod proxy: pod kustomize-controller-7d9f…: the scrape answered 403 Forbidden: the credentials lack get on
   * pods/proxy…", "not measured: fluxFleet.capacity.enabled is false"). Empty when the preferred source measured.
   */
  unmeasured: string[];
  /** The latest measurement of each source that answered, with its own problems. */
  bySource: Partial<Record<MeasurementSource, ControllerMeasurement>>;
}

/** One point of a controller's history: the measurement used at one round, without who and the pods. */
export type CapacityHistoryPoint = Omit<
  ControllerMeasurement,
  'cluster' | 'namespace' | 'deployment' | 'component' | 'pods' | 'problems'
>;

/**
 * The latest measured figures of every Flux controller and their recent history, as the capacity derivations and
 * the `/capacity` routes read them. Answers from memory; collection runs on its own schedule.
 */
export interface CapacitySource {
  /** Every known controller (of one cluster, when given), in key order. */
  measurements(cluster?: string): ControllerCapacityReading[];
  /** The measurements used for one controller, oldest first (about one per scrape interval, recent hours). */
  history(controllerKey: string): CapacityHistoryPoint[];
}
