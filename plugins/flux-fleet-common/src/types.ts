/**
 * The data model of Flux Fleet: what the backend derives about each Flux object and serves, and what the
 * frontend and the catalog module read. Words: the vocabulary in the README; rules: `docs/rules.md`.
 */
import type {
  ControllerComponent,
  Enforcement,
  FindingSeverity,
  FindingType,
  FluxKind,
  OwnerStatus,
  ReconcileStateName,
} from './vocabulary';

/** Identifies one Flux object in the fleet: `cluster/namespace/kind/name`. */
export interface FluxObjectRef {
  cluster: string;
  namespace: string;
  kind: FluxKind;
  name: string;
}

/** A reference from one object to another in the same cluster (source, dependency, provider). */
export interface ObjectReference {
  kind: string;
  namespace: string;
  name: string;
}

/** One controller Deployment of a Flux instance (rules §3). */
export interface FluxController {
  cluster: string;
  /** The instance: the namespace of the controller Deployments (rules §1). */
  instance: string;
  /** The Deployment's name, e.g. `kustomize-controller-shard1`. */
  name: string;
  component: ControllerComponent;
  /** The shard name (rules §3). */
  shard: string;
  /** `--watch-label-selector` as written; undefined when absent or empty (every object). */
  selector?: string;
  /**
   * Why the selector does not parse, when it does not. Such a controller does not start, so it watches nothing
   * and its objects are orphans.
   */
  selectorError?: string;
  watchAllNamespaces: boolean;
  concurrent: number;
  defaultServiceAccount?: string;
  noCrossNamespaceRefs: boolean;
  noRemoteBases: boolean;
  /**
   * The Flux version its `app.kubernetes.io/version` label gives, e.g. `v2.8.3` (set by `flux bootstrap`,
   * `flux install` and the Flux Operator); absent without the label. Never the image tag: that is the
   * controller's own version (see `imageVersion`, rules §10).
   */
  version?: string;
  /** The controller's own version: its image tag, e.g. `v1.3.0` for `helm-controller:v1.3.0`. */
  imageVersion?: string;
  operatorManaged: boolean;
  replicas?: number;
  readyReplicas?: number;
  /** What was odd in its Deployment (unreadable flags, read as their defaults); absent when nothing was. */
  problems?: string[];
}

/** Estimated load of one controller (rules §9). */
export interface ControllerLoad {
  cluster: string;
  instance: string;
  shard: string;
  /** The controller Deployment's name. */
  controller: string;
  /** Objects it reconciles (suspended ones excluded). */
  objectCount: number;
  concurrent: number;
  /** Σ (last reconcile duration ÷ interval) ÷ concurrent; 1 = 100 %. */
  utilisation: number;
}

/** One entry of the configured namespace → tenant mapping (`fluxFleet.tenants`); the first matching entry wins. */
export interface TenantMappingEntry {
  /** The tenant's name. */
  tenant: string;
  /** Its namespaces; `*` matches any run of characters (`team-payments-*`). */
  namespaces: string[];
  /** The clusters where the entry applies; every cluster when absent. */
  clusters?: string[];
  /** The catalog group that owns the tenant, e.g. `group:default/payments`. */
  group?: string;
}

/** The configured namespace → tenant mapping (rules §5). */
export type TenantMapping = readonly TenantMappingEntry[];

/** The reconcile state of a Flux object with its evidence (rules §2). */
export interface ReconcileState {
  state: ReconcileStateName;
  reason?: string;
  message?: string;
  /** The revision applied or served (rules §2). */
  revision?: string;
  /** The revision last attempted, when it differs from what was applied. */
  attemptedRevision?: string;
  /** When the Ready condition last changed. */
  since?: string;
  /** For `blocked`: the dependency the message names, when it names one. */
  blockedBy?: ObjectReference;
  /** Value of `reconcile.fluxcd.io/requestedAt`, when present. */
  reconcileRequestedAt?: string;
  /** `status.lastHandledReconcileAt`, when present. */
  lastHandledReconcileAt?: string;
  /** Reconcile requested, not handled for longer than the threshold (rules §2). */
  reconcileNotHandled?: boolean;
}

/** Who reconciles a Flux object (rules §4). */
export interface Owner {
  status: OwnerStatus;
  /** Instance (namespace of its controllers); null for orphans and contested objects. */
  instance: string | null;
  /** Shard name; null for orphans and contested objects. */
  shard: string | null;
  /** Controller Deployment name, `flux-operator`, or null. */
  controller: string | null;
  /** For contested objects: every controller that watches it. */
  candidates?: Array<{ instance: string; shard: string; controller: string }>;
}

/** Where the effective service account comes from (rules §5). */
export type ServiceAccountSource = 'object' | 'default' | 'controller';

/** The tenancy boundary of a Flux object (rules §5). */
export interface TenancyBoundary {
  cluster: string;
  instance: string | null;
  namespace: string;
  tenant: string | null;
  /** Effective service account; null = runs as the controller's own identity (or not applicable to the kind). */
  serviceAccount: string | null;
  serviceAccountSource: ServiceAccountSource | null;
  /**
   * `--no-cross-namespace-refs` on the owning controller; for source-controller and source-watcher objects
   * (their controllers have no such flag), on every controller of the instance that has it.
   */
  lockdown: boolean;
  enforcement: Enforcement;
  /** Why the boundary is not fully enforced; empty when enforced. */
  reasons: string[];
}

/** A problem the fleet analysis reports (rules §8). */
export interface Finding {
  type: FindingType;
  severity: FindingSeverity;
  /** The object the finding is about (for `shard-over-capacity`: cluster + instance/shard in `shard`). */
  object?: FluxObjectRef;
  shard?: { cluster: string; instance: string; shard: string };
  /** For findings about a whole Flux instance (`mixed-versions`, `upgrade-blocked`, rules §10). */
  instance?: { cluster: string; instance: string };
  message: string;
  /** Other objects involved (the source on another shard, the missing dependency, the cycle). */
  related: FluxObjectRef[];
}
