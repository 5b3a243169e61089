import type { DatabaseService, LoggerService } from '@backstage/backend-plugin-api';
import type { ClusterHealth, ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import type { FleetIndexChange } from '@flux-fleet/plugin-flux-fleet-node';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ClusterWatcher } from '../watch/ClusterWatcher';
import type { PersistenceSettings } from '../config/FleetConfig';
import type { ClusterSnapshotData, ClusterSnapshotSource } from '../records/snapshotTypes';
import { applyMigrations } from './applyMigrations';
import { decodeSnapshot, encodeSnapshot } from './clusterSnapshot';
import { CapacityRelay, ReplicatedCapacity } from './CapacityRelay';
import { ChangeFeed, canListen } from './ChangeFeed';
import { DeltaReplication, ReplicatedClusters } from './DeltaReplication';
import { ChangeNotice, DeltaStore } from './DeltaStore';
import { LeaseManager, replicaName } from './LeaseManager';
import { SnapshotHeader, SnapshotStore } from './SnapshotStore';

/** A cluster whose objects only changed status has its snapshot written every this many snapshot intervals. */
const STATUS_ONLY_INTERVALS = 4;

/**
 * The objects that status-only snapshots may hold in one interval, fleet-wide; the clusters written longest ago go
 * first, and one is always written. At fleet L (100 clusters, a million objects) writing every cluster every fourth
 * interval cost 6.5 s of CPU a minute (profile of 2026-12-04). At 100,000 objects an interval the product at L
 * still spent 7.3 of 65 s encoding snapshots, 11 % of a core, about 17 µs an object with the reads of its records
 * (profile of 2026-12-05, at rest after the sync); at 30,000 it is about 3 %, and each cluster of L has a
 * status-only snapshot about every 8 minutes. A restart marks restored objects stale until their watch has listed
 * them again, whatever the snapshot's age, and other replicas follow status changes by their deltas. Fleet M (107k
 * objects, about 27k due an interval) is not held back.
 */
const STATUS_ONLY_OBJECTS_PER_INTERVAL = 30_000;

/** What persistence reads of the index's clusters and writes into them (the index's `FleetClusters`). */
export interface PersistedClusters extends ReplicatedClusters {
  clusterNames(): string[];
  /** Changes whenever the cluster's objects or derived answers change. */
  clusterVersion(cluster: string): number;
  /** Changes whenever objects of the cluster came or went (not when one changed). */
  clusterMembership(cluster: string): number;
  /** While the fleet's first sync is under way, how many clusters finished it of how many; else undefined. */
  firstSyncProgress(): { done: number; clusters: number } | undefined;
  /** Resolves when every cluster has synced, been restored, or failed. */
  ready(): Promise<void>;
  /** What a snapshot is written from; undefined while the cluster is not synced here. */
  snapshotOf(cluster: string): { source: ClusterSnapshotSource; health: ClusterHealth } | undefined;
  remoteHealth(cluster: string): ClusterHealth | undefined;
  setRemoteHealth(cluster: string, health: ClusterHealth): void;
  restore(
    cluster: string,
    snapshot: ClusterSnapshotData,
    options: { restoredAt: number; remote?: ClusterHealth },
  ): void;
  /** This replica no longer watches the cluster. */
  detachWatch(cluster: string): void;
  /** The pool restored snapshots share their strings through. */
  readonly valuePool: ValuePool;
  /** Calls the listener after each batch of index changes; returns an unsubscribe function. */
  subscribe(listener: (changes: FleetIndexChange[]) => void): () => void;
}

/** Options of {@link FleetPersistence}. */
export interface FleetPersistenceOptions {
  database: DatabaseService;
  clusters: PersistedClusters;
  settings: PersistenceSettings;
  logger: LoggerService;
  /** Starts watching a cluster into the index (this replica took its lease). */
  watch(cluster: string): ClusterWatcher;
  /** A name for this replica in leases and logs; unique by default. */
  replica?: string;
  /**
   * The capacity collection, when it runs: this replica collects the clusters it watches, and takes the
   * figures of the others from the replicas watching them (`imported` follows).
   */
  capacity?: { source: ReplicatedCapacity; imported: () => void };
}

/**
 * Snapshots and leases: at start every cluster's last snapshot is served at once (status `restored`, objects
 * stale) until a watch has resynced it; each cluster is watched by the one replica holding its lease, which
 * writes the cluster's snapshot whenever it changed; the other replicas load those snapshots when their version
 * changes, so every replica answers with the same data. On PostgreSQL the holder also writes each batch of changes
 * as a delta and announces it (NOTIFY); the others apply it at once (LISTEN), so a change is on every replica
 * within a second, not a snapshot interval (issue 11), and signalled to the browsers of each.
 */
