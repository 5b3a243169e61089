import { createRouteRef } from '@backstage/core-plugin-api';

/** The fleet page (legacy frontend system). */
export const rootRouteRef = createRouteRef({ id: 'flux-fleet' });
