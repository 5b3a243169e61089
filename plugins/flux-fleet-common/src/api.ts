/**
 * The shapes of the Flux Fleet REST API (`/api/flux-fleet`), shared by the backend that serves them and the
 * frontend client that reads them. The OpenAPI schema of the backend describes the same shapes.
 */
import type { EnvironmentSource } from './clusterEnvironment';
import type { FluxVersionSource } from './fluxVersion';
import type {
  Finding,
  FluxController,
  FluxObjectRef,
  ObjectReference,
  Owner,
  ReconcileState,
  TenancyBoundary,
} from './types';
import type { WatchBehind } from './clusterSync';
import type {
  Enforcement,
  FindingType,
  FluxKind,
  ReconcileStateName,
} from './vocabulary';

/** How the backend's view of a cluster stands. */
export type ClusterStatus =
  /** Every watch of the cluster is live and caught up (rules §15). */
  | 'synced'
  /** Listing for the first time. */
  | 'syncing'
  /**
   * Listed once, but some watch is behind (relisting after `410 Gone`, backing off, throttled, reconnecting) or
   * changes wait for their derivation: `lagMs` says how far, `behind` what and why (rules §15).
   */
  | 'lagging'
  /** Served from the database snapshot of an earlier run until the watches have resynced. */
  | 'restored'
  /** The cluster cannot be reached; its objects keep their last state, marked stale. */
  | 'unreachable'
  /** The credentials are refused (401/403); its objects keep their last state, marked stale. */
  | 'unauthorized';

/** One configured cluster and how well the backend is following it. */
export interface ClusterHealth {
  name: string;
  status: ClusterStatus;
  /** `status === 'synced'`: every watch live and caught up (rules §15), not merely listed once. */
  synced: boolean;
  objectCount: number;
  countsByKind: Partial<Record<FluxKind, number>>;
  /** When the last watch event arrived. */
  lastEventAt?: string;
  /** How far behind the cluster the index may be, in milliseconds. */
  lagMs?: number;
  /** Objects of the cluster that were malformed as read (`GET /malformed?cluster=` lists them). */
  malformedCount?: number;
  /** The watches behind and why, longest first, while the cluster is `lagging` or `syncing` (rules §15). */
  behind?: WatchBehind[];
  unreachableSince?: string;
  /** The last error, as a message that names the cluster; never contains credentials. */
  lastError?: string;
  /** Flux versions of the instances found. */
  fluxVersions: string[];
  /** API group → the version read (the cluster's preferred version). */
  servedVersions: Record<string, string>;
  /** Whether the credentials may write (false: actions answer that they are read-only). */
  readOnly?: boolean;
  /**
   * The environment it belongs to (rules §11): as configured (`fluxFleet.clusters[].environment`), else from the
   * label `flux-fleet.io/environment` on `kube-system` or on a Flux instance's namespace; absent when neither says.
   */
  environment?: string;
  /** Where {@link ClusterHealth.environment} comes from. */
  environmentSource?: EnvironmentSource;
}

/**
 * What an entity's view says of a cluster (`EntityView.clusters`): its health without the fleet-wide counts and
 * versions an entity's page does not show (`GET /clusters` answers them). With them, the clusters were a quarter of
 * an entity view's answer at fleet L (61 clusters, 45 of 195 KB).
 */
export type EntityClusterHealth = Omit<
  ClusterHealth,
  'objectCount' | 'countsByKind' | 'fluxVersions' | 'servedVersions' | 'malformedCount'
>;

/**
 * An object of a cluster that was malformed as read (`GET /malformed`): `skipped` when it could not be read at all
 * (no name, not an object…), `read` when it is served with some fields ignored or cut (its `problems`).
 */
export interface MalformedObject {
  cluster: string;
  /** The Flux kind, or `object` for a supporting object (controller Deployment, namespace, workload). */
  kind: string;
  namespace: string;
  name: string;
  disposition: 'skipped' | 'read';
  /** What is wrong, each naming the field. */
  problems: string[];
  /** The object's key in the index, when it is served (`read`). */
  key?: string;
}

