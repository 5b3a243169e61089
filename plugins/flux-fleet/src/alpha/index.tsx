import {
  ApiBlueprint,
  PageBlueprint,
  createFrontendPlugin,
  createRouteRef,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { EntityCardBlueprint } from '@backstage/plugin-catalog-react/alpha';
import { FluxFleetClient, fluxFleetApiRef } from '../api';

const fleetPageRouteRef = createRouteRef();

const fluxFleetApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: fluxFleetApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new FluxFleetClient({ discoveryApi, fetchApi }),
    }),
});

const entityFluxFleetCard = EntityCardBlueprint.make({
  params: {
    filter: 'kind:component,resource',
    loader: () =>
      import('../components/EntityFluxFleetCard').then(m => (
        <m.EntityFluxFleetCard />
      )),
  },
});

const fluxFleetPage = PageBlueprint.make({
  params: {
    path: '/flux-fleet',
    title: 'Flux Fleet',
    routeRef: fleetPageRouteRef,
    loader: () =>
      import('../components/FluxFleetPage').then(m => <m.FluxFleetPage />),
  },
});

/**
 * The Flux Fleet plugin for the new frontend system.
 *
 * @alpha
 */
export default createFrontendPlugin({
  pluginId: 'flux-fleet',
  info: { packageJson: () => import('../../package.json') },
  extensions: [fluxFleetApi, entityFluxFleetCard, fluxFleetPage],
  routes: { root: fleetPageRouteRef },
});
