import { EntityContentBlueprint } from '@backstage/plugin-catalog-react/alpha';
import { isFluxFleetEntity } from '../lib/fluxFleetEntity';

/** The "Flux" tab (`/flux-fleet`) of Components and of Flux Fleet's own Resources. */
export const entityFluxFleetContent = EntityContentBlueprint.make({
  params: {
    path: 'flux-fleet',
    title: 'Flux',
    filter: isFluxFleetEntity,
    loader: () =>
      import('../components/EntityFluxFleetContent').then(m => (
        <m.EntityFluxFleetContent />
      )),
  },
});
