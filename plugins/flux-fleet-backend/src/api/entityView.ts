import type {
  ClusterHealth,
  EntityClusterHealth,
  EntityLink,
  EntityView,
  FleetObject,
  InstanceSummary,
  Owner,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { EntityObjectJson } from '@flux-fleet/plugin-flux-fleet-node';
import { joinJsonArray } from '../index/jsonParts';

/** What the entity view reads of each of its objects besides the object itself. */
export interface EntityObjectPlace {
  cluster: string;
  owner: Owner;
}

/** What the entity view reads of the fleet. */
export interface EntityViewFleet {
  /** Every cluster's health, as `GET /clusters` answers it. */
  clusters: ClusterHealth[];
  instances(cluster: string): InstanceSummary[];
}

/**
 * The clusters and instances of a catalog entity's view (`GET /entity/…`, rules §6), from where its objects are:
 * the clusters they are on (and every cluster not yet synced, which may hold more), and the instances that
 * reconcile or contest them. An instance lists only the controllers of the entity's objects: all of them made
 * most of the answer at fleet M (a dozen controllers per instance, on every cluster), and the entity's page shows
 * none of the others; `GET /instances` has them all.
 */
export function entityViewContext(
  objects: readonly EntityObjectPlace[],
  fleet: EntityViewFleet,
): Pick<EntityView, 'clusters' | 'instances'> {
  // cluster → instance → the controllers that reconcile (or contest) the entity's objects there
  const controllers = new Map<string, Map<string, Set<string>>>();
  const add = (cluster: string, instance: string, controller: string | null) => {
    let ofCluster = controllers.get(cluster);
    if (!ofCluster) controllers.set(cluster, (ofCluster = new Map()));
    let ofInstance = ofCluster.get(instance);
    if (!ofInstance) ofCluster.set(instance, (ofInstance = new Set()));
    if (controller !== null) ofInstance.add(controller);
  };
  const clusterNames = new Set<string>();
  for (const { cluster, owner } of objects) {
    clusterNames.add(cluster);
    if (owner.instance !== null) add(cluster, owner.instance, owner.controller);
    for (const c of owner.candidates ?? []) add(cluster, c.instance, c.controller);
  }
  const instances: InstanceSummary[] = [];
  for (const cluster of clusterNames) {
    const ofCluster = controllers.get(cluster);
    if (!ofCluster) continue;
    for (const i of fleet.instances(cluster)) {
      const wanted = ofCluster.get(i.name);
      if (wanted) instances.push({ ...i, controllers: i.controllers.filter(c => wanted.has(c.name)) });
    }
  }
  return {
    clusters: fleet.clusters
      .filter(c => clusterNames.has(c.name) || !c.synced)
      .map(entityClusterHealth),
    instances,
  };
}

/** A cluster's health as an entity's view answers it: without its fleet-wide counts and versions. */
export function entityClusterHealth(health: ClusterHealth): EntityClusterHealth {
  const {
    objectCount: _objectCount,
    countsByKind: _countsByKind,
    fluxVersions: _fluxVersions,
    servedVersions: _servedVersions,
    malformedCount: _malformedCount,
    ...rest
  } = health;
  return rest;
}

/** A catalog entity's view (`GET /entity/…`, rules §6) of its objects: see {@link entityViewContext}. */
export function buildEntityView(
  entity: { entityRef: string; link: EntityLink },
  objects: FleetObject[],
  fleet: EntityViewFleet,
): EntityView {
  return {
    entityRef: entity.entityRef,
    link: entity.link,
    objects,
    ...entityViewContext(
      objects.map(o => ({ cluster: o.ref.cluster, owner: o.owner })),
      fleet,
    ),
  };
}

/**
 * The same view as {@link buildEntityView} gives, as UTF-8 JSON, from each object's JSON as the index keeps it
 * (`FleetIndexService.entityObjectsJson`): kept objects' bytes are copied into the answer, not built and
 * serialised again (as `/objects` answers).
 */
export function entityViewJson(
  entity: { entityRef: string; link: EntityLink },
  found: { objects: readonly EntityObjectJson[]; totalCount: number },
  fleet: EntityViewFleet,
): Buffer {
  const { clusters, instances } = entityViewContext(found.objects, fleet);
  return joinJsonArray(
    `{"entityRef":${JSON.stringify(entity.entityRef)},"link":${JSON.stringify(entity.link)},"objects":[`,
    found.objects.map(o => o.json),
    `],"totalCount":${found.totalCount},"clusters":${JSON.stringify(clusters)},"instances":${JSON.stringify(instances)}}`,
  );
}
