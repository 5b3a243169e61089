import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ClusterHealth, ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import type { FleetIndexChange } from '@flux-fleet/plugin-flux-fleet-node';
import type { SentSupporting } from '../index/deltaSource';
import { ClusterDeltaData, decodeDelta, encodeDelta } from './clusterDelta';
import type { DeltaStore } from './DeltaStore';

/** Changes of a held cluster are gathered this long into one delta (the index already batches its passes). */
const FLUSH_MS = 20;
/** After a failed write the changes are tried again this much later. */
const RETRY_MS = 1_000;

/** What replication reads of the index and writes into it (the index's `FleetClusters`). */
export interface ReplicatedClusters {
  deltaOf(cluster: string, keys: Iterable<string>, sent: SentSupporting): ClusterDeltaData | undefined;
  applyDelta(cluster: string, delta: ClusterDeltaData, remote: ClusterHealth): void;
  /**
   * A run of several deltas was applied at once (at start, or after notifications were missed): what they changed
   * is derived now rather than after the debounce, so the follower serves what it caught up.
   */
  caughtUp(cluster: string): void;
  readonly valuePool: ValuePool;
}

/** How a follower's catching up on a cluster ended. */
export type CatchUp = 'current' | 'gap';

/**
 * Carries each cluster's changes from the replica watching it to the others, between snapshots. The holder
 * writes what an index change named as a delta (records as held after the derivation, not the change's objects
 * themselves) and announces it; a follower reads the deltas after the last it applied and runs them through its
 * own store and derivation, so it answers and signals the same. A follower that finds a number missing (deltas
 * pruned while it was not listening) says `gap`: its owner loads the snapshot and catches up from there.
 */
export class DeltaReplication {
  private readonly pending = new Map<string, Set<string>>();
  private readonly sent = new Map<string, SentSupporting>();
  /** The last delta written by this replica, per held cluster. */
  private readonly written = new Map<string, number>();
  /** The last delta applied here, per followed cluster. */
  private readonly applied = new Map<string, number>();
  /** The health the holder reported in the last delta applied, per followed cluster. */
  private readonly health = new Map<string, ClusterHealth>();
  /** One catch-up per cluster at a time, and one that comes after it when asked meanwhile. */
  private readonly catching = new Map<string, Promise<CatchUp>>();
  private readonly queued = new Map<string, Promise<CatchUp>>();
  private flushTimer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private closed = false;

  constructor(
    private readonly store: DeltaStore,
    private readonly clusters: ReplicatedClusters,
    private readonly replica: string,
    private readonly holds: (cluster: string) => boolean,
    private readonly logger: LoggerService,
  ) {}

  // ------------------------------------------------------------------ holder

  /** This replica watches a cluster from now on: the next delta carries every supporting list. */
  acquired(cluster: string): void {
    this.sent.set(cluster, {});
    this.applied.delete(cluster);
  }

  /** This replica stopped watching a cluster: it follows it from the last delta it wrote. */
  released(cluster: string): void {
    this.pending.delete(cluster);
    this.sent.delete(cluster);
    this.applied.set(cluster, this.written.get(cluster) ?? this.applied.get(cluster) ?? 0);
    this.written.delete(cluster);
  }

  /** The last delta written for a held cluster, for the snapshot taken now. */
  lastWritten(cluster: string): number {
    return this.written.get(cluster) ?? 0;
  }

  /**
   * An index change: the objects of held clusters it names go out in the next delta. A change naming no object
   * (the cluster's status changed) goes out too, as a delta of its health alone: followers show the health of the
   * last delta they applied, which would otherwise stay at the status of the last object change (`syncing`).
   */
  onChanges(changes: FleetIndexChange[]): void {
    if (this.closed) return;
    for (const change of changes) {
      if (!this.holds(change.cluster)) continue;
      let keys = this.pending.get(change.cluster);
      if (!keys) {
        keys = new Set();
        this.pending.set(change.cluster, keys);
      }
      for (const key of change.keys) keys.add(key);
    }
    if (this.pending.size) this.schedule(FLUSH_MS);
  }

