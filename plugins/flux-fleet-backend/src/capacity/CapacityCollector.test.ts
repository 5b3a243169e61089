import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mockServices } from '@backstage/backend-test-utils';
import type { CapacitySettings } from '../config/FleetConfig';
import { CapacityCollector } from './CapacityCollector';
import { testController, testInstance } from './__testUtils__/controllerFixtures';
import { FakeClusterApi } from './__testUtils__/fakeClusterApi';
import { exposition } from './__testUtils__/metricsFixtures';

const controller = testController;
const instance = testInstance;

const instances = [
  instance('eu-1', [
    controller('eu-1', 'kustomize-controller', 'kustomize-controller'),
  ]),
  instance('us-1', [
    controller('us-1', 'helm-controller', 'helm-controller'),
    controller('us-1', 'kustomize-controller', 'kustomize-controller'),
  ]),
];
const directory = {
  instances: (cluster?: string) =>
    instances.filter(i => cluster === undefined || i.cluster === cluster),
};

const settings = (
  prometheusUrl?: string,
  extra: Partial<CapacitySettings> = {},
): CapacitySettings => ({
  enabled: true,
  scrapeIntervalMs: 60_000,
  windowMs: 300_000,
  historyPoints: 2,
  podProxy: {
    enabled: true,
    concurrency: 4,
    timeoutMs: 2000,
    maxBodyBytes: 1024 * 1024,
    bytesPerMinute: 1024 * 1024,
  },
  prometheus: prometheusUrl
    ? {
        url: prometheusUrl,
        auth: { type: 'none' },
        clusterLabel: 'cluster',
        timeoutMs: 2000,
      }
    : undefined,
  ...extra,
});

