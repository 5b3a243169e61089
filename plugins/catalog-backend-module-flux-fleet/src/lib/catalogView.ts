import { AuthService } from '@backstage/backend-plugin-api';
import {
  ANNOTATION_LOCATION,
  Entity,
  KubernetesValidatorFunctions,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { ANNOTATIONS } from '@flux-fleet/plugin-flux-fleet-common';
import { PROVIDER_ANNOTATION } from './entityLocation';

/** What the catalog holds that a provider needs to know: its own entities, and the service Components. */
export interface CatalogView {
  /** The provider's own entities, by their `backstage.io/managed-by-location`, as entity refs. */
  heldByLocation: Map<string, Set<string>>;
  /** The refs of the Components of each `backstage.io/kubernetes-id`, not counting those the provider generated. */
  componentsByKubernetesId: Map<string, string[]>;
  /** Every Component the provider did not generate, as refs. */
  otherComponents: Set<string>;
}

const PAGE_SIZE = 1000;

/**
 * Reads back the provider's own entities and every Component, paging with a cursor. Entities the catalog has not
 * processed yet are not in the answer: callers treat what they emitted since startup as held too.
 */
export async function readCatalogView(options: {
  catalog: CatalogService;
  auth: AuthService;
  providerId: string;
}): Promise<CatalogView> {
  const { catalog, auth, providerId } = options;
  const view: CatalogView = {
    heldByLocation: new Map(),
    componentsByKubernetesId: new Map(),
    otherComponents: new Set(),
  };
  const credentials = await auth.getOwnServiceCredentials();
  let cursor: string | undefined;
  do {
    const page = await catalog.queryEntities(
      cursor
        ? { cursor, limit: PAGE_SIZE }
        : {
            filter: [
              { [`metadata.annotations.${PROVIDER_ANNOTATION}`]: providerId },
              { kind: 'component' },
            ],
            fields: [
              'kind',
              'metadata.name',
              'metadata.namespace',
              'metadata.annotations',
            ],
            limit: PAGE_SIZE,
          },
      { credentials },
    );
    for (const entity of page.items) addToView(view, entity, providerId);
    cursor = page.pageInfo.nextCursor;
  } while (cursor);

  for (const refs of view.componentsByKubernetesId.values()) refs.sort();
  return view;
}

function addToView(view: CatalogView, entity: Entity, providerId: string) {
  const ref = stringifyEntityRef(entity);
  const annotations = entity.metadata.annotations ?? {};
  if (annotations[PROVIDER_ANNOTATION] === providerId) {
    const location = annotations[ANNOTATION_LOCATION] ?? '';
    let held = view.heldByLocation.get(location);
    if (!held) {
      held = new Set();
      view.heldByLocation.set(location, held);
    }
    held.add(ref);
    return;
  }
  if (entity.kind.toLocaleLowerCase('en-US') !== 'component') return;
  view.otherComponents.add(ref);
  const kubernetesId = annotations[ANNOTATIONS.kubernetesId];
  if (kubernetesId) {
    const refs = view.componentsByKubernetesId.get(kubernetesId) ?? [];
    refs.push(ref);
    view.componentsByKubernetesId.set(kubernetesId, refs);
  }
}

/**
 * The Components a service's Flux objects are a dependency of (rules §6): those whose `backstage.io/kubernetes-id`
 * is the service, else the one named after it in the default namespace, which the service's own Component (or
 * one the provider generates) is expected to be.
 */
export function serviceComponentRefs(
  view: CatalogView | undefined,
  service: string,
): string[] {
  const byId = view?.componentsByKubernetesId.get(service);
  if (byId && byId.length > 0) return byId;
  return KubernetesValidatorFunctions.isValidObjectName(service)
    ? [stringifyEntityRef({ kind: 'Component', namespace: 'default', name: service })]
    : [];
}
