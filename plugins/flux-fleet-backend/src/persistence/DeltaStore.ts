import type { Knex } from './SnapshotStore';

const DELTAS = 'flux_fleet_deltas';
/** The PostgreSQL channel replicas announce deltas and capacity figures on. */
export const CHANGES_CHANNEL = 'flux_fleet_changes';

/** What a notification on {@link CHANGES_CHANNEL} says: a cluster and the delta written, or `capacity`. */
export type ChangeNotice = { cluster: string; seq: number } | { cluster: string; capacity: true };

/** Reads a notification's payload; undefined for one this version does not know. */
export function parseNotice(payload: string | undefined): ChangeNotice | undefined {
  try {
    const p = JSON.parse(payload ?? '');
    if (typeof p?.c !== 'string') return undefined;
    if (p.k === 'capacity') return { cluster: p.c, capacity: true };
    return typeof p.s === 'number' ? { cluster: p.c, seq: p.s } : undefined;
  } catch {
    return undefined;
  }
}

/** A delta's row. */
export interface DeltaRow {
  cluster: string;
  seq: number;
  data: Buffer;
}

/**
 * The `flux_fleet_deltas` table: what changed in each cluster since its snapshot, numbered per cluster. Only the
 * replica holding a cluster's lease writes; on PostgreSQL each write is announced in the same transaction with a
 * NOTIFY of a few bytes (cluster and number: the payload limit is 8000 bytes, and a change can be far larger).
 */
export class DeltaStore {
  constructor(
    private readonly knex: Knex,
    /** Whether to NOTIFY (PostgreSQL). */
    private readonly notify: boolean,
  ) {}

  /** Writes a delta after `after` (the writer's last number); returns its number. */
  async write(cluster: string, holder: string, after: number, data: Buffer): Promise<number> {
    return this.knex.transaction(async tx => {
      // after this replica's own delta the number is known; after a takeover it is read (one query less a write)
      const last = after > 0 ? undefined : await tx(DELTAS).where({ cluster }).max({ seq: 'seq' }).first();
      const seq = Math.max(after, Number(last?.seq ?? 0)) + 1;
      await tx(DELTAS).insert({ cluster, seq, holder, written_at: Date.now(), data });
      if (this.notify) {
        await tx.raw('select pg_notify(?, ?)', [CHANGES_CHANNEL, JSON.stringify({ c: cluster, s: seq })]);
      }
      return seq;
    });
  }

  /** Announces that a cluster's capacity figures were written (PostgreSQL only). */
  async announceCapacity(cluster: string): Promise<void> {
    if (!this.notify) return;
    await this.knex.raw('select pg_notify(?, ?)', [CHANGES_CHANNEL, JSON.stringify({ c: cluster, k: 'capacity' })]);
  }

  /** The deltas of a cluster after `seq`, oldest first. */
  async since(cluster: string, seq: number): Promise<DeltaRow[]> {
    const rows = await this.knex(DELTAS)
      .where({ cluster })
      .andWhere('seq', '>', seq)
      .orderBy('seq')
      .select('cluster', 'seq', 'data');
    return rows.map(r => ({
      cluster: r.cluster,
      seq: Number(r.seq),
      data: Buffer.isBuffer(r.data) ? r.data : Buffer.from(r.data),
    }));
  }

  /** Deletes the deltas a snapshot includes. */
  async prune(cluster: string, upTo: number): Promise<void> {
    await this.knex(DELTAS).where({ cluster }).andWhere('seq', '<=', upTo).delete();
  }
}
