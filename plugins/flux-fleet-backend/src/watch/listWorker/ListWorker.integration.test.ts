import { mockServices } from '@backstage/backend-test-utils';
import { ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import { FleetSim, startFleetSim } from '@flux-fleet/fleet-sim';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClusterStore } from '../../records/ClusterStore';
import { testWatchSettings } from '../../__testUtils__/watchSettings';
import { ClusterClient } from '../ClusterClient';
import { createKubeConfig } from '../createKubeConfig';
import { InformerObserver, ResourceInformer } from '../ResourceInformer';
import type { WatchedResource } from '../WatchedResource';
import { WORKLOADS } from '../supportingResources';
import { ListWorker } from './ListWorker';

jest.setTimeout(60_000);

const settings = testWatchSettings();

const KUSTOMIZATIONS: WatchedResource = {
  group: 'kustomize.toolkit.fluxcd.io',
  version: 'v1',
  kind: 'Kustomization',
  plural: 'kustomizations',
};
const HELM_RELEASES: WatchedResource = {
  group: 'helm.toolkit.fluxcd.io',
  version: 'v2',
  kind: 'HelmRelease',
  plural: 'helmreleases',
};

function clientOf(name: string, server: string, token = 'none'): ClusterClient {
  return new ClusterClient(
    name,
    createKubeConfig({
      name,
      url: server,
      auth: { type: 'serviceAccountToken', token },
      skipTLSVerify: false,
      configKey: 'test',
    }),
    settings.requestTimeoutMs,
  );
}

function quietObserver(failures: string[] = []): InformerObserver {
  return {
    succeeded: () => {},
    failed: (_i, error) => failures.push(error.message),
    listed: () => {},
    heard: () => {},
    vanished: () => {},
  };
}

async function until(what: string, check: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 25));
  }
}

/** Lists `resources` of the client's cluster into a fresh store, with the list worker given or on this thread. */
async function listInto(
  client: ClusterClient,
  resources: WatchedResource[],
  listWorker?: ListWorker,
  logger = mockServices.logger.mock(),
  failures: string[] = [],
) {
  const store = new ClusterStore(client.cluster, new ValuePool(), logger, 5, () => {});
  const informers = resources.map(
    resource =>
      new ResourceInformer(
        resource,
        client,
        resource.metadataOnly ? store.supporting('workloads', resource) : store.flux(resource),
        quietObserver(failures),
        settings,
        logger,
        t => t(),
        listWorker,
      ),
  );
  for (const informer of informers) informer.start();
  try {
    await until('listed', () => informers.every(i => i.synced));
  } finally {
    for (const informer of informers) informer.stop();
  }
  return store;
}

function recordsOf(store: ClusterStore) {
  return new Map([...store.objects.existingSlots()].map(slot => [store.objects.keyOf(slot)!, store.objects.recordAt(slot)]));
}

