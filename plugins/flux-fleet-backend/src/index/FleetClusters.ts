import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  ClusterHealth,
  describeBehind,
  measuredUtilisationSignature,
  ValuePool,
  withMeasuredUtilisation,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { FleetIndexChange } from '@flux-fleet/plugin-flux-fleet-node';
import type { AnalysisSettings, TenantRule } from '../config/FleetConfig';
import { analyseStore } from '../derive/analyseStore';
import type { ViewChanges } from '../derive/ClusterView';
import type { ClusterStore } from '../records/ClusterStore';
import type { ClusterSnapshotData, ClusterSnapshotSource } from '../records/snapshotTypes';
import type { WatchHealthProbe, WatchTargets } from '../watch/startWatching';
import { MAX_REFRESH_INTERVALS } from './AnalysisScheduler';
import { createClusterEntry, type ClusterEntry, type RemoteHealth } from './ClusterEntry';
import { healthOf, staleSinceOf } from './clusterHealth';
import { snapshotSourceOf } from './snapshotSource';
import { deltaSourceOf, type SentSupporting } from './deltaSource';
import type { ClusterDeltaData } from '../records/clusterDeltaTypes';

/** How often the health of watched clusters is read again (rules §15: grace and stale thresholds pass in time). */
const HEALTH_CHECK_INTERVAL_MS = 1_000;

/**
 * How long the API may serve a cluster's health read earlier, while nothing of the cluster changed (a change of
 * its view, its connection or its watches reads it again). The entity view reads the health of every cluster an
 * entity is on: at fleet L, 100 clusters' health read afresh was about half of each view's CPU (6 ms of 13 ms,
 * profile of 2026-12-04), and what changes by time alone (the lag) moves by less than this.
 */
export const SERVED_HEALTH_MAX_AGE_MS = 500;

/**
 * How long after start capacity collection and snapshot writing may wait for the first lists of the clusters this
 * replica watches ({@link FleetClusters.firstSyncProgress}). The first sync of fleet L takes about two minutes on
 * a 2-core machine; a cluster listing for longer than this does not hold back the others' figures and snapshots.
 */
export const FIRST_SYNC_PRIORITY_MS = 10 * 60_000;

/** Options of {@link FleetClusters}. */
export interface FleetClustersOptions {
  clusters: string[];
  tenants: TenantRule[];
  analysis: AnalysisSettings;
  eventsPerObject: number;
  logger: LoggerService;
  /** Cluster → its configured environment (`fluxFleet.clusters[].environment`), which wins over labels (rules §11). */
  environments?: ReadonlyMap<string, string>;
  /** The clock; `Date.now` by default. */
  now?: () => number;
}

/**
 * The clusters of the index and their lifecycle: each cluster's records, the view derived from them and the
 * passes that derive it; whether this replica watches the cluster (its watch pushes connection changes), was
 * restored from a snapshot, or follows the health another replica reports; staleness; readiness. The writable
 * side of the index, for the watchers and persistence; {@link FleetIndex} reads it.
 */
export class FleetClusters implements WatchTargets {
  private readonly entries = new Map<string, ClusterEntry>();
  private readonly listeners = new Set<(changes: FleetIndexChange[]) => void>();
  /**
   * The pool every cluster's records, workloads and restored snapshots share values through. 2^16 entries a
   * generation: a V8 Map of 50,000 entries already has room for 65,536, so this limit shares more for the same maps
   * (index benchmark at M, one run each: heap per object 656 B at 50,000, 633 B at 65,536, 637 B at 32,768, 659 B
   * at 80,000).
   */
  readonly valuePool = new ValuePool(65_536);
  readonly now: () => number;
  private readyResolve?: () => void;
  /**
   * Clusters readiness still waits for (in their first sync), until it resolves. Each change re-reads the cluster
   * it concerns only: re-reading every cluster on every change of any of them was quadratic in the clusters (at
   * fleet L, 100 clusters and a change per list page, about half a million health reads during the first sync).
   */
  private notReady?: Set<ClusterEntry>;
  private readonly readyPromise: Promise<void>;
  /** When this index was made: {@link firstSyncProgress} holds nothing back for longer than its bound after. */
  private readonly createdAt: number;
  private closed = false;
  /** Re-reads the health of watched clusters: a lag passes its thresholds without any event (rules §15). */
  private readonly healthTimer: NodeJS.Timeout;

  private measuredUtilisation?: (cluster: string) => ReadonlyMap<string, number> | undefined;

