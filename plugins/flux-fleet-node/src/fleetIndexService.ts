import { createServiceRef } from '@backstage/backend-plugin-api';
import type {
  ClusterHealth,
  EntityLink,
  Finding,
  FleetObject,
  FleetObjectDetail,
  FleetSummary,
  MalformedObject,
  InstanceSummary,
  ObjectQuery,
  Page,
  ShardSummary,
  TenantSummary,
  FleetVersionView,
  FluxKind,
  Owner,
} from '@flux-fleet/plugin-flux-fleet-common';

/** What changed in the index. */
export interface FleetIndexChange {
  cluster: string;
  /** Keys of the objects that were added, changed or removed. */
  keys: string[];
  /** True when the change alters structure (objects added or removed, owners, tenants, references), not just state. */
  structural: boolean;
  /** Services (rules §6) of the changed objects, before and after the change, for readers that follow services. */
  services?: string[];
  /**
   * Every object of the cluster changed: its `stale` flag, as the cluster became stale or fresh (rules §15).
   * `keys` names none of them (at fleet L, naming 10k keys per flip and looking each up cost a signal listener
   * 23 s of CPU a minute while clusters flipped under load); `services` names the cluster's services.
   */
  everyObject?: boolean;
}

/**
 * What a read filter sees of an object of the index (its key, where it lives, its service and tenant), read
 * without building the object the API answers with.
 */
export interface IndexedObjectFacts {
  /** `cluster/namespace/kind/name` (rules §1). */
  readonly key: string;
  readonly cluster: string;
  readonly namespace: string;
  /** rules §6. */
  readonly service: string | null;
  /** rules §5: only the tenant is read. */
  readonly boundary: { readonly tenant: string | null };
}

/** One of an entity's objects as the entity view's JSON answer is made of it: its answer's JSON, where it is, its owner. */
export interface EntityObjectJson {
  cluster: string;
  /** rules §4: which instance, shard and controller reconcile it (or contest it). */
  owner: Owner;
  /** `JSON.stringify` of the `FleetObject` that `entityObjects` gives for it: in UTF-8 when the index keeps it. */
  json: Buffer | string;
}

/**
 * Read access to the fleet-wide index of Flux objects that the Flux Fleet backend keeps by watching every
 * configured cluster. Every call answers from memory: no cluster is called.
 */
export interface FleetIndexService {
  /** Resolves when every cluster has either synced, been restored from the last snapshot, or failed. */
  ready(): Promise<void>;
  /** The names of the configured clusters, in configuration order. */
  clusterNames(): string[];
  /**
   * The health of every configured cluster, in configuration order; of the clusters named in `only`, when given
   * (a reader told which clusters changed need not read the others: at 100 clusters that was a tenth of the
   * backend's CPU during a first sync).
   */
  clusters(only?: ReadonlySet<string>): ClusterHealth[];
  /** The fleet view of Flux versions: per cluster and instance its release, how far behind, what blocks the upgrade. */
  versions(): FleetVersionView;
  instances(cluster?: string): InstanceSummary[];
  shards(cluster?: string): ShardSummary[];
  tenants(): TenantSummary[];
  summary(): FleetSummary;
  /** Objects matching a query (docs/api.md); `readable`, when given, leaves out the objects it refuses. */
  objects(query: ObjectQuery, readable?: (o: IndexedObjectFacts) => boolean): Page<FleetObject>;
  /**
   * The answer of `objects` as UTF-8 JSON, for the REST API; an implementation may keep each object's part between
   * queries. Optional: without it the API serialises `objects`.
   */
  objectsJson?(query: ObjectQuery, readable?: (o: IndexedObjectFacts) => boolean): Buffer;
  /**
   * Every object of one cluster, in key order, or only those of `kinds`; for bulk readers such as the catalog
   * provider (which asks for the kinds it emits: building every object of a cluster of thousands for none was
   * most of its work after each analysis).
   */
  clusterObjects(cluster: string, kinds?: ReadonlySet<FluxKind>): FleetObject[];
  object(key: string): FleetObject | undefined;
  objectDetail(key: string): FleetObjectDetail | undefined;
  findings(filter?: { cluster?: string; type?: string[] }): Finding[];
  /**
   * Objects that were malformed as read, of one cluster or all (skipped ones, and ones read with problems).
   * Optional so that other implementations (test doubles) need not have it.
   */
  malformed?(cluster?: string): MalformedObject[];
  /** The Flux objects of a catalog entity, across clusters (rules §6). */
  entityObjects(link: EntityLink): FleetObject[];
  /**
   * The same objects, those `readable` accepts, the first `limit` of them as JSON (an implementation may keep each
   * object's JSON between views), and how many there are. Optional: without it the API serialises `entityObjects`.
   */
  entityObjectsJson?(
    link: EntityLink,
    limit: number,
    readable?: (o: IndexedObjectFacts) => boolean,
  ): { objects: EntityObjectJson[]; totalCount: number };
  /** Calls the listener after each batch of changes; returns an unsubscribe function. */
  subscribe(listener: (changes: FleetIndexChange[]) => void): () => void;
}

/**
 * The fleet index, shared by the Flux Fleet backend plugin (which fills it) and other plugins and modules (the
 * catalog module) that read it. Provided by `@flux-fleet/plugin-flux-fleet-backend`.
 */
export const fleetIndexServiceRef = createServiceRef<FleetIndexService>({
  id: 'flux-fleet.index',
  scope: 'root',
});