export class FleetPersistence {
  private readonly watchers = new Map<string, ClusterWatcher>();
  /** Snapshot version each cluster's content comes from (loaded or written here). */
  private readonly versions = new Map<string, number>();
  /** Index version each held cluster had when its snapshot was last written. */
  private readonly written = new Map<string, { version: number; membership: number; at: number }>();
  private deltas?: DeltaStore;
  private replication?: DeltaReplication;
  private feed?: ChangeFeed;
  private capacity?: CapacityRelay;
  private unsubscribe?: () => void;
  /** The delta number each held cluster's last snapshot includes, to prune the deltas before it. */
  private readonly snapshotDeltaSeq = new Map<string, number>();
  private store?: SnapshotStore;
  private leases?: LeaseManager;
  private writeTimer?: NodeJS.Timeout;
  private readTimer?: NodeJS.Timeout;
  private busy = false;
  private stopped = false;
  readonly replica: string;

  constructor(private readonly options: FleetPersistenceOptions) {
    this.replica =
      options.replica ?? replicaName(hostname(), process.pid, randomUUID().slice(0, 8));
  }

  async start(): Promise<void> {
    const { database, clusters, settings, logger } = this.options;
    const knex = await database.getClient();
    if (!database.migrations?.skip) {
      await applyMigrations(knex);
    }
    this.store = new SnapshotStore(knex);
    if (canListen(knex)) {
      this.deltas = new DeltaStore(knex, true);
      this.replication = new DeltaReplication(
        this.deltas,
        clusters,
        this.replica,
        cluster => this.watchers.has(cluster),
        logger,
      );
      const replication = this.replication;
      this.unsubscribe = clusters.subscribe(changes => replication.onChanges(changes));
      this.feed = new ChangeFeed(
        knex,
        logger,
        notice => this.onNotice(notice),
        () => void this.guard(() => this.readChanged()),
      );
      // listening before the snapshots are read: nothing written meanwhile is missed
      await this.feed.start();
    }

    // Serve what the last run knew, at once: the snapshots, and on PostgreSQL the deltas written after them.
    const headers = await this.store.headers();
    for (const header of headers) {
      if (clusters.clusterNames().includes(header.cluster)) {
        await this.load(header, false, true);
      }
    }
    if (this.replication) {
      for (const cluster of clusters.clusterNames()) {
        // no snapshot yet: the deltas from the first are the cluster's whole content (none are pruned before a
        // snapshot is written)
        if (!headers.some(h => h.cluster === cluster)) {
          await this.follow(cluster, false);
          clusters.caughtUp(cluster);
        }
      }
    }

    if (this.options.capacity) {
      const { source, imported } = this.options.capacity;
      this.capacity = new CapacityRelay(knex, this.deltas, this.replica, source, imported, logger);
    }

    this.leases = new LeaseManager(
      knex,
      this.replica,
      clusters.clusterNames(),
      settings.leaseDurationMs,
      {
        acquired: cluster => {
          this.replication?.acquired(cluster);
          this.watchers.set(cluster, this.options.watch(cluster));
        },
        lost: cluster => {
          this.watchers.get(cluster)?.stop();
          this.watchers.delete(cluster);
          clusters.detachWatch(cluster);
          this.replication?.released(cluster);
        },
      },
      logger,
    );
    await this.leases.start();

    this.writeTimer = setInterval(() => this.guard(() => this.writeChanged()), settings.snapshotIntervalMs);
    this.writeTimer.unref?.();
    // followers look for new snapshots more often than holders write them
    this.readTimer = setInterval(
      () => this.guard(() => this.readChanged()),
      Math.max(250, Math.floor(settings.snapshotIntervalMs / 3)),
    );
    this.readTimer.unref?.();
    // the snapshots held back during the fleet's first sync are written as soon as it is over, not up to an
    // interval later: the work of the sync is then done in one go, before the backend settles
    clusters.ready().then(
      () => (this.stopped ? undefined : this.guard(() => this.writeChanged())),
      () => {},
    );
  }

