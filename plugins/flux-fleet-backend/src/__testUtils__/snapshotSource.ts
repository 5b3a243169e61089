import type { ClusterSnapshotData, ClusterSnapshotSource } from '../persistence/clusterSnapshot';

/** A snapshot source that reads the objects of a snapshot's data, as the index would have held them. */
export function snapshotSourceOf(data: ClusterSnapshotData): ClusterSnapshotSource {
  const objects = new Map(data.objects.map((record, i) => [record.key, { record, updatedAt: data.updatedAt[i] }]));
  return {
    keys: data.objects.map(r => r.key),
    read: key => objects.get(key),
    controllers: data.controllers,
    namespaces: data.namespaces,
    workloads: data.workloads,
    events: data.events,
  };
}
