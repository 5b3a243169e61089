import { generateFleet } from '@flux-fleet/fleet-sim';
import type { FleetClusters } from '../index/FleetClusters';
import type { InformerSink } from '../watch/ResourceInformer';

/** A Flux object as the simulator's generator built it, and the sink of its kind in the index's store. */
export interface GeneratedObject {
  cluster: string;
  raw: { metadata: { name: string; namespace?: string }; status?: { conditions?: unknown[] } };
  sink: InformerSink;
}

/**
 * Lists a generated fleet into the index's stores as a watch would deliver it: the Flux kinds, Deployments (the
 * workloads services come from) and namespaces; no server is started. Returns the Flux objects delivered, to
 * change them later. The clusters must be configured in `fleet`; the analyses run on its schedulers' timers.
 */
export function loadGeneratedFleet(
  fleet: FleetClusters,
  generated: ReturnType<typeof generateFleet>,
): GeneratedObject[] {
  const delivered: GeneratedObject[] = [];
  for (const cluster of generated) {
    const store = fleet.storeOf(cluster.name);
    for (const served of cluster.served) {
      const { type } = served;
      const version = served.versions[0];
      const resource = { group: type.group, version, kind: type.kind, plural: type.plural };
      let sink: InformerSink | undefined;
      if (type.flux) sink = store.flux(resource);
      else if (type.kind === 'Deployment') sink = store.supporting('workloads', resource);
      else if (type.kind === 'Namespace') sink = store.supporting('namespaces', resource);
      if (!sink) continue;
      const apiVersion = type.group ? `${type.group}/${version}` : version;
      sink.listStarted();
      for (const stored of cluster.store.table(type).objects.values()) {
        const raw = { apiVersion, kind: type.kind, ...JSON.parse(stored.body) };
        sink.upsert(raw);
        if (type.flux) delivered.push({ cluster: cluster.name, raw, sink });
      }
      sink.listFinished();
    }
  }
  return delivered;
}
