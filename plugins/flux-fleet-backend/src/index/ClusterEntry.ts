import type { ClusterHealth, ClusterStatus } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterView } from '../derive/ClusterView';
import type { ClusterStore } from '../records/ClusterStore';
import type { WatchHealthProbe } from '../watch/startWatching';
import type { AnalysisScheduler } from './AnalysisScheduler';

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
  /** Bumped on every change of the view, for caches. */
  version: number;
}
