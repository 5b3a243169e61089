import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import request from 'supertest';
import fluxFleetFeature from './feature';

describe('the flux-fleet API', () => {
  it('answers /clusters with Backstage credentials and refuses callers without', async () => {
    const { server } = await startTestBackend({
      features: [
        fluxFleetFeature,
        // without this the mock treats a request with no token as a signed-in user
        mockServices.httpAuth.factory({
          defaultCredentials: mockCredentials.none(),
        }),
      ],
    });

    const anonymous = await request(server).get('/api/flux-fleet/clusters');
    expect(anonymous.status).toBe(401);

    const user = await request(server)
      .get('/api/flux-fleet/clusters')
      .set('Authorization', mockCredentials.user.header());
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ items: [] });
  });
});