  constructor(private readonly options: FleetClustersOptions) {
    this.now = options.now ?? Date.now;
    this.createdAt = this.now();
    for (const name of options.clusters) {
      const entry = createClusterEntry(name, {
        pool: this.valuePool,
        logger: options.logger,
        eventsPerObject: options.eventsPerObject,
        analysis: options.analysis,
        now: this.now,
        storeChanged: () => this.storeChanged(name),
        analyse: () => this.analyse(entry),
        rederiveStatus: () => this.rederiveStatus(entry),
        fleetInFirstSync: () => this.notReady !== undefined,
        analysisInputsChanged: () => this.analysisInputsChanged(entry),
        applyMeasurements: () => this.applyMeasurements(entry),
        configuredEnvironment: options.environments?.get(name),
      });
      this.entries.set(name, entry);
    }
    this.readyPromise = new Promise(resolve => {
      this.readyResolve = resolve;
    });
    this.notReady = new Set(this.entries.values());
    this.checkReady();
    this.healthTimer = setInterval(() => {
      for (const entry of this.entries.values()) if (entry.watch) this.healthMayHaveChanged(entry);
    }, HEALTH_CHECK_INTERVAL_MS);
    this.healthTimer.unref?.();
  }

  /** The names of the configured clusters, in configuration order. */
  clusterNames(): string[] {
    return [...this.entries.keys()];
  }

  /** Every cluster, in configuration order. */
  all(): ClusterEntry[] {
    return [...this.entries.values()];
  }

  /** A configured cluster; throws on a name that is not configured. */
  entry(cluster: string): ClusterEntry {
    const entry = this.entries.get(cluster);
    if (!entry) throw new Error(`Flux Fleet has no cluster named '${cluster}'`);
    return entry;
  }

  /** A configured cluster, or undefined. */
  find(cluster: string): ClusterEntry | undefined {
    return this.entries.get(cluster);
  }

  /** The store a cluster's watcher fills. */
  storeOf(cluster: string): ClusterStore {
    return this.entry(cluster).store;
  }

  /** Where a cluster's watcher delivers what it reads: the cluster's store. */
  sinksOf(cluster: string): ClusterStore {
    return this.storeOf(cluster);
  }

  /** This replica watches a cluster now; `health` reads its watch's health. */
  attachWatch(cluster: string, health: WatchHealthProbe): void {
    const entry = this.entry(cluster);
    entry.watch = health;
    if (entry.remote) {
      // what it shows came from another replica's snapshot: restored until this watch has synced
      entry.restoredAt ??= this.now();
      entry.remote = undefined;
    }
    const names = this.clusterNames();
    entry.scheduler.startRefresh((names.indexOf(cluster) + 1) / names.length);
    this.updateStaleness(entry);
  }

  /** This replica stops watching a cluster (another replica took it over, or this one stops). */
  detachWatch(cluster: string): void {
    const entry = this.entry(cluster);
    entry.watch = undefined;
    entry.scheduler.stopRefresh();
    // until the new holder's snapshot arrives, what is shown is as last seen here
    entry.restoredAt ??= this.now();
    this.updateStaleness(entry);
  }

  /**
   * A watch's connection or what one of its watches does changed (pushed by the watcher): restoredness,
   * analysis, staleness, readiness and the announced status follow.
   */
  connectionChanged(cluster: string): void {
    const entry = this.entry(cluster);
    const listed = entry.watch?.listed() ?? false;
    if (listed && !entry.listed) {
      entry.restoredAt = undefined;
      entry.syncedOnce = true;
      // the list is complete: analyse now rather than after the debounce
      if (!this.closed) entry.scheduler.analyseNow();
    }
    entry.listed = listed;
    this.healthMayHaveChanged(entry);
  }

  /** Staleness, readiness, and one announcement (signal and log line) per change of a cluster's status. */
  private healthMayHaveChanged(entry: ClusterEntry): void {
    entry.servedHealth = undefined;
    const health = this.healthOf(entry);
    this.updateStaleness(entry, health);
    this.checkReady(entry, health);
    if (health.status === entry.announcedStatus) return;
    const previous = entry.announcedStatus;
    entry.announcedStatus = health.status;
    if (health.status === 'lagging') {
      this.options.logger.info(
        `Flux Fleet: cluster '${entry.name}' is lagging by ${Math.round((health.lagMs ?? 0) / 100) / 10} s: ${describeBehind(health.behind ?? [])}`,
      );
    } else if (health.status === 'synced' && previous !== undefined) {
      this.options.logger.info(`Flux Fleet: cluster '${entry.name}' is synced`);
    }
    // no object changed, but open pages show the cluster's health: a change naming no object but the cluster's
    // services makes the fleet's pages and those services' entity pages fetch it again
    entry.version++;
    this.emit([{ cluster: entry.name, keys: [], structural: false, services: [...entry.view.serviceNames()] }]);
  }

