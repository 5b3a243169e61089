import type { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterDeltaData } from '../records/clusterDeltaTypes';
import type { ClusterEntry } from './ClusterEntry';

/**
 * The versions of the supporting objects last sent in a delta of one cluster (the store's maps change version
 * whenever their content changes): a version, not a copy of each map walked at every delta.
 */
export interface SentSupporting {
  controllers?: number;
  namespaces?: number;
  workloads?: number;
}

/**
 * The delta of a cluster this replica watches for the objects `keys` (an index change): their records as held now
 * (or their removal), their events, and each supporting list whole when it changed since `sent`, which is updated.
 * Undefined when this replica does not watch the cluster.
 */
export function deltaSourceOf(
  entry: ClusterEntry,
  keys: Iterable<string>,
  health: ClusterHealth,
  sent: SentSupporting,
  now: number,
): ClusterDeltaData | undefined {
  if (!entry.watch) return undefined;
  const { store, view } = entry;
  const delta: ClusterDeltaData = {
    format: 1,
    objects: [],
    updatedAt: [],
    removed: [],
    events: [],
    health,
  };
  for (const key of keys) {
    const record = store.objects.get(key);
    if (!record) {
      delta.removed.push(key);
      continue;
    }
    delta.objects.push(record);
    delta.updatedAt.push(view.get(key)?.updatedAt ?? now);
    delta.events.push([key, store.events.get(key) ?? []]);
  }
  if (store.controllers.version !== sent.controllers) {
    delta.controllers = [...store.controllers.values()];
    sent.controllers = store.controllers.version;
  }
  if (store.namespaces.version !== sent.namespaces) {
    delta.namespaces = [...store.namespaces.values()];
    sent.namespaces = store.namespaces.version;
  }
  if (store.workloads.version !== sent.workloads) {
    delta.workloads = store.persistedWorkloads();
    sent.workloads = store.workloads.version;
  }
  return delta;
}
