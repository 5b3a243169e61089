/*
 * The Flux Fleet demo and test backend: a current Backstage backend with the catalog, search, signals and
 * permissions, plus the Flux Fleet backend plugin and its catalog module, and the MCP server of the actions registry.
 */
import { createBackend } from '@backstage/backend-defaults';
import {
  coreServices,
  createBackendFeatureLoader,
} from '@backstage/backend-plugin-api';

const backend = createBackend();

backend.add(import('@backstage/plugin-app-backend'));

backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));

backend.add(import('@backstage/plugin-catalog-backend'));

backend.add(import('@backstage/plugin-permission-backend'));
// everybody reads; only the owners of a service act on its Flux objects (src/permissionPolicy.ts)
backend.add(import('./permissionPolicy'));

backend.add(import('@backstage/plugin-search-backend'));
backend.add(import('@backstage/plugin-search-backend-module-pg'));
backend.add(import('@backstage/plugin-search-backend-module-catalog'));
// Flux Fleet's fields (kind, cluster, instance, shard, tenant, namespace) on catalog search documents
backend.add(import('@flux-fleet/plugin-catalog-backend-module-flux-fleet/search'));

backend.add(import('@backstage/plugin-signals-backend'));

backend.add(import('@flux-fleet/plugin-flux-fleet-backend'));
backend.add(import('@flux-fleet/plugin-catalog-backend-module-flux-fleet'));

// Flux Fleet's actions (and the catalog's) as MCP tools for assistants at /api/mcp-actions/v1; which plugins'
// actions it serves: backend.actions.pluginSources in app-config.yaml
backend.add(import('@backstage/plugin-mcp-actions-backend'));

// The Kubernetes plugin's backend, only when `kubernetes` is configured: `make bench` measures it beside Flux Fleet
// on the same fleet; the demo runs without it.
backend.add(
  createBackendFeatureLoader({
    deps: { config: coreServices.rootConfig },
    *loader({ config }) {
      if (config.has('kubernetes')) {
        yield import('@backstage/plugin-kubernetes-backend');
      }
    },
  }),
);

backend.start();
