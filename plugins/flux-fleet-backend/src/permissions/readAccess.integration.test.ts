import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type { FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import request from 'supertest';
import { FleetBackend, startFleetBackend } from '../__testUtils__/startFleetBackend';

jest.setTimeout(60_000);

/** Alice may read one cluster, Bob nothing, everyone else everything. */
const ALICE = 'user:default/alice';
const BOB = 'user:default/bob';

describe('read permissions on Flux objects', () => {
  let fleet: FleetBackend;
  let aliceCluster: string;

  beforeAll(async () => {
    const permissions = mockServices.permissions.mock({
      authorizeConditional: async (requests, options) => {
        const user = (options.credentials.principal as any).userEntityRef;
        return requests.map(() => {
          if (user === ALICE) {
            return {
              result: AuthorizeResult.CONDITIONAL,
              pluginId: 'flux-fleet',
              resourceType: 'flux-fleet-object',
              conditions: {
                rule: 'IS_IN_CLUSTER',
                resourceType: 'flux-fleet-object',
                params: { clusters: [aliceCluster] },
              },
            } as any;
          }
          return { result: user === BOB ? AuthorizeResult.DENY : AuthorizeResult.ALLOW };
        });
      },
    });
    fleet = await startFleetBackend({
      features: [
        permissions.factory,
        catalogServiceMock.factory({
          entities: [
            {
              apiVersion: 'backstage.io/v1alpha1',
              kind: 'Component',
              metadata: { name: 'checkout', namespace: 'default' },
            },
          ],
        }),
      ],
    });
    aliceCluster = fleet.sim.clusters[0].name;
    await fleet.waitFor('synced', async () => {
      const { items } = await fleet.get('/clusters');
      return items.every((c: any) => c.synced) ? true : undefined;
    });
  });

  afterAll(() => fleet?.stop());

  const as = (user: string, path: string) =>
    request(fleet.backend.server)
      .get(`/api/flux-fleet${path}`)
      .set('Authorization', mockCredentials.user.header(user));

  it('shows a caller with a conditional decision only the objects the conditions allow', async () => {
    const all = await as('user:default/carol', '/objects?limit=1');
    const alice = await as(ALICE, '/objects?limit=1000');
    expect(alice.status).toBe(200);
    expect(alice.body.totalCount).toBeGreaterThan(0);
    expect(alice.body.totalCount).toBeLessThan(all.body.totalCount);
    expect(alice.body.items.every((o: FleetObject) => o.ref.cluster === aliceCluster)).toBe(true);

    const view = await as(ALICE, '/entity/component/default/checkout');
    expect(view.body.objects.length).toBeGreaterThan(0);
    expect(view.body.objects.every((o: FleetObject) => o.ref.cluster === aliceCluster)).toBe(true);

    const findings = await as(ALICE, '/findings');
    expect(findings.body.items.every((f: any) => !f.object || f.object.cluster === aliceCluster)).toBe(
      true,
    );

    // an object of another cluster is answered as one that does not exist
    const other: FleetObject = (
      await as('user:default/carol', `/objects?cluster=${fleet.sim.clusters[1].name}&limit=1`)
    ).body.items[0];
    expect((await as(ALICE, `/objects/${other.key}`)).status).toBe(404);
  });

  it('refuses a caller whose read permission is denied', async () => {
    const res = await as(BOB, '/objects');
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('flux-fleet.object.read is denied');
  });
});
