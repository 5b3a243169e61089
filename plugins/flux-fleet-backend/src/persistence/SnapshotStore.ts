import type { DatabaseService } from '@backstage/backend-plugin-api';
import type { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';

/** The knex client the database service gives. */
export type Knex = Awaited<ReturnType<DatabaseService['getClient']>>;

const SNAPSHOTS = 'flux_fleet_snapshots';

/** A snapshot's row without its data. */
export interface SnapshotHeader {
  cluster: string;
  version: number;
  holder: string;
  writtenAt: number;
  /** The last delta of the cluster this snapshot includes (0: none). */
  deltaSeq: number;
}

/** A snapshot row. */
export interface SnapshotRow extends SnapshotHeader {
  health: ClusterHealth;
  data: Buffer;
}

/**
 * The `flux_fleet_snapshots` table: the last snapshot of each cluster. Only the replica holding a cluster's
 * lease writes its row; every replica reads them.
 */
export class SnapshotStore {
  constructor(private readonly knex: Knex) {}

  /** Versions of every snapshot, to see which changed. */
  async headers(): Promise<SnapshotHeader[]> {
    const rows = await this.knex(SNAPSHOTS).select('cluster', 'version', 'holder', 'written_at', 'delta_seq');
    return rows.map(r => ({
      cluster: r.cluster,
      // PostgreSQL returns bigint columns as text
      version: Number(r.version),
      holder: r.holder,
      writtenAt: Number(r.written_at),
      deltaSeq: Number(r.delta_seq),
    }));
  }

  async read(cluster: string): Promise<SnapshotRow | undefined> {
    const row = await this.knex(SNAPSHOTS).where({ cluster }).first();
    if (!row) return undefined;
    return {
      cluster: row.cluster,
      version: Number(row.version),
      holder: row.holder,
      writtenAt: Number(row.written_at),
      deltaSeq: Number(row.delta_seq),
      health: JSON.parse(row.health),
      data: Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data),
    };
  }

  /** Writes a cluster's snapshot; returns its new version. */
  async write(options: {
    cluster: string;
    holder: string;
    health: ClusterHealth;
    data: Buffer;
    /** The last delta written before the snapshot was taken. */
    deltaSeq?: number;
  }): Promise<number> {
    return this.knex.transaction(async tx => {
      const current = await tx(SNAPSHOTS).where({ cluster: options.cluster }).first('version');
      const version = (current ? Number(current.version) : 0) + 1;
      const row = {
        cluster: options.cluster,
        version,
        holder: options.holder,
        written_at: Date.now(),
        health: JSON.stringify(options.health),
        data: options.data,
        delta_seq: options.deltaSeq ?? 0,
      };
      if (current) {
        await tx(SNAPSHOTS).where({ cluster: options.cluster }).update(row);
      } else {
        await tx(SNAPSHOTS).insert(row);
      }
      return version;
    });
  }
}
