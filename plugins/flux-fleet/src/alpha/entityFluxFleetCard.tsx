import { EntityCardBlueprint } from '@backstage/plugin-catalog-react/alpha';
import { isFluxFleetEntity } from '../lib/fluxFleetEntity';

/** The Flux card on Components and on Flux Fleet's own Resources. */
export const entityFluxFleetCard = EntityCardBlueprint.make({
  params: {
    filter: isFluxFleetEntity,
    loader: () =>
      import('../components/EntityFluxFleetCard').then(m => (
        <m.EntityFluxFleetCard />
      )),
  },
});
