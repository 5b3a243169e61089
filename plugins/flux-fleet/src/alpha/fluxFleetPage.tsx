import { PageBlueprint, createRouteRef } from '@backstage/frontend-plugin-api';
import { FluxFleetIcon } from './FluxFleetIcon';

/** The route of the fleet page. */
export const fleetPageRouteRef = createRouteRef();

/**
 * The fleet page at `/flux-fleet`, with its navigation item ("Flux Fleet"). The app's page header is used, so the
 * content comes without one.
 */
export const fluxFleetPage = PageBlueprint.make({
  params: {
    path: '/flux-fleet',
    title: 'Flux Fleet',
    icon: <FluxFleetIcon fontSize="inherit" />,
    routeRef: fleetPageRouteRef,
    loader: () =>
      import('../components/FluxFleetPage').then(m => (
        <m.FluxFleetPageContent />
      )),
  },
});