/** A Flux object as the API serves it: identity, derived answers, and the few spec fields people read. */
export interface FleetObject {
  /** `cluster/namespace/kind/name`. */
  key: string;
  ref: FluxObjectRef;
  apiVersion: string;
  labels: Record<string, string>;
  state: ReconcileState;
  /** True while the object's cluster is unreachable: the state is the last one known. */
  stale: boolean;
  staleSince?: string;
  owner: Owner;
  boundary: TenancyBoundary;
  /** The service it belongs to (rules §6), or null. */
  service: string | null;
  suspended: boolean;
  interval?: string;
  /** Its source (Kustomization, HelmRelease, HelmChart, ImagePolicy, ImageUpdateAutomation). */
  sourceRef?: ObjectReference;
  /** URL of its source (Git/OCI/Helm repository URL), for linking revisions. */
  sourceUrl?: string;
  /** For sources: their own URL. */
  url?: string;
  dependsOn: ObjectReference[];
  /** Types of the findings about this object. */
  findings: FindingType[];
  /** When the backend last saw this object change. */
  updatedAt: string;
}

/** One step of a resolved dependsOn chain. */
export interface DependencyStep {
  ref: FluxObjectRef;
  depth: number;
  /** Null when the dependency does not exist. */
  state: ReconcileStateName | null;
  reason?: string;
  message?: string;
}

/** One entry of a reconciler's inventory. */
export interface InventoryEntry {
  id: string;
  namespace: string;
  name: string;
  group: string;
  kind: string;
  version: string;
}

/** A Kubernetes Event about a Flux object. */
export interface FluxEvent {
  type: string;
  reason: string;
  message: string;
  count: number;
  lastTimestamp?: string;
  source?: string;
}

/** A Flux object with what its detail view needs. */
export interface FleetObjectDetail extends FleetObject {
  /** The dependsOn chain, depth-first. */
  dependencies: DependencyStep[];
  /** For blocked objects: the deepest dependency that is not ready. */
  rootCause?: DependencyStep;
  inventory: InventoryEntry[];
  events: FluxEvent[];
  findingDetails: Finding[];
}

/** A Flux instance (one installation in a cluster). */
export interface InstanceSummary {
  cluster: string;
  /** The instance name: its namespace. */
  name: string;
  version?: string;
  /** Where {@link InstanceSummary.version} comes from (rules §10). */
  versionSource?: FluxVersionSource;
  operatorManaged: boolean;
  /** Name of the FluxInstance that manages it, when there is one. */
  fluxInstance?: string;
  watchAllNamespaces: boolean;
  lockdown: boolean;
  defaultServiceAccount?: string;
  shards: string[];
  controllers: FluxController[];
  objectCount: number;
}

/** A shard of an instance, with its load. */
export interface ShardSummary {
  cluster: string;
  instance: string;
  name: string;
  selector?: string;
  controllers: string[];
  objectCount: number;
  countsByKind: Partial<Record<FluxKind, number>>;
  countsByState: Partial<Record<ReconcileStateName, number>>;
  /** Estimated utilisation of its busiest controller (1 = 100 %), rules §9. */
  utilisation: number;
}

/** A tenant across the fleet. */
export interface TenantSummary {
  name: string;
  /** The catalog group that owns it (tenant → group mapping), when configured. */
  group?: string;
  namespaces: Array<{ cluster: string; namespace: string }>;
  shards: Array<{ cluster: string; instance: string; shard: string }>;
  objectCount: number;
  countsByEnforcement: Partial<Record<Enforcement, number>>;
  /** The weakest boundary among its objects. */
  weakestEnforcement: Enforcement;
}

/** The fleet at a glance. */
export interface FleetSummary {
  clusters: number;
  clustersUnreachable: number;
  instances: number;
  shards: number;
  objects: number;
  tenants: number;
  countsByKind: Partial<Record<FluxKind, number>>;
  countsByState: Partial<Record<ReconcileStateName, number>>;
  findingsByType: Partial<Record<FindingType, number>>;
  generatedAt: string;
}