  /** Whether this replica watches a cluster. */
  isWatching(cluster: string): boolean {
    return this.entry(cluster).watch !== undefined;
  }

  /** The health another replica reported for a cluster this one does not watch. */
  remoteHealth(cluster: string): RemoteHealth | undefined {
    return this.entry(cluster).remote;
  }

  /** Updates the health another replica reported (its lease expired, or it is back). */
  setRemoteHealth(cluster: string, health: RemoteHealth): void {
    const entry = this.entry(cluster);
    if (entry.watch) return;
    entry.remote = health;
    this.updateStaleness(entry);
  }

  /**
   * Replaces a cluster's content with a restored snapshot: served at once, marked stale until its watch has
   * resynced (or, for a cluster another replica watches, with that replica's health).
   */
  restore(
    cluster: string,
    snapshot: ClusterSnapshotData,
    options: { restoredAt: number; remote?: RemoteHealth },
  ): void {
    const entry = this.entry(cluster);
    entry.view.seedUpdatedAt(
      new Map(snapshot.objects.map((r, i) => [r.key, snapshot.updatedAt[i] ?? options.restoredAt])),
    );
    entry.store.restore(snapshot);
    if (options.remote) {
      entry.remote = options.remote;
      entry.restoredAt = undefined;
    } else {
      entry.restoredAt = options.restoredAt;
    }
    if (!this.closed) entry.scheduler.analyseNow();
    this.updateStaleness(entry);
    this.checkReady(entry);
  }

  /** What a snapshot of a cluster this replica watches is written from; undefined while it is not synced. */
  snapshotOf(cluster: string): { source: ClusterSnapshotSource; health: ClusterHealth } | undefined {
    const entry = this.entry(cluster);
    return snapshotSourceOf(entry, this.healthOf(entry), this.now);
  }

  /**
   * The delta of a cluster this replica watches for the objects an index change named (see deltaSourceOf);
   * undefined when it does not watch it.
   */
  deltaOf(cluster: string, keys: Iterable<string>, sent: SentSupporting): ClusterDeltaData | undefined {
    const entry = this.entry(cluster);
    return deltaSourceOf(entry, keys, this.healthOf(entry), sent, this.now());
  }

  /**
   * Applies a delta the replica watching a cluster wrote: its records go through this replica's store and
   * derivation as if read here, so the same answers and signals follow. Ignored while this replica watches the
   * cluster itself.
   */
  applyDelta(cluster: string, delta: ClusterDeltaData, remote: RemoteHealth): void {
    const entry = this.entry(cluster);
    if (entry.watch) return;
    entry.view.seedUpdatedAt(
      new Map(delta.objects.map((r, i) => [r.key, delta.updatedAt[i] ?? this.now()])),
    );
    entry.store.applyDelta(delta);
    // never analysed here (its watch stopped during its first list, which holds the analysis back): at once, as
    // a restored snapshot is; later deltas take the usual debounce
    if (entry.view.analysedAt === undefined && !this.closed) entry.scheduler.analyseNow();
    entry.remote = remote;
    entry.restoredAt = undefined;
    // staleness, readiness, and the status change announced to this replica's open pages too
    this.healthMayHaveChanged(entry);
  }

  /**
   * A run of deltas was applied at once (at start, or after missed notices): what waits for an analysis is
   * analysed now, as after the first delta, not after the debounce. Whether anything waits, not for how long:
   * deltas applied within the millisecond of the catch-up waited 0 ms, and a replica started then served the
   * cluster empty until the debounce (a flaky `replicasAgree` test, 7 runs in 20).
   */
  caughtUp(cluster: string): void {
    const entry = this.entry(cluster);
    if (entry.watch || this.closed) return;
    if (entry.scheduler.waiting) entry.scheduler.analyseNow();
  }

  /** A cluster's health as the API shows it, read now (what decides staleness, readiness and announcements). */
  healthOf(entry: ClusterEntry): ClusterHealth {
    return healthOf(entry, this.now());
  }

