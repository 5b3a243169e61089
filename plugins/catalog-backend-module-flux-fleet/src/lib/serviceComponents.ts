import {
  ANNOTATION_LOCATION,
  ANNOTATION_ORIGIN_LOCATION,
  Entity,
  KubernetesValidatorFunctions,
} from '@backstage/catalog-model';
import {
  ANNOTATIONS,
  compareText,
  FleetObject,
} from '@flux-fleet/plugin-flux-fleet-common';
import { sortEntities } from './clusterEntities';
import { PROVIDER_ANNOTATION, SERVICES_LOCATION } from './entityLocation';
import { TenantOwners } from './TenantOwners';

/** Where a service was found in the fleet. */
export interface ServiceSighting {
  service: string;
  clusters: string[];
  /** Tenant → number of the service's objects in it. */
  tenants: Record<string, number>;
}

/** The services the Flux objects of some clusters belong to (rules §6), sorted by name. */
export function collectServices(objects: Iterable<FleetObject>): ServiceSighting[] {
  const found = new Map<
    string,
    { clusters: Set<string>; tenants: Map<string, number> }
  >();
  for (const object of objects) {
    if (!object.service) continue;
    let sighting = found.get(object.service);
    if (!sighting) {
      sighting = { clusters: new Set(), tenants: new Map() };
      found.set(object.service, sighting);
    }
    sighting.clusters.add(object.ref.cluster);
    const tenant = object.boundary?.tenant;
    if (tenant) {
      sighting.tenants.set(tenant, (sighting.tenants.get(tenant) ?? 0) + 1);
    }
  }
  return [...found.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([service, { clusters, tenants }]) => ({
      service,
      clusters: [...clusters].sort(),
      tenants: Object.fromEntries(
        [...tenants.entries()].sort(([a], [b]) => compareText(a, b)),
      ),
    }));
}

/** The tenant most of a service's objects are in (ties: the first by name), or null. */
function mainTenant(sighting: ServiceSighting): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [tenant, count] of Object.entries(sighting.tenants)) {
    if (count > bestCount) {
      best = tenant;
      bestCount = count;
    }
  }
  return best;
}

/**
 * A `Component` for each service found in the fleet whose name is a valid entity name, owned like the tenant most
 * of its objects are in. They carry `backstage.io/kubernetes-id`, so the Flux Fleet and Kubernetes cards work on
 * them at once. Callers leave out the services the catalog already has.
 */
export function buildServiceComponents(
  sightings: ServiceSighting[],
  options: { providerId: string; owners: TenantOwners },
): Entity[] {
  const entities: Entity[] = [];
  for (const sighting of sightings) {
    if (!KubernetesValidatorFunctions.isValidObjectName(sighting.service)) {
      continue;
    }
    entities.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name: sighting.service,
        description: `Service ${sighting.service}, found by Flux Fleet on ${
          sighting.clusters.length === 1 ? 'cluster' : 'clusters'
        } ${sighting.clusters.join(
          ', ',
        )}. Generated because the catalog has no Component for it: define one to replace it.`,
        annotations: {
          [ANNOTATION_LOCATION]: SERVICES_LOCATION,
          [ANNOTATION_ORIGIN_LOCATION]: SERVICES_LOCATION,
          [PROVIDER_ANNOTATION]: options.providerId,
          [ANNOTATIONS.kubernetesId]: sighting.service,
        },
        tags: ['flux'],
      },
      spec: {
        type: 'service',
        // Flux does not say which lifecycle a service is in; `unknown` says so rather than guessing.
        lifecycle: 'unknown',
        owner: options.owners.ownerOf(mainTenant(sighting)),
      },
    });
  }
  return sortEntities(entities);
}
