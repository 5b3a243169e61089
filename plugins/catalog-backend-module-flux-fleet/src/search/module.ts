import { createBackendModule } from '@backstage/backend-plugin-api';
import { catalogCollatorExtensionPoint } from '@backstage/plugin-search-backend-module-catalog';
import { fluxFleetCollatorEntityTransformer } from './fluxFleetCollatorEntityTransformer';

/**
 * Makes the catalog search collator add Flux Fleet's fields (Flux kind, cluster, instance, shard, tenant,
 * namespace) to the documents of Flux Fleet's entities, for Flux Fleet's search result item. The entities are
 * found without it, by their titles and descriptions; it only adds the chips. The collator accepts one entity
 * transformer: leave this module out if the app sets its own.
 *
 * @public
 */
export const searchModuleFluxFleetCatalogCollator = createBackendModule({
  pluginId: 'search',
  moduleId: 'flux-fleet-catalog-collator',
  register(env) {
    env.registerInit({
      deps: { collator: catalogCollatorExtensionPoint },
      async init({ collator }) {
        collator.setEntityTransformer(fluxFleetCollatorEntityTransformer);
      },
    });
  },
});