  /** Stops the timers and watchers, writes the last snapshots, and releases the leases. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.writeTimer);
    clearInterval(this.readTimer);
    this.unsubscribe?.();
    await this.feed?.stop();
    try {
      await this.replication?.flush();
      this.replication?.close();
      await this.writeChanged({ all: true });
    } catch (error) {
      this.options.logger.warn(`Flux Fleet could not write its last snapshots: ${error}`);
    }
    for (const watcher of this.watchers.values()) watcher.stop();
    this.watchers.clear();
    await this.leases?.stop();
  }

  /** Whether this replica watches a cluster now. */
  watches(cluster: string): boolean {
    return this.watchers.has(cluster);
  }

  /** Writes the capacity figures this replica collected (after a round) for the others. */
  async publishCapacity(): Promise<void> {
    try {
      await this.capacity?.publish([...this.watchers.keys()]);
    } catch (error) {
      this.options.logger.warn(`Flux Fleet could not hand its capacity figures to the other replicas: ${error}`);
    }
  }

  /** Runs one timer task at a time; a failure is logged and the next tick tries again. */
  private async guard(task: () => Promise<void>) {
    if (this.busy) return;
    this.busy = true;
    try {
      await task();
    } catch (error) {
      this.options.logger.warn(`Flux Fleet snapshot work failed: ${error}`);
    } finally {
      this.busy = false;
    }
  }

  /**
   * Writes the snapshot of every held cluster that changed since its last write: at once when objects came or
   * went, else (a status changed, the churn of a live fleet) when the last write is STATUS_ONLY_INTERVALS
   * intervals old, within STATUS_ONLY_OBJECTS_PER_INTERVAL; `all` writes every change now (at stop). Writing
   * every cluster at every interval under churn was a third of the backend's CPU at rest at fleet M (profile of
   * 2026-12-02); a restart marks restored objects stale until the watch has resynced them anyway, and other
   * replicas follow status changes by their deltas.
   */
  async writeChanged(options: { all?: boolean } = {}): Promise<void> {
    const { clusters } = this.options;
    // During the fleet's first sync the lists come first: the clusters listed so far are written once it is over
    // (see start). At fleet L their first snapshots cost the backend's thread about 7 s of its sync (encoding
    // 5.3 s, zlib and the database the rest; profile of 2026-12-06). Nothing is lost meanwhile: the snapshots of
    // the last run stay, and on PostgreSQL the other replicas follow these clusters by their deltas.
    if (!options.all && clusters.firstSyncProgress()) return;
    const now = Date.now();
    const statusOnlyDue: Array<{ cluster: string; since: number }> = [];
    for (const cluster of this.watchers.keys()) {
      const last = this.written.get(cluster);
      if (last?.version === clusters.clusterVersion(cluster)) continue;
      const statusOnly = last?.membership === clusters.clusterMembership(cluster);
      if (options.all || !last || !statusOnly) {
        await this.writeSnapshot(cluster, now);
      } else if (now - last.at >= STATUS_ONLY_INTERVALS * this.options.settings.snapshotIntervalMs) {
        statusOnlyDue.push({ cluster, since: last.at });
      }
    }
    let budget = STATUS_ONLY_OBJECTS_PER_INTERVAL;
    for (const { cluster } of statusOnlyDue.sort((a, b) => a.since - b.since)) {
      if (budget <= 0) break;
      budget -= await this.writeSnapshot(cluster, now);
    }
  }

  /** Writes a cluster's snapshot as it is now; returns how many objects it holds (0 when it is not synced). */
  private async writeSnapshot(cluster: string, now: number): Promise<number> {
    const { clusters } = this.options;
    const version = clusters.clusterVersion(cluster);
    const membership = clusters.clusterMembership(cluster);
    // the deltas written so far are in what is read now; later ones may be too (they are absolute)
    const deltaSeq = this.replication?.lastWritten(cluster) ?? 0;
    const snapshot = clusters.snapshotOf(cluster);
    if (!snapshot) return 0;
    const written = await this.store!.write({
      cluster,
      holder: this.replica,
      health: snapshot.health,
      data: await encodeSnapshot(snapshot.source),
      deltaSeq,
    });
    this.written.set(cluster, { version, membership, at: now });
    this.versions.set(cluster, written);
    // deltas the snapshot before this one includes: a follower that far behind loads this snapshot instead
    const previous = this.snapshotDeltaSeq.get(cluster);
    this.snapshotDeltaSeq.set(cluster, deltaSeq);
    if (previous) await this.deltas?.prune(cluster, previous);
    return snapshot.health.objectCount;
  }

