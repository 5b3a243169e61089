import { FleetSim, startFleetSim } from '@flux-fleet/fleet-sim';
import https from 'node:https';
import { ClusterClient } from './ClusterClient';
import { createKubeConfig } from './createKubeConfig';

/** One small simulated cluster over HTTPS, with a CA of its own. */
function startHttpsCluster(): Promise<FleetSim> {
  return startFleetSim({
    size: 'S',
    seed: 3,
    port: 0,
    clusters: 1,
    services: 10,
    tls: true,
  });
}

/** A cluster's API server over HTTPS, verified against its CA: how many TLS connections the client opens. */
describe('ClusterClient over HTTPS', () => {
  let sim: FleetSim;

  beforeAll(async () => {
    sim = await startHttpsCluster();
  });
  afterAll(() => sim.close());

  /** A client of `server` that trusts the CA of this test's cluster and reads with `token`. */
  function client(
    server = sim.clusters[0].server,
    token = sim.clusters[0].readOnlyToken,
  ) {
    const cluster = sim.clusters[0];
    return new ClusterClient(
      cluster.name,
      createKubeConfig({
        name: cluster.name,
        url: server,
        caData: cluster.caData,
        auth: { type: 'serviceAccountToken', token },
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
    const other = await startHttpsCluster();
    try {
      const c = client(
        other.clusters[0].server,
        other.clusters[0].readOnlyToken,
      );
      await expect(c.getJson('/version')).rejects.toThrow(
        /certificate|self.signed|issuer/i,
      );
    } finally {
      await other.close();
    }
  });
});
