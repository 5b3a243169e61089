import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type { FleetSim } from '@flux-fleet/fleet-sim';
import {
  FleetObject,
  FLUX_KIND_PLURAL,
} from '@flux-fleet/plugin-flux-fleet-common';
import https from 'node:https';

/** Alice's team owns the services under test; Bob owns nothing; Carol may read only what her team owns. */
export const ALICE = 'user:default/alice';
export const BOB = 'user:default/bob';
export const CAROL = 'user:default/carol';
export const TEAM = 'group:default/team-checkout';
export const OWNERSHIP: Record<string, string[]> = {
  [ALICE]: [ALICE, TEAM],
  [BOB]: [BOB],
  [CAROL]: [CAROL, TEAM],
};

/** A policy like the app's example: everybody reads (but Carol only what her team owns), owners act (IS_OWNED_BY). */
export function ownershipPolicy() {
  return mockServices.permissions.mock({
    // the app's example policy: everybody reads, owners act (IS_OWNED_BY with the caller's ownership refs)
    authorizeConditional: async (requests, options) => {
      const user = (options.credentials.principal as any)
        .userEntityRef as string;
      return requests.map(({ permission }) =>
        permission.name === 'flux-fleet.object.read' && user !== CAROL
          ? { result: AuthorizeResult.ALLOW }
          : ({
              result: AuthorizeResult.CONDITIONAL,
              pluginId: 'flux-fleet',
              resourceType: 'flux-fleet-object',
              conditions: {
                rule: 'IS_OWNED_BY',
                resourceType: 'flux-fleet-object',
                params: { claims: OWNERSHIP[user] ?? [user] },
              },
            } as any),
      );
    },
  });
}

/** The object as the simulated cluster serves it, read over TLS with the admin token (as kubectl would). */
export function clusterObjectOf(sim: FleetSim, o: FleetObject): Promise<any> {
  const cluster = sim.clusters.find(c => c.name === o.ref.cluster)!;
  const plural = FLUX_KIND_PLURAL[o.ref.kind];
  const url = `${cluster.server}/apis/${o.apiVersion}/namespaces/${o.ref.namespace}/${plural}/${o.ref.name}`;
  return new Promise((resolve, reject) => {
    https
      .get(
        url,
        {
          ca: Buffer.from(cluster.caData!, 'base64'),
          headers: { Authorization: `Bearer ${cluster.adminToken}` },
        },
        res => {
          let text = '';
          res.on('data', chunk => (text += chunk));
          res.on('end', () => resolve(JSON.parse(text)));
        },
      )
      .on('error', reject);
  });
}