describe('CapacityCollector', () => {
  const eu = new FakeClusterApi();
  const us = new FakeClusterApi();
  /** A collector of eu-1 and us-1 through the pod proxy at a fixed time, with `options` on top. */
  const podProxyCollector = (options: Partial<ConstructorParameters<typeof CapacityCollector>[0]>) =>
    new CapacityCollector({
      settings: settings(),
      directory,
      clients: new Map([
        ['eu-1', eu.client('eu-1')],
        ['us-1', us.client('us-1')],
      ]),
      logger: mockServices.logger.mock(),
      now: () => 1_700_000_000_000,
      ...options,
    });
  let prometheus: http.Server;
  let prometheusUrl: string;

  beforeAll(async () => {
    await eu.start();
    await us.start();
    // a Prometheus that scrapes eu-1 only: every figure query answers one series for eu-1, none for us-1
    prometheus = http.createServer((req, res) => {
      const query =
        new URL(req.url!, 'http://x').searchParams.get('query') ?? '';
      const result = query.includes('cluster="eu-1"')
        ? [
            {
              metric: {
                namespace: 'flux-system',
                deployment: 'kustomize-controller',
                pod: 'kc-eu',
              },
              value: [0, '2'],
            },
          ]
        : [];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          status: 'success',
          data: { resultType: 'vector', result },
        }),
      );
    });
    await new Promise<void>(resolve =>
      prometheus.listen(0, '127.0.0.1', resolve),
    );
    prometheusUrl = `http://127.0.0.1:${
      (prometheus.address() as AddressInfo).port
    }`;
    eu.set({
      namespace: 'flux-system',
      name: 'kustomize-controller',
      pods: { 'kc-eu': { text: exposition({ reconciles: 1 }) } },
    });
    us.set({
      namespace: 'flux-system',
      name: 'kustomize-controller',
      pods: { 'kc-us': { text: exposition({ reconciles: 100 }) } },
    });
    us.set({
      namespace: 'flux-system',
      name: 'helm-controller',
      pods: {
        'hc-us': {
          status: 403,
          body: '{"kind":"Status","reason":"Forbidden","message":"forbidden"}',
        },
      },
    });
  });
  afterAll(async () => {
    await eu.stop();
    await us.stop();
    prometheus.close();
  });

  it('collects only the clusters this replica holds, and takes the others’ figures from the replicas that do', async () => {
    let now = 1_700_000_000_000;
    const clients = new Map([
      ['eu-1', eu.client('eu-1')],
      ['us-1', us.client('us-1')],
    ]);
    const scraped = () => eu.requests.length + us.requests.length;
    // replica A holds eu-1's lease, replica B us-1's
    const a = new CapacityCollector({
      settings: settings(undefined, { historyPoints: 5 }),
      directory,
      clients,
      logger: mockServices.logger.mock(),
      now: () => now,
      collects: cluster => cluster === 'eu-1',
    });
    const b = new CapacityCollector({
      settings: settings(undefined, { historyPoints: 5 }),
      directory,
      clients,
      logger: mockServices.logger.mock(),
      now: () => now,
      collects: cluster => cluster === 'us-1',
    });
    const usBefore = us.requests.length;
    await a.collect();
    // A did not scrape us-1's controllers
    expect(us.requests.length).toBe(usBefore);
    expect(a.measurements('us-1').every(r => !r.measurement)).toBe(true);
    await b.collect();
    now += 60_000;
    await a.collect();
    await b.collect();
    expect(scraped()).toBeGreaterThan(0);

    // each hands its cluster over (as JSON, as the database carries it): both then answer the same
    a.importCluster('us-1', JSON.parse(JSON.stringify(b.exportCluster('us-1'))));
    b.importCluster('eu-1', JSON.parse(JSON.stringify(a.exportCluster('eu-1'))));
    expect(a.measurements()).toEqual(b.measurements());
    expect(a.measurements('us-1').find(r => r.deployment === 'kustomize-controller')?.measurement).toMatchObject({
      source: 'pod-proxy',
    });
    const key = 'eu-1/flux-system/kustomize-controller';
    expect(b.history(key)).toEqual(a.history(key));
    expect(b.history(key)).toHaveLength(2);
  });

  it('keeps one point of history per scrape of a controller scraped every few rounds, not one per round', async () => {
    let now = 1_700_000_000_000;
    const collector = new CapacityCollector({
      settings: settings(undefined, {
        historyPoints: 20,
        podProxy: { enabled: true, concurrency: 4, timeoutMs: 2000, maxBodyBytes: 1 << 20, bytesPerMinute: 1024 },
      }),
      directory,
      clients: new Map([['eu-1', eu.client('eu-1')]]),
      logger: mockServices.logger.mock(),
      now: () => now,
    });
    const scrapes = () => eu.requests.filter(p => p.endsWith('/proxy/metrics')).length;
    const before = scrapes();
    for (let round = 0; round < 12; round++) {
      await collector.collect();
      now += 60_000;
    }
    const scraped = scrapes() - before;
    // its answer is over 1 KiB a minute: scraped in fewer rounds than 12, at least every fifth (the 300 s window)
    expect(scraped).toBeLessThan(12);
    expect(scraped).toBeGreaterThanOrEqual(4);
    const history = collector.history('eu-1/flux-system/kustomize-controller');
    expect(history).toHaveLength(scraped);
    expect(new Set(history.map(p => p.measuredAt)).size).toBe(scraped);
  });

  it('ends a round its scheduler cut short at once: the clusters measured keep the round, the others their last readings', async () => {
    const ap = new FakeClusterApi();
    await ap.start();
    try {
      ap.set({ namespace: 'flux-system', name: 'kustomize-controller', pods: { 'kc-ap': { hang: true } } });
      const logger = mockServices.logger.mock();
      const collector = new CapacityCollector({
        settings: settings(undefined, { podProxy: { enabled: true, concurrency: 4, timeoutMs: 5000, maxBodyBytes: 1 << 20, bytesPerMinute: 1 << 22 } }),
        directory: {
          instances: (cluster?: string) =>
            [instances[0], instance('ap-1', [controller('ap-1', 'kustomize-controller', 'kustomize-controller')])].filter(
              i => cluster === undefined || i.cluster === cluster,
            ),
        },
        clients: new Map([
          ['eu-1', eu.client('eu-1')],
          ['ap-1', ap.client('ap-1')],
        ]),
        logger,
      });
      const round = new AbortController();
      const started = Date.now();
      setTimeout(() => round.abort(), 500);
      await collector.collect(round.signal);
      // not the 5 s the hanging scrape would take
      expect(Date.now() - started).toBeLessThan(2500);
      expect(collector.measurements('eu-1')[0].measurement).toMatchObject({ source: 'pod-proxy' });
      const [ap1] = collector.measurements('ap-1');
      expect(ap1.measurement).toBeUndefined();
      expect(ap1.unmeasured).toEqual(['not measured yet: a collection round ran out of time before reaching this cluster']);
      expect(logger.warn).toHaveBeenCalledWith(
        'Flux Fleet: a capacity collection round did not finish within its timeout of 120 s; 1 of 2 clusters were measured, the others keep their last measurements',
      );
    } finally {
      await ap.stop();
    }
  });

  it('scrapes no controller of a cluster still in its first list, and says so, until the list is complete', async () => {
    const listed = new Set(['eu-1']);
    const collector = podProxyCollector({ listed: cluster => listed.has(cluster) });
    const usBefore = us.requests.length;
    await collector.collect();
    expect(us.requests.length).toBe(usBefore);
    for (const reading of collector.measurements('us-1')) {
      expect(reading.measurement).toBeUndefined();
      expect(reading.unmeasured).toEqual([
        'not measured yet: the cluster is still being listed for the first time; its controllers are scraped once the list is complete',
      ]);
    }
    expect(collector.measurements('eu-1').some(r => r.measurement)).toBe(true);

    listed.add('us-1');
    await collector.collect();
    expect(us.requests.length).toBeGreaterThan(usBefore);
    expect(collector.measurements('us-1').some(r => r.measurement)).toBe(true);
  });

  it('scrapes no controller during the fleet\'s first sync, not even of listed clusters, and starts a round once it is over', async () => {
    let firstSync: { done: number; clusters: number } | undefined = { done: 1, clusters: 2 };
    let over!: () => void;
    const firstSyncOver = new Promise<void>(resolve => {
      over = resolve;
    });
    const collector = podProxyCollector({ firstSync: () => firstSync, firstSyncOver });
    const triggered: string[] = [];
    let scheduled: (() => Promise<void>) | undefined;
    let triggeredRound: Promise<void> | undefined;
    await collector.start({
      scheduleTask: async (task: { fn: () => Promise<void> }) => {
        scheduled = () => task.fn();
      },
      triggerTask: async (id: string) => {
        triggered.push(id);
        triggeredRound = scheduled?.();
        await triggeredRound;
      },
    } as any);
    const before = { eu: eu.requests.length, us: us.requests.length };
    await scheduled!();
    expect({ eu: eu.requests.length, us: us.requests.length }).toEqual(before);
    for (const reading of collector.measurements()) {
      expect(reading.measurement).toBeUndefined();
      expect(reading.unmeasured).toEqual([
        "not measured yet: the fleet's first sync is under way (1 of 2 clusters listed); controllers are scraped once it is over, so that scraping does not slow the lists",
      ]);
    }

    firstSync = undefined;
    over();
    await new Promise(resolve => setImmediate(resolve));
    await triggeredRound;
    expect(triggered).toEqual(['flux-fleet-capacity-collect']);
    expect(eu.requests.length).toBeGreaterThan(before.eu);
    expect(us.requests.length).toBeGreaterThan(before.us);
    expect(collector.measurements('eu-1').some(r => r.measurement)).toBe(true);
    expect(collector.measurements('us-1').some(r => r.measurement)).toBe(true);
    collector.stop();
  });

  it('prefers Prometheus, falls back to the pod proxy, and says why a controller has neither', async () => {
    let now = 1_700_000_000_000;
    const logger = mockServices.logger.mock();
    const collector = new CapacityCollector({
      settings: settings(prometheusUrl),
      directory,
      clients: new Map([
        ['eu-1', eu.client('eu-1')],
        ['us-1', us.client('us-1')],
      ]),
      logger,
      now: () => now,
    });
    expect(collector.measurements('eu-1')[0].unmeasured).toEqual([
      'not measured yet: the first collection has not finished',
    ]);

    await collector.collect();
    now += 60_000;
    us.set({
      namespace: 'flux-system',
      name: 'kustomize-controller',
      pods: { 'kc-us': { text: exposition({ reconciles: 160 }) } },
    });
    await collector.collect();

    const [euKc, usHc, usKc] = collector.measurements();
    expect(euKc.key).toBe('eu-1/flux-system/kustomize-controller');
    expect(euKc.measurement).toMatchObject({
      source: 'prometheus',
      reconcilesPerSecond: 2,
      pods: ['kc-eu'],
    });
    expect(euKc.unmeasured).toEqual([]);

    expect(usKc.measurement).toMatchObject({
      source: 'pod-proxy',
      reconcilesPerSecond: 1,
      windowSeconds: 60,
    });
    expect(usKc.unmeasured).toEqual([
      `Prometheus: Prometheus at ${prometheusUrl} has no series of deployment "kustomize-controller" in namespace "flux-system" with cluster="us-1"`,
    ]);

    expect(usHc.measurement).toBeUndefined();
    expect(usHc.unmeasured).toEqual([
      `Prometheus: Prometheus at ${prometheusUrl} has no series of deployment "helm-controller" in namespace "flux-system" with cluster="us-1"`,
      'pod proxy: pod hc-us: the scrape answered 403 Forbidden: the credentials lack get on pods/proxy (see the ClusterRole in the README)',
    ]);
    expect(usHc.bySource['pod-proxy']?.pods).toEqual([]);

    // the operator hears once, not every round, which controller cannot be measured and why
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^Flux Fleet cannot measure controller us-1\/flux-system\/helm-controller from its metrics; its capacity figures are estimated: Prometheus: .*; pod proxy: pod hc-us: the scrape answered 403 Forbidden/,
      ),
    );

    // history keeps the last two rounds (historyPoints), oldest first
    now += 60_000;
    await collector.collect();
    const history = collector.history('us-1/flux-system/kustomize-controller');
    expect(history.map(p => p.measuredAt)).toEqual([
      new Date(now - 60_000).toISOString(),
      new Date(now).toISOString(),
    ]);
    expect(history[1]).toMatchObject({
      source: 'pod-proxy',
      reconcilesPerSecond: 0,
    });
    expect(collector.history('us-1/flux-system/helm-controller')).toEqual([]);

    // a controller gone from the index is forgotten, its history too
    const removed = instances[1].controllers.pop()!;
    try {
      await collector.collect();
      expect(collector.measurements('us-1').map(r => r.deployment)).toEqual([
        'helm-controller',
      ]);
      expect(
        collector.history('us-1/flux-system/kustomize-controller'),
      ).toEqual([]);
    } finally {
      instances[1].controllers.push(removed);
    }
  });

  it.each([
    [{ enabled: false }, 'not measured: fluxFleet.capacity.enabled is false'],
    [
      {
        podProxy: {
          enabled: false,
          concurrency: 1,
          timeoutMs: 1000,
          maxBodyBytes: 1024,
          bytesPerMinute: 1024,
        },
      },
      'not measured: fluxFleet.capacity.prometheus is not set and fluxFleet.capacity.podProxy.enabled is false',
    ],
  ])('with %j every controller says why it is not measured', (extra, why) => {
    const collector = new CapacityCollector({
      settings: settings(undefined, extra),
      directory,
      clients: new Map([['eu-1', eu.client('eu-1')]]),
      logger: mockServices.logger.mock(),
    });
    expect(collector.measurements()).toEqual([
      {
        key: 'eu-1/flux-system/kustomize-controller',
        cluster: 'eu-1',
        namespace: 'flux-system',
        deployment: 'kustomize-controller',
        component: 'kustomize-controller',
        unmeasured: [why],
        bySource: {},
      },
    ]);
  });
});
