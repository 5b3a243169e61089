import { FleetSim, generateTls, startFleetSim } from '@flux-fleet/fleet-sim';
import http from 'node:http';
import http2 from 'node:http2';
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

  it('sends every request of the cluster, watches included, as streams of one HTTP/2 connection', async () => {
    const h2 = jest.spyOn(http2, 'connect');
    const h1 = jest.spyOn(https.Agent.prototype, 'createConnection');
    try {
      const c = client();
      const stop = new AbortController();
      const watchEvents: string[] = [];
      let opened!: () => void;
      const open = new Promise<void>(resolve => {
        opened = resolve;
      });
      const watching = c.watch(
        '/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations',
        {},
        { onOpen: () => opened(), onEvent: e => watchEvents.push(e.type) },
        { idleTimeoutMs: 30_000, signal: stop.signal },
      );
      await open;
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
      stop.abort();
      await expect(watching).resolves.toBe('aborted');
      // the first events of a watch without a resource version: the objects as they are
      expect(watchEvents[0]).toBe('ADDED');
      // over HTTP/1.1 the watch held a connection of its own, and every request in parallel another
      expect(h2).toHaveBeenCalledTimes(1);
      expect(h1).not.toHaveBeenCalled();
    } finally {
      h2.mockRestore();
      h1.mockRestore();
    }
  });

  it('speaks HTTP/1.1 to an API server that does not offer HTTP/2', async () => {
    // a TLS server of Node's https module offers only HTTP/1.1 (ALPN)
    const tls = await generateTls(['127.0.0.1']);
    const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ gitVersion: 'v1.31.0', httpVersion: req.httpVersion }));
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const c = new ClusterClient(
        'h1-only',
        createKubeConfig({
          name: 'h1-only',
          url: `https://127.0.0.1:${port}`,
          caData: Buffer.from(tls.ca).toString('base64'),
          auth: { type: 'serviceAccountToken', token: 'any' },
          skipTLSVerify: false,
          configKey: 'test',
        }),
        10_000,
      );
      for (let i = 0; i < 2; i++) {
        await expect(c.getJson('/version')).resolves.toEqual({ gitVersion: 'v1.31.0', httpVersion: '1.1' });
      }
    } finally {
      server.close();
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

/** A cluster's API server over plain HTTP (`kubectl proxy`, the simulator): how many connections the client opens. */
describe('ClusterClient over plain HTTP', () => {
  it('keeps its connection alive: requests one after another share one', async () => {
    const connections: string[] = [];
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'KustomizationList', metadata: {}, items: [{ n: req.url }] }));
    });
    server.on('connection', socket => connections.push(`${socket.remotePort}`));
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const c = new ClusterClient(
        'plain',
        createKubeConfig({
          name: 'plain',
          url: `http://127.0.0.1:${port}`,
          auth: { type: 'serviceAccountToken', token: 'any' },
          skipTLSVerify: true,
          configKey: 'test',
        }),
        10_000,
      );
      for (let i = 0; i < 3; i++) {
        const items: unknown[] = [];
        await c.getList('/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations', { limit: 1 }, item => items.push(item));
        expect(items).toHaveLength(1);
        await expect(c.getJson('/version')).resolves.toMatchObject({ kind: 'KustomizationList' });
      }
      expect(connections).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
