/**
 * What the simulator knows about each cluster because it built it: the Flux controllers with their flags, and
 * one record per Flux object (where it was placed, what state it was put in, its tenant, service account,
 * service and references). The ground truth is computed from these records, never by reading objects back.
 */
import type { FluxComponent } from '../api/fluxReleases';
import type { ObjectLoad } from '../capacity/objectLoad';

/** Reconcile states (docs/rules.md §2). */
export type ReconcileStateName =
  | 'ready'
  | 'progressing'
  | 'failed'
  | 'blocked'
  | 'stalled'
  | 'suspended'
  | 'never-reconciled'
  | 'terminating'
  | 'unknown';

/** A Flux controller Deployment as the simulator configured it. */
export interface ControllerSpec {
  /** The instance: the namespace of the Deployment. */
  instance: string;
  /** Deployment name, e.g. `kustomize-controller-shard1`. */
  name: string;
  component: FluxComponent;
  /** The shard name this controller's selector gives (docs/rules.md §3). */
  shard: string;
  /** `--watch-label-selector`, as written; undefined when the flag is absent. */
  selector?: string;
  watchAllNamespaces: boolean;
  concurrent: number;
  defaultServiceAccount?: string;
  noCrossNamespaceRefs: boolean;
  noRemoteBases: boolean;
  /** 0 = scaled down: it reconciles nothing (requests are never handled). */
  replicas: number;
  operatorManaged: boolean;
  /**
   * Flux version label, e.g. `v2.8.3`; absent for an instance installed from a plain `install.yaml`, whose
   * Deployments carry no version label (only their images tell the release).
   */
  version?: string;
}

/** A reference from a Flux object to another object of the same cluster. */
export interface ObjectRef {
  kind: string;
  namespace: string;
  name: string;
}

/** Who reconciles an object, as placed by the generator (or re-matched after an API write). */
export interface Placement {
  status: 'ok' | 'orphan' | 'contested';
  /** The controllers that watch it: one when ok, several when contested, none for orphans. */
  controllers: ControllerSpec[];
  /** For flux-operator kinds and ExternalArtifact (never orphan or contested): the instance, or null. */
  operatorInstance?: string | null;
}

/**
 * The simulator's own record of one Flux object it generated (where it was placed, the state it is in): the
 * ground truth, under a name of its own so that it is never taken for the plugin's `FluxObjectRecord`.
 */
export interface SimulatedObject {
  kind: string;
  namespace: string;
  name: string;
  placement: Placement;
  state: ReconcileStateName;
  /** `spec.suspend` (or, for Flux Operator kinds, the `fluxcd.controlplane.io/reconcile: disabled` annotation). */
  suspended: boolean;
  /** The state to return to when a transient state ends (suspension lifted, generation caught up). */
  steadyState: ReconcileStateName;
  tenant: string | null;
  /** `spec.serviceAccountName` (Kustomization and HelmRelease only). */
  serviceAccountName: string | null;
  service: string | null;
  /** Source references (rules §7), namespace defaulted. */
  sources: ObjectRef[];
  /** `spec.dependsOn` targets, namespace defaulted. */
  dependsOn: ObjectRef[];
  /** `reconcile.fluxcd.io/requestedAt`, when set. */
  requestedAt?: string;
  /** `status.lastHandledReconcileAt`, when set. */
  lastHandledReconcileAt?: string;
  /** True when the generator built it (false: created through the API). */
  generated: boolean;
  /** Deliberate problems the generator gave it, for tests and the README (not part of the truth). */
  problems?: string[];
  /**
   * A ready Kustomization or HelmRelease whose source holds a newer revision than the one it applied (the
   * source moved since its last reconcile); absent or false: it applied what its source holds.
   */
  behindSource?: boolean;
  /** Churn may change its state (plain, healthy objects only). */
  churnable?: boolean;
  /** How often it is reconciled and how long a reconcile takes; absent for kinds no controller reconciles on an interval. */
  load?: ObjectLoad;
}

/** A malformed Flux object injected by the `malformed` fault. */
export interface MalformedRecord {
  kind: string;
  namespace: string;
  name: string;
  defect: string;
}

/** The key of a Flux object inside its cluster: `namespace/kind/name`. */
export function recordKey(
  kind: string,
  namespace: string,
  name: string,
): string {
  return `${namespace}/${kind}/${name}`;
}
