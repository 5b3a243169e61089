import { Entity } from '@backstage/catalog-model';
import { SearchResult } from '@backstage/plugin-search-common';

/**
 * The catalog `Resource` types of Flux Fleet's own entities (architecture: catalog entities). Sources, when the
 * catalog module emits them, are typed `flux-<kind>` too, so every `flux-` type counts.
 */
export const FLUX_FLEET_RESOURCE_TYPES = [
  'kubernetes-cluster',
  'flux-instance',
  'flux-shard',
  'flux-kustomization',
  'flux-helmrelease',
] as const;

/** Whether a catalog Resource type is one of Flux Fleet's. */
export function isFluxFleetResourceType(type: unknown): boolean {
  return (
    typeof type === 'string' &&
    (FLUX_FLEET_RESOURCE_TYPES.includes(
      type as (typeof FLUX_FLEET_RESOURCE_TYPES)[number],
    ) ||
      type.startsWith('flux-'))
  );
}

/**
 * Whether the Flux Fleet card and tab belong on an entity's page: every Component (a service that may deploy with
 * Flux) and Flux Fleet's own Resources.
 *
 * @public
 */
export function isFluxFleetEntity(entity: Entity): boolean {
  const kind = entity.kind.toLocaleLowerCase('en-US');
  if (kind === 'component') {
    return true;
  }
  return kind === 'resource' && isFluxFleetResourceType(entity.spec?.type);
}

/**
 * Whether a search result is one of Flux Fleet's catalog entities (a catalog `Resource` of a Flux Fleet type), so
 * the Flux Fleet result item renders it.
 *
 * @public
 */
export function isFluxFleetSearchResult(result: SearchResult): boolean {
  const document = result.document as { kind?: unknown; type?: unknown };
  return (
    result.type === 'software-catalog' &&
    typeof document.kind === 'string' &&
    document.kind.toLocaleLowerCase('en-US') === 'resource' &&
    isFluxFleetResourceType(document.type)
  );
}