  /**
   * A cluster's health for an answer: the one last read, while the cluster's view, connection, watches,
   * restoredness and staleness are as they were then and it is under {@link SERVED_HEALTH_MAX_AGE_MS} old.
   */
  servedHealthOf(entry: ClusterEntry): ClusterHealth {
    const now = this.now();
    const served = entry.servedHealth;
    if (
      served &&
      now - served.at < SERVED_HEALTH_MAX_AGE_MS &&
      served.version === entry.version &&
      served.restoredAt === entry.restoredAt &&
      served.remote === entry.remote &&
      served.staleSince === entry.staleSince
    ) {
      return served.health;
    }
    const health = healthOf(entry, now);
    // a cluster that turned synced with time (not with an event) is ready once an answer says so, rather than at
    // the next health check up to a second later: the capacity reasons then no longer say the first sync is on
    if (this.notReady?.has(entry)) this.checkReady(entry, health);
    entry.servedHealth = {
      health,
      at: now,
      version: entry.version,
      restoredAt: entry.restoredAt,
      remote: entry.remote,
      staleSince: entry.staleSince,
    };
    return health;
  }

  /** The version of one cluster's view (changes whenever its objects or derived answers change). */
  clusterVersion(cluster: string): number {
    return this.entry(cluster).version;
  }

  /** Changes whenever objects of one cluster came or went. */
  clusterMembership(cluster: string): number {
    return this.entry(cluster).view.membership;
  }

  /**
   * Bumped by every analysis of any cluster: equal versions mean equal owners, boundaries, services and findings
   * of every object (status changes, which bump {@link fleetVersion}, leave them as they are).
   */
  analysisVersion(): string {
    let version = '';
    for (const entry of this.entries.values()) version += `${entry.view.analysis}.`;
    return version;
  }

  /** Bumped on every change of any cluster: equal versions mean equal answers. */
  fleetVersion(): string {
    let version = '';
    for (const entry of this.entries.values()) version += `${entry.version}.`;
    return version;
  }

  /** Resolves when every cluster has synced, been restored, or failed. */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /**
   * While some cluster this replica watches is in the fleet's first sync (in its first list, {@link ready} not yet
   * resolved): how many of the clusters it watches have synced or failed, of how many; else undefined. Capacity
   * collection and snapshot writing wait for it, so that the lists come first. Clusters another replica watches
   * do not count: each replica's first sync would otherwise wait for the other's snapshots, which wait for it. Nor
   * does anything after {@link FIRST_SYNC_PRIORITY_MS}: a cluster whose first list keeps failing stays `syncing`,
   * and must not hold back the rest for ever.
   */
  firstSyncProgress(): { done: number; clusters: number } | undefined {
    const waiting = this.notReady;
    if (!waiting || this.now() - this.createdAt > FIRST_SYNC_PRIORITY_MS) return undefined;
    let watched = 0;
    let listing = 0;
    for (const entry of this.entries.values()) {
      if (!entry.watch) continue;
      watched++;
      if (waiting.has(entry)) listing++;
    }
    return listing > 0 ? { done: watched - listing, clusters: watched } : undefined;
  }