/** A page of a list, with a cursor for the next one. */
export interface Page<T> {
  items: T[];
  totalCount: number;
  nextCursor?: string;
}

/** How a catalog entity was linked to Flux objects (rules §6). */
export interface EntityLink {
  kubernetesId?: string;
  labelSelector?: string;
}

/** All Flux objects of one catalog entity across clusters. */
export interface EntityView {
  entityRef: string;
  link: EntityLink;
  /** Its objects in key order, at most the request's `limit` (default 5,000). */
  objects: FleetObject[];
  /** How many objects the entity links: more than `objects` holds when the answer was cut at the limit. */
  totalCount?: number;
  /** Health of every cluster that holds one of its objects, and of every cluster not synced. */
  clusters: EntityClusterHealth[];
  /**
   * The instances that own one of its objects (their Flux version, operator-managed or not), each listing only the
   * controllers that reconcile (or contest) the entity's objects. Optional: when absent the frontend asks
   * `GET /instances?cluster=` for the clusters involved.
   */
  instances?: InstanceSummary[];
}

/** Result of an action (reconcile, suspend, resume). */
export interface ActionResult {
  key: string;
  action: 'reconcile' | 'suspend' | 'resume';
  /** The token written to `reconcile.fluxcd.io/requestedAt` (reconcile). */
  requestedAt?: string;
  /** Whether the controller has handled it yet; `never` when no controller watches the object. */
  handled: 'yes' | 'pending' | 'never';
  message: string;
}

/**
 * Fields a catalog search document of a Flux Fleet entity may carry beside the catalog collator's own (`kind`,
 * `type`, `namespace` = the catalog namespace, …), for the search result item's chips. Prefixed with `flux` so
 * they never collide with the collator's fields. All optional: the item shows what is there.
 */
export interface FluxFleetSearchDocumentFields {
  /** The Flux kind, e.g. `Kustomization`. */
  fluxKind?: string;
  fluxCluster?: string;
  fluxInstance?: string;
  fluxShard?: string;
  fluxTenant?: string;
  /** The Kubernetes namespace of the Flux object. */
  fluxNamespace?: string;
}

/** Signal channels the backend publishes on (Backstage signals). */
export const SIGNAL_CHANNELS = {
  /** Anything about the fleet changed (coalesced): fleet page, findings. */
  fleet: 'flux-fleet:fleet',
  /** An entity's Flux objects changed (coalesced per entity): `flux-fleet:entity:<entityRef>`. */
  entity: (entityRef: string) => `flux-fleet:entity:${entityRef}`,
  /** One object changed: `flux-fleet:object:<key>`. */
  object: (key: string) => `flux-fleet:object:${key}`,
  /**
   * A capacity verdict changed (coalesced): the capacity view re-fetches; `keys` are the `cluster/instance` of the
   * instances whose verdict (or one of whose controllers' verdicts) changed.
   */
  capacity: 'flux-fleet:capacity',
};

/** The message of a Flux Fleet signal. */
export interface FluxFleetSignal {
  /** What changed, as object keys (at most a few hundred; `truncated` when there were more). */
  keys: string[];
  truncated?: boolean;
  at: string;
}

/** Filters and paging of `GET /objects` (and of the index's object query). */
export interface ObjectQuery {
  cluster?: string[];
  kind?: FluxKind[];
  state?: ReconcileStateName[];
  instance?: string[];
  shard?: string[];
  tenant?: string[];
  namespace?: string[];
  service?: string[];
  finding?: FindingType[];
  owner?: Array<'ok' | 'orphan' | 'contested'>;
  /** Free text, matched against name, namespace, cluster, service, tenant, message. */
  q?: string;
  sort?: 'key' | 'name' | 'state' | 'updatedAt' | 'cluster' | 'kind';
  order?: 'asc' | 'desc';
  limit?: number;
  cursor?: string;
}

export * from './capacityApi';
