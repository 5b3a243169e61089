import { createRouteRef } from '@backstage/core-plugin-api';

/** The fleet page (legacy frontend system). */
export const rootRouteRef = createRouteRef({ id: 'flux-fleet' });

/** The Flux tab of an entity page (legacy frontend system). */
export const entityContentRouteRef = createRouteRef({
  id: 'flux-fleet:entity-content',
});
