/**
 * The demo's capacity story, set when a cluster is generated: the controllers' reconcile durations are scaled
 * so that on `staging-us-east-1` (the second archetype) the kustomize-controller is over capacity (ρ = 1.4:
 * slow builds, default `--concurrent=4`) and the helm-controller near it (ρ = 0.82: slow upgrades), on
 * `prod-eu-west-1` (the first) kustomize-controller-shard1 is near it (ρ = 0.8), and every other controller stays
 * at ρ ≤ 0.45 — at least 0.05 away from the 0.7 and 0.95 thresholds, so tests never sit on an edge.
 */
import type { ResourceType } from '../api/resourceTypes';
import type { ClusterPlan } from '../fleet/clusterPlan';
import type { SimulatedObject } from '../fleet/model';
import type { ClusterStore } from '../store/clusterStore';

/** Utilisation targets of the demo's loaded controllers, by archetype index and Deployment (in flux-system). */
export const DEMO_TARGETS: ReadonlyArray<{
  index: number;
  deployment: string;
  utilisation: number;
}> = [
  { index: 0, deployment: 'kustomize-controller-shard1', utilisation: 0.8 },
  { index: 1, deployment: 'kustomize-controller', utilisation: 1.4 },
  { index: 1, deployment: 'helm-controller', utilisation: 0.82 },
];
/** The highest utilisation of every other controller queue. */
export const DEMO_OK_CEILING = 0.45;

/** Scales the records' reconcile durations to the demo's targets (per controller queue: one per kind). */
export function shapeDemoLoad(
  plan: ClusterPlan,
  records: Iterable<SimulatedObject>,
): void {
  // Per controller queue: work (λ·S) of objects it alone owns (scaled), and of contested ones (left as they are).
  const queues = new Map<
    string,
    { scalable: SimulatedObject[]; work: number; fixed: number }
  >();
  for (const record of records) {
    if (!record.load || record.suspended || record.state === 'terminating')
      continue;
    const work = record.load.reconcileSeconds / record.load.intervalSeconds;
    for (const c of record.placement.controllers) {
      const key = `${c.instance}/${c.name}/${record.kind}`;
      const queue = queues.get(key) ?? { scalable: [], work: 0, fixed: 0 };
      if (record.placement.controllers.length === 1) {
        queue.scalable.push(record);
        queue.work += work;
      } else queue.fixed += work;
      queues.set(key, queue);
    }
  }
  const concurrency = new Map(
    plan.instances.flatMap(i =>
      i.controllers.map(c => [`${c.instance}/${c.name}`, c.concurrent]),
    ),
  );
  for (const [key, queue] of queues) {
    const controller = key.slice(0, key.lastIndexOf('/'));
    const c = concurrency.get(controller) ?? 4;
    const target = DEMO_TARGETS.find(
      t =>
        t.index === plan.index && `flux-system/${t.deployment}` === controller,
    )?.utilisation;
    const utilisation = (queue.work + queue.fixed) / c;
    let wanted = target;
    if (wanted === undefined && utilisation > DEMO_OK_CEILING)
      wanted = DEMO_OK_CEILING;
    if (wanted === undefined || queue.work <= 0) continue;
    const factor = Math.max(0, wanted * c - queue.fixed) / queue.work;
    for (const record of queue.scalable)
      record.load = {
        ...record.load!,
        reconcileSeconds: record.load!.reconcileSeconds * factor,
      };
  }
}

/** A duration as Go's `time.Duration.String()` writes it (`34.04s`, `1m12.5s`), to milliseconds. */
export function goDuration(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const minutes = Math.floor(ms / 60_000);
  const rest = Number(((ms % 60_000) / 1000).toFixed(3));
  return minutes > 0 ? `${minutes}m${rest}s` : `${rest}s`;
}

/**
 * Writes each Kustomization's modelled reconcile duration into its `status.history[0].lastReconciledDuration`
 * (Flux 2.7+), so that what the object says and what its controller's metrics say agree.
 */
export function writeObservedDurations(
  store: ClusterStore,
  type: ResourceType,
  records: Iterable<SimulatedObject>,
): void {
  for (const record of records) {
    if (record.kind !== 'Kustomization' || !record.load) continue;
    const duration = JSON.stringify(goDuration(record.load.reconcileSeconds));
    // One history entry per generated Kustomization: its only lastReconciledDuration.
    store.editBeforeLoad(type, record.namespace, record.name, json =>
      json.replace(
        /"lastReconciledDuration":"[^"]*"/,
        `"lastReconciledDuration":${duration}`,
      ),
    );
  }
}