  /** Calls the listener after each batch of changes; returns an unsubscribe function. */
  subscribe(listener: (changes: FleetIndexChange[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Where the analyses read the measured utilisation of a cluster's controllers (capacity collection, started
   * after the index): the `shard-over-capacity` finding uses it where there is one, from the next analysis on.
   */
  useMeasuredUtilisation(source: (cluster: string) => ReadonlyMap<string, number> | undefined): void {
    this.measuredUtilisation = source;
  }

  /** Stops every timer. */
  close(): void {
    this.closed = true;
    clearInterval(this.healthTimer);
    for (const entry of this.entries.values()) entry.scheduler.close();
  }

  // ---------------------------------------------------------------- the passes

  private storeChanged(cluster: string) {
    if (!this.closed) this.entries.get(cluster)?.scheduler.changed();
  }

  /**
   * Analyses the cluster's newest records, commits them (they are what the analysis derived from), applies the
   * result to the view and releases deleted slots. The analysis runs before the commit on purpose: it reads the
   * pending records as they came, where after the commit every record would be built back from its packed columns
   * (10-17 % more CPU for a first sync, measured).
   */
  private analyse(entry: ClusterEntry) {
    if (this.closed) return;
    const { store, view } = entry;
    const now = this.now();
    let analysis;
    const measured = this.measuredUtilisation?.(entry.name);
    try {
      analysis = analyseStore(store, this.options.tenants, now, measured);
    } catch (error) {
      // analyseCluster never throws on odd records; a bug must still not take the index down
      this.options.logger.error(`Flux Fleet could not analyse cluster '${entry.name}': ${error}`);
      return;
    }
    entry.analysed = {
      loads: analysis.loads,
      utilisation: measuredUtilisationSignature(measured, analysis.loads),
      ...(analysis.changesByTimeAt !== undefined && { changesByTimeAt: analysis.changesByTimeAt }),
    };
    const changes = store.commit();
    const result = view.applyAnalysis(analysis, changes.changedKeys, now);
    // slots of deleted objects can be given to new ones now that the view shows them no more
    store.release(slot => view.holds(slot));
    for (const key of changes.changedKeys) result.keys.add(key);
    for (const key of changes.eventKeys) result.keys.add(key);
    this.publish(entry, result, true);
  }

  /** Whether a refresh should analyse the cluster again (see AnalysisPasses.refreshDue). */
  private analysisInputsChanged(entry: ClusterEntry): boolean {
    const last = entry.analysed;
    const at = entry.view.analysedAt;
    if (!last || at === undefined) return true;
    const now = this.now();
    return (
      (last.changesByTimeAt !== undefined && now >= last.changesByTimeAt) ||
      now - at >= this.options.analysis.refreshIntervalMs * MAX_REFRESH_INTERVALS
    );
  }

  /**
   * Brings a cluster's findings up to its controllers' latest measurements when they change what its last analysis
   * says (their signature, rules §2a): only its `shard-over-capacity` findings depend on them, so those are made
   * again from that analysis's loads, without analysing again. Analysed again instead, 18 of the 20 clusters of the
   * product benchmark at fleet M were analysed once the first measurements came (controllers the estimate puts over
   * capacity, measured within), 60-160 ms of CPU each, and one with a controller measured over capacity would be at
   * every refresh (its percent moves).
   */
  private applyMeasurements(entry: ClusterEntry): void {
    const last = entry.analysed;
    if (this.closed || !last) return;
    const measured = this.measuredUtilisation?.(entry.name);
    const utilisation = measuredUtilisationSignature(measured, last.loads);
    if (utilisation === last.utilisation) return;
    entry.analysed = { ...last, utilisation };
    entry.view.replaceFindings(withMeasuredUtilisation({ findings: entry.view.findings, loads: last.loads }, measured));
    entry.version++;
  }

  /**
   * Commits the records whose status alone changed and re-derives their objects (their `reconcile-not-handled`
   * findings included). Structural changes stay pending for their analysis.
   */
  private rederiveStatus(entry: ClusterEntry): void {
    if (this.closed) return;
    const changes = entry.store.commitStatus();
    const result = entry.view.applyStatus(changes.statusKeys, this.now());
    const byTime = result.changesByTimeAt;
    if (entry.analysed && byTime !== undefined && byTime < (entry.analysed.changesByTimeAt ?? Infinity)) {
      entry.analysed = { ...entry.analysed, changesByTimeAt: byTime };
    }
    for (const key of changes.eventKeys) result.keys.add(key);
    this.publish(entry, result, false);
  }

  private publish(entry: ClusterEntry, result: ViewChanges, structural: boolean) {
    if (result.keys.size === 0 && !structural) return;
    entry.version++;
    if (result.keys.size === 0) return;
    this.emit([{ cluster: entry.name, keys: [...result.keys], structural, services: [...result.services] }]);
  }

  private emit(changes: FleetIndexChange[]) {
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch (error) {
        this.options.logger.warn(`Flux Fleet index listener failed: ${error}`);
      }
    }
  }

  private updateStaleness(entry: ClusterEntry, health: ClusterHealth = this.healthOf(entry)) {
    const since = staleSinceOf(entry, health, this.now());
    if ((since === undefined) === (entry.staleSince === undefined)) return;
    entry.staleSince = since;
    // every object of the cluster changed its `stale` flag: said once for the cluster, not per object
    entry.version++;
    this.emit([
      { cluster: entry.name, keys: [], structural: false, everyObject: true, services: [...entry.view.serviceNames()] },
    ]);
  }

  /** Readiness: every cluster synced or known not to be syncing (`entry` alone changed, when given). */
  private checkReady(entry?: ClusterEntry, health?: ClusterHealth) {
    const waiting = this.notReady;
    if (!waiting) return;
    for (const e of entry ? [entry] : this.entries.values()) {
      const h = e === entry && health ? health : this.healthOf(e);
      if (h.synced || h.status !== 'syncing') waiting.delete(e);
      else waiting.add(e);
    }
    if (waiting.size > 0) return;
    this.notReady = undefined;
    this.readyResolve?.();
    this.readyResolve = undefined;
  }
}
