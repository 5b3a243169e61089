import type {
  ClusterHealth,
  FluxController,
  FluxObjectRecord,
  NamespaceRecord,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { StoredEvent } from './fluxEvents';
import type { PersistedWorkload } from './snapshotTypes';

/**
 * What changed in one cluster's store since the previous delta, as the replica watching it holds it now: the
 * records of the objects that changed (absolute, so applying a delta twice changes nothing), the keys removed,
 * the events of the changed objects, and each list of supporting objects whole when any of it changed. A
 * replica that does not watch the cluster applies it to its own store and derives the same answers.
 */
export interface ClusterDeltaData {
  format: 1;
  objects: FluxObjectRecord[];
  /** When each object last changed (ms), aligned with `objects`. */
  updatedAt: number[];
  removed: string[];
  /** Events of the changed objects; an empty list removes them. */
  events: Array<[string, StoredEvent[]]>;
  controllers?: FluxController[];
  namespaces?: NamespaceRecord[];
  workloads?: PersistedWorkload[];
  /** The watching replica's health of the cluster when the delta was taken. */
  health: ClusterHealth;
}
