import { FleetSim, startFleetSim } from '@flux-fleet/fleet-sim';
import https from 'node:https';
import { ClusterClient } from './ClusterClient';
import { createKubeConfig } from './createKubeConfig';

/** A cluster's API server over HTTPS, verified against its CA: how many TLS connections the client opens. */
describe('ClusterClient over HTTPS', () => {
  let sim: FleetSim;

  beforeAll(async () => {
    sim = await startFleetSim({
      size: 'S',
      seed: 3,
      port: 0,
      clusters: 1,
      services: 10,
      tls: true,
    });
  });
  afterAll(() => sim.close());

  function client() {
    const cluster = sim.clusters[0];
    return new ClusterClient(
      cluster.name,
      createKubeConfig({
        name: cluster.name,
        url: cluster.server,
        caData: cluster.caData,
        auth: { type: 'serviceAccountToken', token: cluster.readOnlyToken },
        skipTLSVerify: false,
        configKey: 'test',
      }),
      10_000,
    );
  }

  it('sends requests one after another over one kept-alive TLS connection', async () => {
    const connect = jest.spyOn(https.Agent.prototype, 'createConnection');
    try {
      const c = client();
      for (let i = 0; i < 5; i++) {
        const version = await c.getJson<{ gitVersion: string }>('/version');
        expect(version.gitVersion).toMatch(/^v1\./);
      }
      const items: unknown[] = [];
      await c.getList(
        '/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations',
        { limit: 50 },
        item => items.push(item),
      );
      expect(items.length).toBeGreaterThan(0);
      // client-node's own agent (a new one per options refresh, no keep-alive) opened one connection per request
      expect(connect).toHaveBeenCalledTimes(1);
    } finally {
      connect.mockRestore();
    }
  });

  it('refuses a server whose certificate its CA did not sign', async () => {
    const cluster = sim.clusters[0];
    const other = await startFleetSim({
      size: 'S',
      seed: 3,
      port: 0,
      clusters: 1,
      services: 10,
      tls: true,
    });
    try {
      const c = new ClusterClient(
        cluster.name,
        createKubeConfig({
          name: cluster.name,
          url: other.clusters[0].server,
          caData: cluster.caData,
          auth: {
            type: 'serviceAccountToken',
            token: other.clusters[0].readOnlyToken,
          },
          skipTLSVerify: false,
          configKey: 'test',
        }),
        10_000,
      );
      await expect(c.getJson('/version')).rejects.toThrow(
        /certificate|self.signed|issuer/i,
      );
    } finally {
      await other.close();
    }
  });
});
