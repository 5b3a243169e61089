import { createBackendFeatureLoader } from '@backstage/backend-plugin-api';
import { fluxFleetPlugin } from './plugin';
import { fleetIndexServiceFactory } from './index/fleetIndexServiceFactory';

/**
 * What `backend.add(import('@flux-fleet/plugin-flux-fleet-backend'))` installs: the plugin and the root-scoped
 * fleet index it fills, which other plugins (the catalog module) read through `fleetIndexServiceRef`.
 */
export default createBackendFeatureLoader({
  loader() {
    return [fleetIndexServiceFactory, fluxFleetPlugin];
  },
});
