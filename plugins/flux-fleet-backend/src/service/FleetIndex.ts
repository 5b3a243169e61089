import {
  ClusterHealth,
  EntityLink,
  Finding,
  FleetObject,
  FleetObjectDetail,
  FleetSummary,
  InstanceSummary,
  ObjectQuery,
  Page,
  ShardSummary,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import {
  FleetIndexChange,
  FleetIndexService,
} from '@flux-fleet/plugin-flux-fleet-node';

/** The fleet-wide index of Flux objects. Watchers fill it; every read answers from memory. */
export class FleetIndex implements FleetIndexService {
  private readonly listeners = new Set<(changes: FleetIndexChange[]) => void>();

  constructor(private readonly clusterNames: string[]) {}

  async ready(): Promise<void> {}

  clusters(): ClusterHealth[] {
    return this.clusterNames.map(name => ({
      name,
      status: 'syncing',
      synced: false,
      objectCount: 0,
      countsByKind: {},
      fluxVersions: [],
      servedVersions: {},
    }));
  }

  instances(): InstanceSummary[] {
    return [];
  }

  shards(): ShardSummary[] {
    return [];
  }

  tenants(): TenantSummary[] {
    return [];
  }

  summary(): FleetSummary {
    return {
      clusters: this.clusterNames.length,
      clustersUnreachable: 0,
      instances: 0,
      shards: 0,
      objects: 0,
      tenants: 0,
      countsByKind: {},
      countsByState: {},
      findingsByType: {},
      generatedAt: new Date().toISOString(),
    };
  }

  objects(_query: ObjectQuery): Page<FleetObject> {
    return { items: [], totalCount: 0 };
  }

  clusterObjects(_cluster: string): FleetObject[] {
    return [];
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
}
