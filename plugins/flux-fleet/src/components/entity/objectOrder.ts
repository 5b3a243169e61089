import {
  FleetObject,
  RECONCILER_KINDS,
} from '@flux-fleet/plugin-flux-fleet-common';
import { compareStateSeverity } from '../../lib/stateText';

/** Reconcilers first (they are what deploys), then the worst state, then by name: what a reader wants first. */
export function compareObjectsForReading(
  a: FleetObject,
  b: FleetObject,
): number {
  const reconcilerA = RECONCILER_KINDS.includes(a.ref.kind) ? 0 : 1;
  const reconcilerB = RECONCILER_KINDS.includes(b.ref.kind) ? 0 : 1;
  return (
    reconcilerA - reconcilerB ||
    compareStateSeverity(a.state.state, b.state.state) ||
    a.key.localeCompare(b.key)
  );
}

/** The objects grouped by cluster, clusters by name, objects in reading order. */
export function objectsByCluster(
  objects: FleetObject[],
): Array<{ cluster: string; objects: FleetObject[] }> {
  const groups = new Map<string, FleetObject[]>();
  for (const object of objects) {
    const list = groups.get(object.ref.cluster) ?? [];
    list.push(object);
    groups.set(object.ref.cluster, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([cluster, list]) => ({
      cluster,
      objects: list.sort(compareObjectsForReading),
    }));
}
