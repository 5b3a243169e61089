import { Entity } from '@backstage/catalog-model';
import { EntityCardBlueprint } from '@backstage/plugin-catalog-react/alpha';

/** The ownership card on Group entity pages: the team's Flux objects across the fleet, failing first. */
export const entityFluxFleetGroupCard = EntityCardBlueprint.make({
  name: 'group',
  params: {
    filter: (entity: Entity) =>
      entity.kind.toLocaleLowerCase('en-US') === 'group',
    loader: () =>
      import('../components/EntityFluxFleetGroupCard').then(m => (
        <m.EntityFluxFleetGroupCard />
      )),
  },
});
