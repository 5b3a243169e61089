import { createServiceFactory } from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import { fleetIndexServiceRef } from '@flux-fleet/plugin-flux-fleet-node';
import request from 'supertest';
import catalogModule from './index';
import { InMemoryFleetIndex } from './__testUtils__/InMemoryFleetIndex';
import { prodEu1, prodUs1 } from './__testUtils__/fleetFixtures';

// The real catalog (processing, validation, relations, filters) over the in-memory fleet index. The tests against
// the Flux Fleet backend and the fleet simulator are in `fleetSim.test.ts`.
async function startCatalog(index: InMemoryFleetIndex) {
  const backend = await startTestBackend({
    features: [
      catalogPlugin,
      catalogModule,
      createServiceFactory({
        service: fleetIndexServiceRef,
        deps: {},
        factory: () => index,
      }),
      mockServices.rootConfig.factory({
        data: {
          catalog: {
            processingInterval: { milliseconds: 100 },
            providers: {
              fluxFleet: {
                debounce: { milliseconds: 50 },
                createMissingComponents: true,
              },
            },
          },
        },
      }),
    ],
  });
  const get = async (path: string) => {
    const res = await request(backend.server)
      .get(path)
      .set('Authorization', mockCredentials.user.header());
    return res;
  };
  return { backend, get };
}

async function waitFor<T>(
  read: () => Promise<T>,
  until: (value: T) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!until(value)) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value).slice(0, 500)}`);
    }
    await new Promise(resolve => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

const names = (entities: Entity[]) => entities.map(e => e.metadata.name).sort();

describe('the flux-fleet catalog module in a real catalog', () => {
  it('puts the fleet in the catalog with its relations, filterable by shard', async () => {
    const index = new InMemoryFleetIndex();
    index.setCluster('prod-eu-1', prodEu1());
    index.setCluster('prod-us-1', prodUs1());
    index.markReady();
    const { backend, get } = await startCatalog(index);
    try {
      const resources = await waitFor(
        async () => (await get('/api/catalog/entities?filter=kind=resource')).body as Entity[],
        body => body.length === 13,
        '13 Flux Fleet resources',
      );
      expect(names(resources.filter(e => e.spec?.type === 'flux-shard'))).toEqual([
        'prod-eu-1.flux-system.main',
        'prod-eu-1.flux-system.shard1',
        'prod-eu-1.flux-system.shard2',
        'prod-us-1.flux-system.main',
      ]);

      const onShard2 = await get(
        '/api/catalog/entities?filter=kind=resource,metadata.labels.flux-fleet.io/shard=shard2',
      );
      expect(names(onShard2.body)).toEqual([
        'prod-eu-1.apps.kustomization.payments-api',
        'prod-eu-1.flux-system.shard2',
      ]);

      const kustomization = await waitFor(
        async () =>
          (
            await get(
              '/api/catalog/entities/by-name/resource/default/prod-eu-1.apps.kustomization.payments-api',
            )
          ).body as Entity,
        e => (e.relations ?? []).length >= 3,
        'the relations of payments-api',
      );
      expect(
        kustomization.relations!.map(r => `${r.type} ${r.targetRef}`).sort(),
      ).toEqual([
        'dependencyOf component:default/payments-api',
        'dependsOn resource:default/prod-eu-1.flux-system.kustomization.infra-controllers',
        'ownedBy group:default/platform',
      ]);

      // The generated Component of payments-api, which the catalog did not have, with the reverse relation.
      const component = await waitFor(
        async () =>
          (await get('/api/catalog/entities/by-name/component/default/payments-api')).body as Entity,
        e =>
          (e.relations ?? []).filter(r => r.type === 'dependsOn').length === 2,
        'the payments-api Component with both Kustomizations',
      );
      expect(
        component.relations!.filter(r => r.type === 'dependsOn').map(r => r.targetRef).sort(),
      ).toEqual([
        'resource:default/prod-eu-1.apps.kustomization.payments-api',
        'resource:default/prod-us-1.apps.kustomization.payments-api',
      ]);

      // No entity failed processing.
      const withErrors = await get(
        '/api/catalog/entities?filter=metadata.annotations.flux-fleet.io/provider=default',
      );
      for (const entity of withErrors.body as Entity[]) {
        expect((entity as any).status?.items ?? []).toEqual([]);
      }
    } finally {
      await backend.stop();
    }
  }, 60_000);

  it("keeps a down cluster's entities and, when one cluster changes, changes only its own", async () => {
    const index = new InMemoryFleetIndex();
    index.setCluster('prod-eu-1', prodEu1());
    index.setCluster('prod-us-1', prodUs1());
    index.markReady();
    const { backend, get } = await startCatalog(index);
    const resources = async () =>
      (await get('/api/catalog/entities?filter=kind=resource')).body as Entity[];
    try {
      const before = await waitFor(resources, body => body.length === 13, '13 resources');
      const uids = new Map(before.map(e => [e.metadata.name, e.metadata.uid]));

      index.setCluster('prod-eu-1', { ...prodEu1(), status: 'unreachable', objects: [] });
      index.announce([{ cluster: 'prod-eu-1', keys: [], structural: true }]);
      await new Promise(resolve => setTimeout(resolve, 1_000));
      expect(names(await resources())).toEqual(names(before));

      const us = prodUs1();
      us.objects = [];
      index.setCluster('prod-us-1', us);
      index.announce([{ cluster: 'prod-us-1', keys: [], structural: true }]);
      const after = await waitFor(resources, body => body.length === 12, '12 resources');

      expect(names(before).filter(n => !names(after).includes(n))).toEqual([
        'prod-us-1.apps.kustomization.payments-api',
      ]);
      // Every other entity is the same one: not deleted and created again.
      for (const entity of after) {
        expect(entity.metadata.uid).toBe(uids.get(entity.metadata.name));
      }
    } finally {
      await backend.stop();
    }
  }, 60_000);
});