describe('the list worker against the simulator', () => {
  let sim: FleetSim;
  let client: ClusterClient;

  beforeAll(async () => {
    sim = await startFleetSim({ size: 'S', seed: 5, port: 0, clusters: 1, services: 60 });
    client = clientOf(sim.clusters[0].name, sim.clusters[0].server, sim.clusters[0].readOnlyToken);
  });
  afterAll(() => sim.close());

  it('stores every listed object as reading on the main thread does, and its workloads, then stops its thread', async () => {
    const worker = new ListWorker(mockServices.logger.mock(), { idleMs: 200 });
    const resources = [KUSTOMIZATIONS, HELM_RELEASES, WORKLOADS[0]];
    const onMainThread = await listInto(client, resources);
    const fromWorker = await listInto(client, resources, worker);
    const truth = sim.truth().objects.filter(o => o.kind === 'Kustomization' || o.kind === 'HelmRelease');
    // more than a page of each, so that pages follow one another through the worker
    expect(truth.length).toBeGreaterThan(2 * settings.pageSize);
    expect(recordsOf(fromWorker).size).toBe(truth.length);
    expect(recordsOf(fromWorker)).toEqual(recordsOf(onMainThread));
    // the Deployments (read on the main thread) beside them, labelled with a kubernetes-id, by inventory id
    expect(fromWorker.workloads.size).toBeGreaterThan(20);
    expect(new Map(fromWorker.workloads)).toEqual(new Map(onMainThread.workloads));
    expect(worker.running).toBe(true);
    await until('the worker stopped', () => !worker.running, 5_000);
    expect(worker.available).toBe(true);
  });

  it('reads on the main thread, and says so once, when its thread cannot start', async () => {
    const logger = mockServices.logger.mock();
    const worker = new ListWorker(logger, { entry: '/nonexistent/listWorkerThread.js' });
    const failures: string[] = [];
    const store = await listInto(client, [KUSTOMIZATIONS], worker, logger, failures);
    expect(store.objects.size).toBe(sim.truth().objects.filter(o => o.kind === 'Kustomization').length);
    expect(worker.available).toBe(false);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      "Flux Fleet reads lists on the main thread from now on: its list worker could not start (Cannot find module '/nonexistent/listWorkerThread.js')",
    );
    // the page it was given failed like a broken request, naming the worker, and was read again
    expect(failures).toEqual([expect.stringContaining("Flux Fleet's list worker stopped")]);
  });
});

describe('the list worker on odd list bodies', () => {
  let server: http.Server;
  let body = '';

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // in small pieces: items cut across chunks
      const bytes = Buffer.from(body);
      let at = 0;
      const next = () => {
        if (at >= bytes.length) {
          res.end();
          return;
        }
        res.write(bytes.subarray(at, at + 7));
        at += 7;
        setImmediate(next);
      };
      next();
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise(resolve => server.close(resolve)));

  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kustomization = (name: unknown) => ({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name, namespace: 'apps' },
    spec: { interval: '5m', sourceRef: { kind: 'GitRepository', name: 'apps' } },
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied "ü"' }] },
  });

  it('hands an item it cannot normalise to the main thread, which skips it and says why', async () => {
    body = JSON.stringify({
      kind: 'KustomizationList',
      metadata: { resourceVersion: '42' },
      items: [kustomization('good'), kustomization(7), kustomization('also-good')],
    });
    const logger = mockServices.logger.mock();
    const worker = new ListWorker(logger);
    const store = await listInto(clientOf('odd', url()), [KUSTOMIZATIONS], worker, logger);
    expect(worker.running).toBe(true);
    expect([...recordsOf(store).keys()].sort()).toEqual(['odd/apps/Kustomization/also-good', 'odd/apps/Kustomization/good']);
    expect(store.objects.get('odd/apps/Kustomization/good')?.ready?.message).toBe('Applied "ü"');
    expect([...store.malformed.values()]).toEqual([
      'Kustomization apps/? in cluster odd: metadata.name should be text but is number 7',
    ]);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining("Flux Fleet skips Kustomization apps/7 of cluster 'odd'"));
  });

  it('fails a page whose body is not JSON, as reading on the main thread does', async () => {
    body = `{"kind":"KustomizationList","metadata":{},"items":[${JSON.stringify(kustomization('a'))},{"metadata":}]}`;
    const failures: string[] = [];
    const logger = mockServices.logger.mock();
    const client = clientOf('broken', url());
    const worker = new ListWorker(logger);
    const store = new ClusterStore('broken', new ValuePool(), logger, 5, () => {});
    const informer = new ResourceInformer(
      KUSTOMIZATIONS,
      client,
      store.flux(KUSTOMIZATIONS),
      quietObserver(failures),
      settings,
      logger,
      t => t(),
      worker,
    );
    informer.start();
    try {
      await until('a failure', () => failures.length > 0);
    } finally {
      informer.stop();
    }
    expect(failures[0]).toMatch(/^cluster 'broken': GET \/apis\/kustomize.toolkit.fluxcd.io\/v1\/kustomizations answered with text that is not JSON \(/);
    expect(informer.synced).toBe(false);
    expect(worker.running).toBe(true);
  });
});
