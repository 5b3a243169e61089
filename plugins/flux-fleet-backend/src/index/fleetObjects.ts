import {
  DependencyStep,
  dependencyReferencesOf,
  FleetObject,
  FleetObjectDetail,
  FluxKind,
  FluxObjectRef,
  inventoryEntries,
  isSuspended,
  referenceKey,
  sourceReferenceOf,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterStore } from '../records/ClusterStore';
import type { ClusterView } from '../derive/ClusterView';
import { toFluxEvent } from '../records/fluxEvents';
import type { IndexedObject } from '../derive/IndexedObject';

/** Whether a cluster's objects are stale (its cluster unreachable, or restored from a snapshot), and since when. */
export interface Staleness {
  stale: boolean;
  since?: string;
}

/**
 * An indexed object as the API serves it (`FleetObject`), plus `problems`: what was malformed in the object as
 * the cluster served it (fields ignored, messages cut), when anything was.
 */
export function toFleetObject(
  o: IndexedObject,
  store: ClusterStore,
  staleness: Staleness,
): FleetObject & { problems?: string[] } {
  const r = o.record;
  const sourceRef = sourceReferenceOf(r);
  const sourceUrl = sourceRef
    ? store.objects.urlOf(referenceKey(r.cluster, sourceRef))
    : undefined;
  return {
    key: o.key,
    ref: refOf(o),
    apiVersion: r.apiVersion,
    labels: r.labels,
    state: o.state,
    stale: staleness.stale,
    ...(staleness.stale && staleness.since && { staleSince: staleness.since }),
    owner: o.owner,
    boundary: o.boundary,
    service: o.service,
    suspended: isSuspended(r),
    ...(r.interval !== undefined && { interval: r.interval }),
    ...(sourceRef && { sourceRef }),
    ...(sourceUrl !== undefined && { sourceUrl }),
    ...(r.url !== undefined && { url: r.url }),
    dependsOn: dependencyReferencesOf(r),
    findings: [...o.findings],
    updatedAt: new Date(o.updatedAt).toISOString(),
    ...(r.problems && { problems: [...r.problems] }),
  };
}

function refOf(o: IndexedObject): FluxObjectRef {
  const r = o.record;
  return { cluster: r.cluster, namespace: r.namespace, kind: r.kind, name: r.name };
}

/**
 * An object with what its detail view needs: its `dependsOn` chain resolved depth-first (each dependency once,
 * so a cycle ends), the root cause of a blocked object (the deepest dependency that is not ready), its
 * inventory, recent events and findings.
 */
export function toFleetObjectDetail(
  o: IndexedObject,
  store: ClusterStore,
  view: ClusterView,
  staleness: Staleness,
): FleetObjectDetail {
  const dependencies: DependencyStep[] = [];
  const visited = new Set<string>([o.key]);
  const walk = (from: IndexedObject, depth: number) => {
    for (const ref of dependencyReferencesOf(from.record)) {
      const key = referenceKey(from.record.cluster, ref);
      if (visited.has(key)) continue;
      visited.add(key);
      const target = view.get(key);
      dependencies.push({
        ref: {
          cluster: from.record.cluster,
          namespace: ref.namespace,
          kind: ref.kind as FluxKind,
          name: ref.name,
        },
        depth,
        state: target ? target.stateName : null,
        ...(target?.state.reason !== undefined && { reason: target.state.reason }),
        ...(target?.state.message !== undefined && {
          message: target.state.message,
        }),
      });
      if (target) walk(target, depth + 1);
    }
  };
  walk(o, 1);

  let rootCause: DependencyStep | undefined;
  if (o.state.state === 'blocked') {
    for (const step of dependencies) {
      if (step.state !== 'ready' && (!rootCause || step.depth > rootCause.depth)) {
        rootCause = step;
      }
    }
  }

  return {
    ...toFleetObject(o, store, staleness),
    dependencies,
    ...(rootCause && { rootCause }),
    inventory: inventoryEntries(o.record),
    events: (store.events.get(o.key) ?? []).map(toFluxEvent),
    findingDetails: view.findingsByKey.get(o.key) ?? [],
  };
}
