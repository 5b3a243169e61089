import type {
  FluxController,
  FluxObjectRecord,
  NamespaceRecord,
  WorkloadRecord,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { StoredEvent } from './fluxEvents';

/**
 * A workload as snapshots and deltas carry it: its inventory id and labels, which is all the index keeps, and its
 * `backstage.io/kubernetes-id` label once more as `kubernetesId`, the field an earlier version's replica reads
 * during a rolling upgrade. Snapshots of that version (whole workload records) read as these.
 */
export type PersistedWorkload = Pick<WorkloadRecord, 'id' | 'kubernetesId' | 'labels'>;

/** What a snapshot of one cluster holds: its store as read, and when each object last changed. */
export interface ClusterSnapshotData {
  format: 1;
  objects: FluxObjectRecord[];
  /** When each object last changed (ms), aligned with `objects`. */
  updatedAt: number[];
  controllers: FluxController[];
  namespaces: NamespaceRecord[];
  workloads: PersistedWorkload[];
  events: Array<[string, StoredEvent[]]>;
}

/**
 * What a snapshot is written from: a cluster's objects, each read when the encoder reaches it, and the rest of
 * its store as held. Objects are read a slice at a time so that a cluster's records are never all built at once:
 * built together they outlived the young generation while the snapshot was written, and their collection paused
 * the backend. An object deleted meanwhile is left out; one changed meanwhile is written as it is then (the index
 * version taken before the write changed, so the next write takes it again).
 */
export interface ClusterSnapshotSource {
  /** The keys of the cluster's objects when the snapshot was taken. */
  keys: readonly string[];
  /** An object's record and when it last changed, as the index holds them now; undefined once it is gone. */
  read(key: string): { record: FluxObjectRecord; updatedAt: number } | undefined;
  controllers: FluxController[];
  namespaces: NamespaceRecord[];
  workloads: PersistedWorkload[];
  events: Array<[string, StoredEvent[]]>;
}
