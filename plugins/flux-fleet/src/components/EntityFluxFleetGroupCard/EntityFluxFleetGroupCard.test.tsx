import { Entity } from '@backstage/catalog-model';
import { screen, within } from '@testing-library/react';
import { ObjectQuery } from '@flux-fleet/plugin-flux-fleet-common';
import { fakeFluxFleetApi } from '../../__testUtils__/fakeFluxFleetApi';
import {
  NOW,
  blockedByDependency,
  failingOnShard1,
  fleetObject,
  readyOnMain,
} from '../../__testUtils__/fixtures';
import { renderWithApis } from '../../__testUtils__/renderWithApis';
import { EntityFluxFleetGroupCard } from './EntityFluxFleetGroupCard';

const team: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Group',
  metadata: { name: 'team-payments', namespace: 'default' },
  spec: { type: 'team', children: [] },
};

/** A ledger HelmRelease of tenant ledger, found through the tenant → group mapping only. */
const ledger = fleetObject(
  {
    cluster: 'prod-us-1',
    namespace: 'ledger',
    kind: 'HelmRelease',
    name: 'ledger',
  },
  { service: null },
);

function apis() {
  const api = fakeFluxFleetApi({
    getTenants: jest.fn(async () => [
      {
        name: 'ledger',
        group: 'group:default/team-payments',
        namespaces: [],
        shards: [],
        objectCount: 1,
        countsByEnforcement: { enforced: 1 },
        weakestEnforcement: 'enforced',
      },
      {
        name: 'search',
        group: 'group:default/team-search',
        namespaces: [],
        shards: [],
        objectCount: 9,
        countsByEnforcement: { none: 9 },
        weakestEnforcement: 'none',
      },
    ]),
    getObjects: jest.fn(async (query: ObjectQuery) =>
      query.tenant
        ? { items: [ledger], totalCount: 1 }
        : {
            items: [readyOnMain, failingOnShard1, blockedByDependency],
            totalCount: 3,
          },
    ),
  });
  const catalog = {
    getEntities: jest.fn(async () => ({
      items: [
        {
          apiVersion: 'backstage.io/v1alpha1',
          kind: 'Component',
          metadata: {
            name: 'payments',
            annotations: { 'backstage.io/kubernetes-id': 'payments' },
          },
        },
      ],
    })),
  };
  return { api, catalog };
}

describe('EntityFluxFleetGroupCard', () => {
  beforeEach(() => {
    jest.spyOn(Date, 'now').mockReturnValue(NOW);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it("lists the team's reconcilers from its Components and its tenants, failing first, with counts per state", async () => {
    const { api, catalog } = apis();
    await renderWithApis(<EntityFluxFleetGroupCard />, {
      api,
      catalog,
      entity: team,
    });
    const card = await screen.findByTestId('flux-fleet-group-card');
    await within(card).findByTestId('flux-fleet-group-counts');
    expect(catalog.getEntities).toHaveBeenCalledWith(
      expect.objectContaining({
        filter: {
          kind: 'Component',
          'relations.ownedBy': 'group:default/team-payments',
        },
      }),
    );
    expect(api.getObjects).toHaveBeenCalledWith(
      expect.objectContaining({ service: ['payments'] }),
    );
    expect(api.getObjects).toHaveBeenCalledWith(
      expect.objectContaining({ tenant: ['ledger'] }),
    );
    const rows = within(card)
      .getAllByTestId(/^flux-fleet-group-object-/)
      .map(r => r.dataset.testid!.replace('flux-fleet-group-object-', ''));
    expect(rows).toEqual([
      failingOnShard1.key,
      blockedByDependency.key,
      ledger.key,
      readyOnMain.key,
    ]);
    expect(
      within(card).getByTestId('flux-fleet-group-counts'),
    ).toHaveTextContent('Failed: 1Blocked: 1Ready: 2');
    // the answer first: how many need the team, where, and of which services
    expect(within(card).getByTestId('flux-fleet-group-headline')).toHaveTextContent(
      /^2 of the team's 4 Flux objects failed, blocked or stalled, on /,
    );
  });

  it('says what to do when the team owns nothing Flux deploys', async () => {
    const { api } = apis();
    api.getTenants.mockResolvedValue([]);
    const catalog = { getEntities: jest.fn(async () => ({ items: [] })) };
    await renderWithApis(<EntityFluxFleetGroupCard />, {
      api,
      catalog,
      entity: team,
    });
    expect(
      await screen.findByTestId('flux-fleet-group-empty'),
    ).toHaveTextContent('It owns no Component in the catalog');
    expect(api.getObjects).not.toHaveBeenCalled();
  });
});
