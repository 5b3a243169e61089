import { fleetVersionView } from '@flux-fleet/plugin-flux-fleet-common';
import type {
  ClusterHealth,
  ClusterStatus,
  EntityLink,
  Finding,
  FleetObject,
  FleetObjectDetail,
  FleetSummary,
  FleetVersionView,
  InstanceSummary,
  ObjectQuery,
  Page,
  ShardSummary,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type {
  FleetIndexChange,
  FleetIndexService,
} from '@flux-fleet/plugin-flux-fleet-node';

/** What the test double holds for one cluster. */
export interface InMemoryCluster {
  status: ClusterStatus;
  unreachableSince?: string;
  instances: InstanceSummary[];
  shards: ShardSummary[];
  objects: FleetObject[];
}

/**
 * A `FleetIndexService` test double: tests put clusters in it, change them and announce changes as the backend's
 * index would. Only what the catalog module reads is real; the rest answers empty.
 */
export class InMemoryFleetIndex implements FleetIndexService {
  private readonly clusterData = new Map<string, InMemoryCluster>();
  private readonly listeners = new Set<(changes: FleetIndexChange[]) => void>();
  private tenantList: TenantSummary[] = [];
  private resolveReady!: () => void;
  private readonly readyPromise = new Promise<void>(resolve => {
    this.resolveReady = resolve;
  });

  /** Puts (or replaces) a cluster; does not announce it. */
  setCluster(name: string, data: InMemoryCluster): void {
    this.clusterData.set(name, data);
  }

  /** Changes a cluster's status (e.g. `unreachable`); does not announce it. */
  setStatus(name: string, status: ClusterStatus, unreachableSince?: string): void {
    const data = this.clusterData.get(name);
    if (!data) throw new Error(`no cluster ${name} in the test index`);
    this.clusterData.set(name, { ...data, status, unreachableSince });
  }

  removeCluster(name: string): void {
    this.clusterData.delete(name);
  }

  setTenants(tenants: TenantSummary[]): void {
    this.tenantList = tenants;
  }

  /** Resolves `ready()`. */
  markReady(): void {
    this.resolveReady();
  }

  /** Calls the listeners as the index does after a batch of changes. */
  announce(changes: FleetIndexChange[]): void {
    for (const listener of this.listeners) listener(changes);
  }

  ready(): Promise<void> {
    return this.readyPromise;
  }

  clusterNames(): string[] {
    return [...this.clusterData.keys()];
  }

  versions(): FleetVersionView {
    return fleetVersionView([]);
  }

  clusters(only?: ReadonlySet<string>): ClusterHealth[] {
    return [...this.clusterData.entries()].filter(([name]) => !only || only.has(name)).map(([name, data]) => ({
      name,
      status: data.status,
      synced: data.status === 'synced',
      objectCount: data.objects.length,
      countsByKind: {},
      unreachableSince: data.unreachableSince,
      fluxVersions: [],
      servedVersions: {},
    }));
  }

  instances(cluster?: string): InstanceSummary[] {
    return this.pick(cluster, c => c.instances);
  }

  shards(cluster?: string): ShardSummary[] {
    return this.pick(cluster, c => c.shards);
  }

  tenants(): TenantSummary[] {
    return this.tenantList;
  }

  summary(): FleetSummary {
    throw new Error('not used by the catalog module');
  }

  objects(_query: ObjectQuery): Page<FleetObject> {
    throw new Error('not used by the catalog module');
  }

  clusterObjects(cluster: string): FleetObject[] {
    return this.clusterData.get(cluster)?.objects ?? [];
  }

  object(_key: string): FleetObject | undefined {
    return undefined;
  }

  objectDetail(_key: string): FleetObjectDetail | undefined {
    return undefined;
  }

  findings(): Finding[] {
    return [];
  }

  entityObjects(_link: EntityLink): FleetObject[] {
    return [];
  }

  subscribe(listener: (changes: FleetIndexChange[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many listeners are subscribed. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  private pick<T>(cluster: string | undefined, get: (c: InMemoryCluster) => T[]): T[] {
    if (cluster !== undefined) {
      const data = this.clusterData.get(cluster);
      return data ? get(data) : [];
    }
    return [...this.clusterData.values()].flatMap(get);
  }
}
