import { analyseCluster, ClusterAnalysis } from '@flux-fleet/plugin-flux-fleet-common';
import type { TenantRule } from '../config/FleetConfig';
import type { ClusterStore } from '../records/ClusterStore';
import { resolveTenantMapping } from './resolveTenantMapping';

/**
 * The analysis (`analyseCluster` of `-common`) of a cluster's committed records, at `now`, with the measured
 * utilisation of its controllers when capacity collection has any (by `instance/deployment`). Reads only.
 */
export function analyseStore(
  store: ClusterStore,
  tenants: TenantRule[],
  now: number,
  measuredUtilisation?: ReadonlyMap<string, number>,
): ClusterAnalysis {
  return analyseCluster({
    cluster: store.cluster,
    controllers: [...store.controllers.values()],
    namespaces: store.namespaces,
    workloads: store.workloads,
    tenantMapping: resolveTenantMapping(tenants, store.cluster, store.namespaces.keys()),
    objects: store.objects.values(),
    crds: [...store.crds.values()],
    now,
    ...(measuredUtilisation ? { measuredUtilisation } : {}),
  });
}
