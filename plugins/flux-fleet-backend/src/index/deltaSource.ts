import type { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterDeltaData } from '../records/clusterDeltaTypes';
import type { ClusterEntry } from './ClusterEntry';

/**
 * The supporting objects last sent in a delta of one cluster, by reference: the store replaces a value only
 * when it changed, so comparing references finds what changed without comparing values.
 */
export interface SentSupporting {
  controllers?: Map<string, unknown>;
  namespaces?: Map<string, unknown>;
  workloads?: Map<string, unknown>;
}

function changedSince<T>(map: ReadonlyMap<string, T>, sent: Map<string, unknown> | undefined): boolean {
  if (!sent || sent.size !== map.size) return true;
  for (const [key, value] of map) if (sent.get(key) !== value) return true;
  return false;
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
  if (changedSince(store.controllers, sent.controllers)) {
    delta.controllers = [...store.controllers.values()];
    sent.controllers = new Map(store.controllers);
  }
  if (changedSince(store.namespaces, sent.namespaces)) {
    delta.namespaces = [...store.namespaces.values()];
    sent.namespaces = new Map(store.namespaces);
  }
  if (changedSince(store.workloads, sent.workloads)) {
    delta.workloads = store.persistedWorkloads();
    sent.workloads = new Map(store.workloads);
  }
  return delta;
}
