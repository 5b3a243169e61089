import {
  ApiBlueprint,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { FluxFleetClient, fluxFleetApiRef } from '../api';

/** The Flux Fleet API client, with the user's Backstage credentials. */
export const fluxFleetApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: fluxFleetApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new FluxFleetClient({ discoveryApi, fetchApi }),
    }),
});
