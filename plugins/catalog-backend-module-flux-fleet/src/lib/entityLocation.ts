/** The annotation naming the provider that emitted an entity, so the provider can find its own entities again. */
export const PROVIDER_ANNOTATION = 'flux-fleet.io/provider';

/**
 * The location key (and `backstage.io/managed-by-location`) of a cluster's entities. One per cluster, so the
 * catalog refuses to let another source take them over and each cluster's delta mutation stays its own.
 */
export function clusterLocationKey(cluster: string): string {
  return `flux-fleet:${cluster}`;
}

/**
 * The `backstage.io/managed-by-location` of generated service Components (they have no location key). Its own
 * location type, so that no cluster name can collide with it.
 */
export const SERVICES_LOCATION = 'flux-fleet-services:generated';

/** The cluster whose location key a location is, or undefined when it is not a cluster location key. */
export function clusterOfLocation(location: string | undefined): string | undefined {
  if (!location?.startsWith('flux-fleet:')) return undefined;
  return location.slice('flux-fleet:'.length);
}
