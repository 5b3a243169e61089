import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ClusterHealth, ClusterStatus, ControllerLoad, ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import type { AnalysisSettings } from '../config/FleetConfig';
import { ClusterView } from '../derive/ClusterView';
import { ClusterStore } from '../records/ClusterStore';
import type { WatchHealthProbe } from '../watch/startWatching';
import { AnalysisScheduler } from './AnalysisScheduler';

/** A cluster's health as read for the API, and what it was read from. */
export interface ServedHealth {
  health: ClusterHealth;
  /** When it was read (`FleetClusters.now`). */
  at: number;
  /** The entry's `version`, `restoredAt`, `remote` and `staleSince` then: a change of any reads it again. */
  version: number;
  restoredAt?: number;
  remote?: RemoteHealth;
  staleSince?: number;
}

/** The health of a cluster that another replica watches, as its last snapshot says. */
export type RemoteHealth = ClusterHealth;

/**
 * One configured cluster of the index: its records (filled by its watch), the view derived from them, the
 * scheduler of its analyses, and where its health comes from.
 */
export interface ClusterEntry {
  readonly name: string;
  readonly store: ClusterStore;
  readonly view: ClusterView;
  readonly scheduler: AnalysisScheduler;
  /** Reads the health of this replica's watch of the cluster, while it watches it. */
  watch?: WatchHealthProbe;
  /**
   * This replica's watch of the cluster has completed a first list (a later informer, for a kind installed since,
   * lists without holding the cluster's analyses back).
   */
  syncedOnce?: boolean;
  /** Restored from a snapshot, not yet resynced by a watch. */
  restoredAt?: number;
  /** Health reported by the replica that watches this cluster (when this one does not). */
  remote?: RemoteHealth;
  /** Whether its watch had listed everything at the last look (the first list, or a relist, complete). */
  listed?: boolean;
  /** The status last announced (rules §15), to announce and log each change once. */
  announcedStatus?: ClusterStatus;
  /** When the cluster's objects became stale, while they are. */
  staleSince?: number;
  /**
   * What the last analysis read besides the records: when it would come out differently by time alone (rules
   * §2a) and the signature of the measured utilisation it used over its estimated loads (when it ran:
   * `view.analysedAt`). A refresh analyses again only when one of these says so.
   */
  analysed?: { changesByTimeAt?: number; utilisation: string; loads: readonly ControllerLoad[] };
  /** Bumped on every change of the view, for caches. */
  version: number;
  /** The health last read for the API (`FleetClusters.servedHealthOf`), while it may still be served. */
  servedHealth?: ServedHealth;
  /** Its environment as configured (`fluxFleet.clusters[].environment`), when it is. */
  readonly configuredEnvironment?: string;
}

/**
 * A cluster's entry with its empty store and view, and the scheduler of its analyses, which calls back into the
 * fleet (`analyse`, `rederiveStatus`) and holds the first analysis while its first list goes on.
 */
export function createClusterEntry(
  name: string,
  deps: {
    pool: ValuePool;
    logger: LoggerService;
    eventsPerObject: number;
    analysis: AnalysisSettings;
    now: () => number;
    storeChanged: () => void;
    analyse: () => void;
    rederiveStatus: () => void;
    /** Whether some cluster of the fleet is still in its first sync (readiness waits for it). */
    fleetInFirstSync: () => boolean;
    /** Whether what the last analysis of this cluster read besides its records changed (ClusterEntry.analysed). */
    analysisInputsChanged: () => boolean;
    /** Brings the cluster's findings up to its controllers' latest measurements, without an analysis. */
    applyMeasurements: () => void;
    configuredEnvironment?: string;
  },
): ClusterEntry {
  const store = new ClusterStore(name, deps.pool, deps.logger, deps.eventsPerObject, deps.storeChanged);
  const entry: ClusterEntry = {
    name,
    store,
    view: new ClusterView(name, store.objects),
    scheduler: new AnalysisScheduler(
      deps.analysis,
      {
        analyse: deps.analyse,
        rederiveStatus: deps.rederiveStatus,
        structuralPending: () => store.peekChanges().structural,
        statusPending: () => {
          const changes = store.peekChanges();
          return changes.statusKeys.size > 0 || changes.eventKeys.size > 0;
        },
        // not "never analysed": an analysis of what the list has read so far must not end the hold
        initialSync: () =>
          entry.watch !== undefined &&
          entry.restoredAt === undefined &&
          !entry.syncedOnce &&
          !entry.watch.listed(),
        refreshDue: () =>
          !deps.fleetInFirstSync() && (entry.watch?.listed() ?? false) && deps.analysisInputsChanged(),
        applyMeasurements: deps.applyMeasurements,
      },
      deps.now,
    ),
    version: 0,
    ...(deps.configuredEnvironment && { configuredEnvironment: deps.configuredEnvironment }),
  };
  return entry;
}
