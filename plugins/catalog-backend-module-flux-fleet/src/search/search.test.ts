import { createServiceFactory } from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import searchPlugin from '@backstage/plugin-search-backend';
import searchModuleCatalogCollator from '@backstage/plugin-search-backend-module-catalog';
import { SearchResultSet } from '@backstage/plugin-search-common';
import { fleetIndexServiceRef } from '@flux-fleet/plugin-flux-fleet-node';
import request from 'supertest';
import catalogModule from '../index';
import { InMemoryFleetIndex } from '../__testUtils__/InMemoryFleetIndex';
import { prodEu1, prodUs1 } from '../__testUtils__/fleetFixtures';
import { schedulerOf } from '../__testUtils__/schedulerOf';
import searchModuleFluxFleet from './index';

// The whole search stack of the app in one backend: the catalog with this module, the search backend (Lunr, as
// the app uses it on SQLite), the catalog collator, and this package's collator transformer.
describe('catalog search over Flux Fleet entities', () => {
  let backend: Awaited<ReturnType<typeof startTestBackend>>;
  // Tasks run once at startup, then when the test triggers them: the collator indexes when the catalog is full.
  const searchScheduler = schedulerOf('search');

  beforeAll(async () => {
    const index = new InMemoryFleetIndex();
    index.setCluster('prod-eu-1', prodEu1());
    index.setCluster('prod-us-1', prodUs1());
    index.markReady();
    backend = await startTestBackend({
      features: [
        catalogPlugin,
        catalogModule,
        searchPlugin,
        searchModuleCatalogCollator,
        searchModuleFluxFleet,
        createServiceFactory({
          service: fleetIndexServiceRef,
          deps: {},
          factory: () => index,
        }),
        searchScheduler.module,
        mockServices.rootConfig.factory({
          data: { catalog: { processingInterval: { milliseconds: 100 } } },
        }),
      ],
    });
    // The cluster, instance, shard and object entities of both clusters are in the catalog.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await request(backend.server)
        .get('/api/catalog/entities?filter=metadata.annotations.flux-fleet.io/provider=default')
        .set('Authorization', mockCredentials.user.header());
      if (res.body.length === 13) break;
      if (Date.now() > deadline) throw new Error(`catalog has ${res.body.length} entities, not 13`);
      await new Promise(resolve => setTimeout(resolve, 100));
    }
    await searchScheduler.trigger('search_index_software_catalog');
  }, 60_000);

  afterAll(async () => {
    await backend?.stop();
  });

  async function search(term: string, until: (r: SearchResultSet) => boolean) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await request(backend.server)
        .get(`/api/search/query?term=${encodeURIComponent(term)}`)
        .set('Authorization', mockCredentials.user.header());
      const body = res.body as SearchResultSet;
      if (res.status === 200 && until(body)) return body;
      if (Date.now() > deadline) {
        throw new Error(`no search result for ${term} in time: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
      }
      await new Promise(resolve => setTimeout(resolve, 250));
    }
  }

  const locations = (results: SearchResultSet) => results.results.map(r => r.document.location);

  it("finds a shard's entity by the shard's name, first", async () => {
    const results = await search('shard2', r =>
      locations(r).includes('/catalog/default/resource/prod-eu-1.flux-system.shard2'),
    );
    expect(locations(results)[0]).toBe('/catalog/default/resource/prod-eu-1.flux-system.shard2');
    expect(results.results[0].document).toMatchObject({
      title: 'shard2 of flux-system on prod-eu-1',
      kind: 'Resource',
      type: 'flux-shard',
      fluxCluster: 'prod-eu-1',
      fluxInstance: 'flux-system',
      fluxShard: 'shard2',
    });
  }, 20_000);

  it("finds a service's Kustomizations by the service's name, on every cluster", async () => {
    const results = await search('payments-api', r =>
      locations(r).includes('/catalog/default/resource/prod-us-1.apps.kustomization.payments-api'),
    );
    expect(locations(results)).toEqual(
      expect.arrayContaining([
        '/catalog/default/resource/prod-eu-1.apps.kustomization.payments-api',
        '/catalog/default/resource/prod-us-1.apps.kustomization.payments-api',
      ]),
    );
    const eu = results.results.find(
      r => r.document.location === '/catalog/default/resource/prod-eu-1.apps.kustomization.payments-api',
    )!;
    expect(eu.document).toMatchObject({
      title: 'payments-api (Kustomization in apps, prod-eu-1)',
      type: 'flux-kustomization',
      fluxKind: 'Kustomization',
      fluxCluster: 'prod-eu-1',
      fluxInstance: 'flux-system',
      fluxShard: 'shard2',
      fluxTenant: 'payments',
      fluxNamespace: 'apps',
    });
  }, 20_000);

  it('finds the objects of a tenant by the tenant name', async () => {
    const results = await search('shop', r =>
      locations(r).includes('/catalog/default/resource/prod-eu-1.apps.helmrelease.checkout'),
    );
    expect(locations(results)).toContain('/catalog/default/resource/prod-eu-1.apps.helmrelease.checkout');
  }, 20_000);
});
