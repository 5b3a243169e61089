import { Entity } from '@backstage/catalog-model';
import { coreExtensionData } from '@backstage/frontend-plugin-api';
import {
  createExtensionTester,
  renderInTestApp,
} from '@backstage/frontend-test-utils';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { SearchResultListItemBlueprint } from '@backstage/plugin-search-react/alpha';
import { screen, waitFor } from '@testing-library/react';
import { fluxFleetApiRef } from '../api';
import { fakeFluxFleetApi } from '../__testUtils__/fakeFluxFleetApi';
import { clusters, paymentsEntity } from '../__testUtils__/fixtures';
import plugin, {
  entityFluxFleetCard,
  entityFluxFleetContent,
  entityFluxFleetGroupCard,
  fluxFleetPage,
  fluxFleetSearchResultListItem,
} from './index';

const resource = (type: string): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Resource',
  metadata: { name: 'x' },
  spec: { type, owner: 'group:default/platform' },
});
const group: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Group',
  metadata: { name: 'platform' },
  spec: { type: 'team', children: [] },
};

describe('the new frontend system plugin', () => {
  it('is the flux-fleet plugin', () => {
    expect(plugin.pluginId ?? (plugin as any).id).toBe('flux-fleet');
  });

  it('puts the Flux tab at flux-fleet, on Components and Flux Fleet resources only', () => {
    const tester = createExtensionTester(entityFluxFleetContent);
    expect(tester.get(coreExtensionData.routePath)).toBe('flux-fleet');
    expect(tester.get(EntityContentBlueprint.dataRefs.title)).toBe('Flux');
    const shown = tester.get(EntityContentBlueprint.dataRefs.filterFunction)!;
    expect(shown(paymentsEntity)).toBe(true);
    for (const type of [
      'kubernetes-cluster',
      'flux-instance',
      'flux-shard',
      'flux-kustomization',
      'flux-helmrelease',
    ]) {
      expect(shown(resource(type))).toBe(true);
    }
    expect(shown(resource('database'))).toBe(false);
    expect(shown(group)).toBe(false);
  });

  it('shows the card on the same entities as the tab', () => {
    const shown = createExtensionTester(entityFluxFleetCard).get(
      EntityCardBlueprint.dataRefs.filterFunction,
    )!;
    expect(shown(paymentsEntity)).toBe(true);
    expect(shown(resource('flux-shard'))).toBe(true);
    expect(shown(resource('s3-bucket'))).toBe(false);
  });

  it('mounts the fleet page at /flux-fleet with its navigation title, and renders it from the API', async () => {
    const api = fakeFluxFleetApi({
      getSummary: jest.fn(async () => {
        throw new Error('summary unavailable');
      }),
      getClusters: jest.fn(async () => clusters),
    });
    const tester = createExtensionTester(fluxFleetPage, {
      apis: [[fluxFleetApiRef, api]],
    });
    expect(tester.get(coreExtensionData.routePath)).toBe('/flux-fleet');
    expect(tester.get(coreExtensionData.title)).toBe('Flux Fleet');
    renderInTestApp(tester.reactElement(), {
      apis: [[fluxFleetApiRef, api]],
    });
    // it opens on the overview: the Flux versions of every cluster (the page is a lazy extension: its first load
    // compiles the page's modules, which takes seconds on a busy CI machine)
    await waitFor(
      () =>
        expect(
          screen.getByTestId('flux-fleet-overview-versions'),
        ).toHaveTextContent('prod-eu-1'),
      { timeout: 15_000 },
    );
  });

  it('puts the ownership card on Group pages only', () => {
    const shown = createExtensionTester(entityFluxFleetGroupCard).get(
      EntityCardBlueprint.dataRefs.filterFunction,
    )!;
    expect(shown(group)).toBe(true);
    expect(shown(paymentsEntity)).toBe(false);
  });

  it('renders catalog search results of Flux Fleet entities, and only those', () => {
    const item = createExtensionTester(fluxFleetSearchResultListItem).get(
      SearchResultListItemBlueprint.dataRefs.item,
    );
    const result = (document: object, type = 'software-catalog') => ({
      type,
      document: { title: 't', text: '', location: '/x', ...document },
    });
    expect(
      item.predicate!(result({ kind: 'Resource', type: 'flux-kustomization' })),
    ).toBe(true);
    expect(
      item.predicate!(result({ kind: 'resource', type: 'kubernetes-cluster' })),
    ).toBe(true);
    expect(
      item.predicate!(result({ kind: 'Component', type: 'service' })),
    ).toBe(false);
    expect(
      item.predicate!(result({ kind: 'Resource', type: 'database' })),
    ).toBe(false);
    expect(
      item.predicate!(
        result({ kind: 'Resource', type: 'flux-shard' }, 'techdocs'),
      ),
    ).toBe(false);
  });
});
