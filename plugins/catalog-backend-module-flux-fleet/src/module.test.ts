import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import request from 'supertest';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import fluxFleetFeature from '@flux-fleet/plugin-flux-fleet-backend';
import catalogModule from './index';

describe('the flux-fleet catalog module', () => {
  it('registers an entity provider whose cluster entities reach the catalog', async () => {
    const backend = await startTestBackend({
      features: [
        catalogPlugin,
        fluxFleetFeature,
        catalogModule,
        mockServices.rootConfig.factory({
          data: {
            fluxFleet: { clusters: [{ name: 'prod-eu-1' }] },
            catalog: { processingInterval: { milliseconds: 100 } },
          },
        }),
      ],
    });
    try {
      let names: string[] = [];
      for (let i = 0; i < 100 && names.length === 0; i++) {
        const res = await request(backend.server)
          .get('/api/catalog/entities?filter=kind=resource,spec.type=kubernetes-cluster')
          .set('Authorization', mockCredentials.user.header());
        names = res.body.map((e: any) => e.metadata.name);
        if (names.length === 0) await new Promise(r => setTimeout(r, 100));
      }
      expect(names).toEqual(['prod-eu-1']);
    } finally {
      await backend.stop();
    }
  }, 30_000);
});
