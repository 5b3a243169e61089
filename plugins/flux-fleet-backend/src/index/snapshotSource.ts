import type { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterSnapshotSource } from '../records/snapshotTypes';
import type { ClusterEntry } from './ClusterEntry';

/**
 * What a snapshot of a cluster is written from, as this replica watches it, or undefined while the cluster has not
 * listed everything (a partial list must not replace a complete snapshot). A `lagging` cluster is written, with its
 * health, so other replicas show that it lags (rules §15). Records are read as the snapshot is written.
 */
export function snapshotSourceOf(
  entry: ClusterEntry,
  health: ClusterHealth,
  now: () => number,
): { source: ClusterSnapshotSource; health: ClusterHealth } | undefined {
  const listed = health.status === 'synced' || health.status === 'lagging';
  if (!entry.watch || !listed || entry.view.analysedAt === undefined) return undefined;
  const { store, view } = entry;
  const keys: string[] = [];
  for (const s of store.objects.existingSlots()) keys.push(store.objects.keyOf(s)!);
  return {
    health,
    source: {
      keys,
      read: key => {
        const record = store.objects.get(key);
        return record && { record, updatedAt: view.get(key)?.updatedAt ?? now() };
      },
      controllers: [...store.controllers.values()],
      namespaces: [...store.namespaces.values()],
      workloads: store.persistedWorkloads(),
      events: [...store.events],
    },
  };
}
