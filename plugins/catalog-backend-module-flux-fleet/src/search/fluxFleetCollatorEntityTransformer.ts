import { Entity } from '@backstage/catalog-model';
import {
  CatalogCollatorEntityTransformer,
  defaultCatalogCollatorEntityTransformer,
} from '@backstage/plugin-search-backend-module-catalog';
import {
  ENTITY_LABELS,
  FluxFleetSearchDocumentFields,
} from '@flux-fleet/plugin-flux-fleet-common';
import { PROVIDER_ANNOTATION } from '../lib/entityLocation';

/**
 * The catalog collator's document for an entity, plus, for the entities Flux Fleet emits, the Flux kind, cluster,
 * instance, shard, tenant and namespace (exact values, from the entity's annotations) that Flux Fleet's search
 * result item shows as chips. Other entities get the default document unchanged.
 *
 * @public
 */
export const fluxFleetCollatorEntityTransformer: CatalogCollatorEntityTransformer =
  (entity: Entity) => {
    const document = defaultCatalogCollatorEntityTransformer(entity);
    const annotations = entity.metadata.annotations ?? {};
    if (annotations[PROVIDER_ANNOTATION] === undefined) return document;
    const fields: FluxFleetSearchDocumentFields = {
      fluxKind: annotations[ENTITY_LABELS.kind],
      fluxCluster: annotations[ENTITY_LABELS.cluster],
      fluxInstance: annotations[ENTITY_LABELS.instance],
      fluxShard: annotations[ENTITY_LABELS.shard],
      fluxTenant: annotations[ENTITY_LABELS.tenant],
      fluxNamespace: annotations[ENTITY_LABELS.namespace],
    };
    // Absent fields are left out rather than sent as undefined, so documents stay small and comparable.
    return {
      ...document,
      ...Object.fromEntries(
        Object.entries(fields).filter(([, value]) => value !== undefined),
      ),
    };
  };
