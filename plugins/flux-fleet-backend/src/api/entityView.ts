import type {
  ClusterHealth,
  EntityLink,
  EntityView,
  FleetObject,
  InstanceSummary,
} from '@flux-fleet/plugin-flux-fleet-common';

/**
 * A catalog entity's view (`GET /entity/…`, rules §6): its objects, the clusters they are on (and every cluster
 * not yet synced, which may hold more), and the instances that reconcile or contest them. An instance lists only
 * the controllers of the entity's objects: all of them made most of the answer at fleet M (a dozen controllers
 * per instance, on every cluster), and the entity's page shows none of the others; `GET /instances` has them all.
 */
export function buildEntityView(
  entity: { entityRef: string; link: EntityLink },
  objects: FleetObject[],
  fleet: {
    /** Every cluster's health, as `GET /clusters` answers it. */
    clusters: ClusterHealth[];
    instances(cluster: string): InstanceSummary[];
  },
): EntityView {
  const clusterNames = new Set(objects.map(o => o.ref.cluster));
  // the controllers that reconcile (or contest) the entity's objects, by cluster/instance/controller
  const controllerKeys = new Set<string>();
  for (const o of objects) {
    const { cluster } = o.ref;
    if (o.owner.instance !== null) {
      controllerKeys.add(`${cluster}/${o.owner.instance}/${o.owner.controller}`);
    }
    for (const c of o.owner.candidates ?? []) {
      controllerKeys.add(`${cluster}/${c.instance}/${c.controller}`);
    }
  }
  const instanceKeys = new Set([...controllerKeys].map(k => k.slice(0, k.lastIndexOf('/'))));
  return {
    entityRef: entity.entityRef,
    link: entity.link,
    objects,
    clusters: fleet.clusters.filter(c => clusterNames.has(c.name) || !c.synced),
    instances: [...clusterNames]
      .flatMap(cluster => fleet.instances(cluster))
      .filter(i => instanceKeys.has(`${i.cluster}/${i.name}`))
      .map(i => ({
        ...i,
        controllers: i.controllers.filter(c => controllerKeys.has(`${i.cluster}/${i.name}/${c.name}`)),
      })),
  };
}