  /** Another replica announced a delta: apply it now (or reload the snapshot when some are missing). */
  private onNotice(notice: ChangeNotice) {
    if (!('seq' in notice)) {
      if (this.watchers.has(notice.cluster)) return;
      this.capacity?.readOne(notice.cluster).catch(error =>
        this.options.logger.warn(`Flux Fleet could not read the capacity figures of cluster '${notice.cluster}': ${error}`),
      );
      return;
    }
    const { cluster, seq } = notice;
    if (this.watchers.has(cluster) || !this.options.clusters.clusterNames().includes(cluster)) return;
    if ((this.replication?.appliedSeq(cluster) ?? 0) >= seq) return;
    this.follow(cluster).catch(error =>
      this.options.logger.warn(`Flux Fleet could not apply the changes of cluster '${cluster}': ${error}`),
    );
  }

  /** Applies a followed cluster's deltas; reloads its snapshot first when some are missing. */
  private async follow(cluster: string, alive = true) {
    const remote = (health: ClusterHealth) => this.remoteHealth(health, alive);
    if ((await this.replication!.catchUp(cluster, remote)) === 'current') return;
    const header = (await this.store!.headers()).find(h => h.cluster === cluster);
    if (header) await this.load(header, alive);
  }

  /** Loads the snapshots of clusters other replicas watch, when their version changed. */
  async readChanged(): Promise<void> {
    const holders = await this.leases!.liveHolders();
    await this.capacity?.readChanged(cluster => this.watchers.has(cluster));
    const headers = await this.store!.headers();
    if (this.replication) {
      for (const cluster of this.options.clusters.clusterNames()) {
        if (this.watchers.has(cluster) || headers.some(h => h.cluster === cluster)) continue;
        await this.follow(cluster, holders.has(cluster));
        const reported = this.replication.reportedHealth(cluster);
        if (reported) {
          this.options.clusters.setRemoteHealth(cluster, this.remoteHealth(reported, holders.has(cluster)));
        }
      }
    }
    for (const header of headers) {
      if (this.watchers.has(header.cluster)) continue;
      if (!this.options.clusters.clusterNames().includes(header.cluster)) continue;
      const alive = holders.has(header.cluster);
      const known = this.options.clusters.remoteHealth(header.cluster);
      // with deltas, a snapshot the deltas applied here already include is not loaded again
      const current =
        this.versions.get(header.cluster) === header.version ||
        (this.replication?.appliedSeq(header.cluster) ?? -1) >= header.deltaSeq;
      if (known && current) {
        this.options.clusters.setRemoteHealth(header.cluster, this.remoteHealth(known, alive));
        this.versions.set(header.cluster, header.version);
        // a notification missed (the listening connection was down) is caught up here
        if (this.replication) await this.follow(header.cluster, alive);
        continue;
      }
      await this.load(header, alive);
    }
  }

  /**
   * Loads a snapshot; `holderAlive` says whether a replica watches its cluster now (undefined: at start), and
   * `atStart` that the API waits for it (see decodeSnapshot).
   */
  private async load(header: SnapshotHeader, holderAlive?: boolean, atStart = false) {
    const row = await this.store!.read(header.cluster);
    if (!row) return;
    let data;
    try {
      data = await decodeSnapshot(row.data, this.options.clusters.valuePool, { onThisThread: atStart });
    } catch (error) {
      this.options.logger.warn(
        `Flux Fleet ignores the snapshot of cluster '${row.cluster}' (version ${row.version}): ${error}`,
      );
      return;
    }
    this.options.clusters.restore(row.cluster, data, {
      restoredAt: row.writtenAt,
      ...(holderAlive !== undefined && {
        remote: this.remoteHealth(row.health, holderAlive),
      }),
    });
    this.versions.set(row.cluster, row.version);
    if (this.replication && !this.watchers.has(row.cluster)) {
      this.replication.follow(row.cluster, row.deltaSeq);
      await this.replication.catchUp(row.cluster, h => this.remoteHealth(h, holderAlive ?? false));
      // the snapshot and the deltas after it, derived now: a single delta would otherwise wait for the debounce,
      // and a replica starting served the snapshot's state meanwhile
      this.options.clusters.caughtUp(row.cluster);
    }
  }

  /**
   * The health the watching replica reported for a cluster; `restored` (its objects stale) while no replica
   * holds the cluster's lease: its watcher is gone and no one has taken over yet.
   */
  private remoteHealth(health: ClusterHealth, holderAlive: boolean): ClusterHealth {
    return holderAlive ? health : { ...health, status: 'restored', synced: false };
  }
}
