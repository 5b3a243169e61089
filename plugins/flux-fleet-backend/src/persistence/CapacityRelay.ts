import type { LoggerService } from '@backstage/backend-plugin-api';
import type { CapacityOfCluster } from '../capacity/CapacityCollector';
import type { DeltaStore } from './DeltaStore';
import type { Knex } from './SnapshotStore';

const CAPACITY = 'flux_fleet_capacity';

/** The capacity collection replicas hand over (the `CapacityCollector`). */
export interface ReplicatedCapacity {
  exportCluster(cluster: string): CapacityOfCluster;
  importCluster(cluster: string, capacity: CapacityOfCluster): void;
}

/**
 * Hands capacity figures from the replica collecting a cluster (the one holding its lease, so each cluster's
 * controllers are scraped once, not once per replica) to the others: a row per cluster in `flux_fleet_capacity`,
 * written after each collection round and announced on PostgreSQL like a delta; the others read it when told, or
 * when they see its time changed.
 */
export class CapacityRelay {
  /** `written_at` of each cluster's row as last read or written here. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly knex: Knex,
    private readonly announcer: DeltaStore | undefined,
    private readonly replica: string,
    private readonly capacity: ReplicatedCapacity,
    /** Called after figures of other replicas were taken (the verdicts may have changed). */
    private readonly imported: () => void,
    private readonly logger: LoggerService,
  ) {}

  /** Writes the figures of the clusters this replica collected and announces them. */
  async publish(clusters: Iterable<string>): Promise<void> {
    for (const cluster of clusters) {
      const writtenAt = Date.now();
      const row = {
        cluster,
        holder: this.replica,
        written_at: writtenAt,
        data: JSON.stringify(this.capacity.exportCluster(cluster)),
      };
      await this.knex(CAPACITY).insert(row).onConflict('cluster').merge();
      this.seen.set(cluster, writtenAt);
      await this.announcer?.announceCapacity(cluster);
    }
  }

  /** Reads one cluster's figures (announced by the replica collecting it). */
  async readOne(cluster: string): Promise<void> {
    const row = await this.knex(CAPACITY).where({ cluster }).first();
    if (row && this.take(row)) this.imported();
  }

  /** Reads the figures of the clusters `collectsHere` says no, where they changed since last read. */
  async readChanged(collectsHere: (cluster: string) => boolean): Promise<void> {
    const headers = await this.knex(CAPACITY).select('cluster', 'written_at', 'holder');
    let any = false;
    for (const header of headers) {
      if (collectsHere(header.cluster) || header.holder === this.replica) continue;
      if (this.seen.get(header.cluster) === Number(header.written_at)) continue;
      const row = await this.knex(CAPACITY).where({ cluster: header.cluster }).first();
      if (row && this.take(row)) any = true;
    }
    if (any) this.imported();
  }

  private take(row: { cluster: string; holder: string; written_at: unknown; data: string }): boolean {
    if (row.holder === this.replica) return false;
    try {
      const parsed = JSON.parse(row.data) as CapacityOfCluster;
      if (!Array.isArray(parsed?.readings) || !Array.isArray(parsed?.histories)) {
        throw new Error('readings and histories are not lists');
      }
      this.capacity.importCluster(row.cluster, parsed);
    } catch (error) {
      this.logger.warn(
        `Flux Fleet ignores the capacity figures of cluster '${row.cluster}' written by replica ${row.holder}: ${error}`,
      );
      return false;
    } finally {
      this.seen.set(row.cluster, Number(row.written_at));
    }
    return true;
  }
}