  /** Writes what is pending now (and waits for a write under way). */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    while (this.flushing) await this.flushing;
    this.flushing = this.writePending().finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.flushTimer);
  }

  private schedule(ms: number) {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, ms);
    this.flushTimer.unref?.();
  }

  private async writePending() {
    const batch = [...this.pending];
    this.pending.clear();
    for (const [cluster, keys] of batch) {
      if (!this.holds(cluster)) continue;
      const sent = this.sent.get(cluster) ?? {};
      this.sent.set(cluster, sent);
      const delta = this.clusters.deltaOf(cluster, keys, sent);
      if (!delta) continue;
      try {
        const seq = await this.store.write(
          cluster,
          this.replica,
          this.written.get(cluster) ?? 0,
          await encodeDelta(delta),
        );
        this.written.set(cluster, seq);
      } catch (error) {
        this.logger.warn(
          `Flux Fleet could not tell other replicas of ${keys.size} changes in cluster '${cluster}' (trying again in ${
            RETRY_MS / 1000
          } s): ${error}`,
        );
        // sent again whole, with the keys, on the next try
        this.sent.set(cluster, {});
        const merged = this.pending.get(cluster) ?? new Set<string>();
        for (const key of keys) merged.add(key);
        this.pending.set(cluster, merged);
        this.schedule(RETRY_MS);
      }
    }
  }

  // ---------------------------------------------------------------- follower

  /** Follows a cluster from a snapshot that includes its deltas up to `seq`. */
  follow(cluster: string, seq: number): void {
    this.applied.set(cluster, seq);
  }

  /** The last delta applied to a followed cluster (undefined: none known yet). */
  appliedSeq(cluster: string): number | undefined {
    return this.applied.get(cluster);
  }

  /** The health the watching replica reported in the last delta applied here. */
  reportedHealth(cluster: string): ClusterHealth | undefined {
    return this.health.get(cluster);
  }

  /**
   * Applies the deltas of a followed cluster written since the last one applied here. Asked while a catch-up of
   * the cluster runs, it answers with the one after it: the running one may have read its deltas before the ones
   * the caller knows of were written (a replica starting would serve without them; a `gap` found then would be
   * lost).
   */
  catchUp(cluster: string, remote: (health: ClusterHealth) => ClusterHealth): Promise<CatchUp> {
    const queued = this.queued.get(cluster);
    if (queued) return queued;
    const running = this.catching.get(cluster);
    if (running) {
      const next = running
        .catch(() => undefined)
        .then(() => {
          this.queued.delete(cluster);
          return this.catchUp(cluster, remote);
        });
      this.queued.set(cluster, next);
      return next;
    }
    const run = this.readAndApply(cluster, remote).finally(() => this.catching.delete(cluster));
    this.catching.set(cluster, run);
    return run;
  }

  private async readAndApply(
    cluster: string,
    remote: (health: ClusterHealth) => ClusterHealth,
  ): Promise<CatchUp> {
    if (this.holds(cluster) || this.closed) return 'current';
    const from = this.applied.get(cluster) ?? 0;
    const rows = await this.store.since(cluster, from);
    if (rows.length > 0 && rows[0].seq !== from + 1) return 'gap';
    for (const row of rows) {
      if (this.holds(cluster) || this.closed) return 'current';
      let delta: ClusterDeltaData;
      try {
        delta = await decodeDelta(row.data, this.clusters.valuePool);
      } catch (error) {
        this.logger.warn(
          `Flux Fleet ignores delta ${row.seq} of cluster '${cluster}' and reloads its snapshot: ${error}`,
        );
        return 'gap';
      }
      this.health.set(cluster, delta.health);
      this.clusters.applyDelta(cluster, delta, remote(delta.health));
      this.applied.set(cluster, row.seq);
    }
    if (rows.length > 1) this.clusters.caughtUp(cluster);
    return 'current';
  }
}
