import type { ControllerComponent, ControllerMeasurement } from '@flux-fleet/plugin-flux-fleet-common';
import { createLimiter } from '../watch/createLimiter';
import { PodProxySource } from './PodProxySource';
import { testController } from './__testUtils__/controllerFixtures';
import { FakeClusterApi } from './__testUtils__/fakeClusterApi';
import { exposition } from './__testUtils__/metricsFixtures';

const controller = (name: string, component: ControllerComponent) => testController('eu-1', name, component);

const controllers = [
  controller('kustomize-controller', 'kustomize-controller'),
  controller('kustomize-controller-shard1', 'kustomize-controller'),
  controller('helm-controller', 'helm-controller'),
  controller('source-controller', 'source-controller'),
  controller('notification-controller', 'notification-controller'),
  controller('image-reflector-controller', 'image-reflector-controller'),
  controller('image-automation-controller', 'image-automation-controller'),
  controller('source-watcher', 'source-watcher'),
];

describe('PodProxySource', () => {
  const api = new FakeClusterApi();
  beforeAll(() => api.start());
  afterAll(() => api.stop());

  const deploy = (
    name: string,
    pods: Parameters<FakeClusterApi['set']>[0]['pods'],
    extra = {},
  ) => api.set({ namespace: 'flux-system', name, pods, ...extra });

  it('measures the healthy controllers and names the problem of each broken one', async () => {
    let now = 1_700_000_000_000;
    const source = new PodProxySource(
      {
        enabled: true,
        concurrency: 3,
        timeoutMs: 500,
        maxBodyBytes: 1024 * 1024,
        bytesPerMinute: 1024 * 1024,
      },
      createLimiter(3),
      60,
      300,
      () => now,
    );
    const client = api.client('eu-1');

    deploy(
      'kustomize-controller',
      {
        'kustomize-controller-7d9f-a': {
          text: exposition({
            reconciles: 100,
            timeSum: 40,
            timeBuckets: [10, 20, 30, 30],
            waitBuckets: [20, 28, 30, 30],
            cpuSeconds: 50,
            requests: 300,
            throttled: 2,
            depth: 1,
          }),
        },
      },
      {
        resources: {
          limits: { cpu: '1', memory: '1Gi' },
          requests: { cpu: '100m', memory: '64Mi' },
        },
      },
    );
    deploy('kustomize-controller-shard1', {
      'kc-shard1-a': {
        text: exposition({ reconciles: 5000, cpuSeconds: 800 }),
      },
    });
    deploy('helm-controller', {
      'helm-controller-b': { text: '<html><body>Bad Gateway</body></html>' },
    });
    deploy('source-controller', {
      'source-controller-c': { hugeBytes: 5 * 1024 * 1024 },
    });
    deploy('notification-controller', {
      'notification-controller-d': { hang: true },
    });
    deploy('image-reflector-controller', {
      'image-reflector-controller-e': {
        status: 403,
        body: JSON.stringify({
          kind: 'Status',
          reason: 'Forbidden',
          message:
            'pods "image-reflector-controller-e" is forbidden: cannot get resource "pods/proxy"',
        }),
      },
    });
    deploy('image-automation-controller', {
      'iac-f': {
        text: exposition({ reconciles: 1, memoryBytes: 'NaN', cpuSeconds: 1 }),
      },
    });
    deploy('source-watcher', {
      'sw-g': {
        text: 'controller_runtime_reconcile_total{controller="artifactgenerator",result="success"} 3\n',
      },
    });

    source.beginRound();
    const first = await source.measureCluster(client, controllers);
    const kc1 = first.find(m => m.deployment === 'kustomize-controller')!;
    expect(kc1.problems).toEqual([
      'first scrape: reconcile rates, durations, queue waits and CPU come with the next, in 60 s',
    ]);
    expect(kc1.queueDepth).toBe(1);
    expect(kc1.reconcilesPerSecond).toBeUndefined();

    // a minute later: the counters grew; shard1 restarted (its counters went down)
    now += 60_000;
    deploy(
      'kustomize-controller',
      {
        'kustomize-controller-7d9f-a': {
          text: exposition({
            reconciles: 160,
            timeSum: 70,
            timeBuckets: [15, 28, 40, 40],
            waitBuckets: [25, 36, 40, 40],
            cpuSeconds: 80,
            requests: 900,
            throttled: 8,
            depth: 7,
          }),
        },
      },
      {
        resources: {
          limits: { cpu: '1', memory: '1Gi' },
          requests: { cpu: '100m', memory: '64Mi' },
        },
      },
    );
    deploy('kustomize-controller-shard1', {
      'kc-shard1-a': { text: exposition({ reconciles: 30, cpuSeconds: 3 }) },
    });
    deploy('image-automation-controller', {
      'iac-f': {
        text: exposition({ reconciles: 7, memoryBytes: 'NaN', cpuSeconds: 4 }),
      },
    });
    source.beginRound();
    const second = await source.measureCluster(client, controllers);
    const by = (name: string) => second.find(m => m.deployment === name)!;

    const measured: ControllerMeasurement = by('kustomize-controller');
    expect(measured).toEqual({
      cluster: 'eu-1',
      namespace: 'flux-system',
      deployment: 'kustomize-controller',
      component: 'kustomize-controller',
      source: 'pod-proxy',
      pods: ['kustomize-controller-7d9f-a'],
      measuredAt: new Date(now).toISOString(),
      windowSeconds: 60,
      maxConcurrentReconciles: 4,
      activeWorkers: 1,
      reconcilesPerSecond: 1,
      reconcileErrorsPerSecond: 0,
      reconcileTimeMeanSeconds: 3,
      reconcileTimeP95Seconds: 1.75,
      queueDepth: 7,
      queueDepthTrendPerMinute: 6,
      // wait increases 5, 8, 10, 10 over le 0.01, 0.1, 1: rank 9.5 → 0.1 + 0.9 · (1.5 / 2)
      queueWaitP95Seconds: expect.closeTo(0.775, 10),
      apiRequestsPerSecond: 10.1,
      apiThrottledPerSecond: 0.1,
      cpuCores: 0.5,
      memoryBytes: 104857600,
      cpuLimitCores: 1,
      memoryLimitBytes: 2 ** 30,
      cpuRequestCores: 0.1,
      memoryRequestBytes: 64 * 2 ** 20,
      problems: [],
    });

    const restarted = by('kustomize-controller-shard1');
    expect(restarted.reconcilesPerSecond).toBeCloseTo(0.5);
    expect(restarted.cpuCores).toBeCloseTo(0.05);
    expect(restarted.problems).toEqual([
      expect.stringMatching(
        /^pod kc-shard1-a: counters went down .* the controller restarted, so rates count from the restart$/,
      ),
    ]);

    const problemsOf = (name: string) => by(name).problems;
    expect(problemsOf('helm-controller')).toEqual([
      "pod helm-controller-b: cannot read the scrape: it is not the Prometheus text format: '<html><body>Bad' is not a metric name",
    ]);
    expect(problemsOf('source-controller')).toEqual([
      'pod source-controller-c: the scrape answered more than 1 MiB (the cap is fluxFleet.capacity.podProxy.maxBodyBytes)',
    ]);
    expect(problemsOf('notification-controller')).toEqual([
      'pod notification-controller-d: the scrape did not answer within 0.5 s',
    ]);
    expect(problemsOf('image-reflector-controller')).toEqual([
      'pod image-reflector-controller-e: the scrape answered 403 Forbidden: the credentials lack get on pods/proxy (see the ClusterRole in the README)',
    ]);
    for (const name of [
      'helm-controller',
      'source-controller',
      'notification-controller',
      'image-reflector-controller',
    ]) {
      expect(by(name).pods).toEqual([]);
      expect(by(name).reconcilesPerSecond).toBeUndefined();
    }

    const nan = by('image-automation-controller');
    expect(nan.memoryBytes).toBeUndefined();
    expect(nan.reconcilesPerSecond).toBeCloseTo(0.1);
    expect(nan.cpuCores).toBeCloseTo(0.05);
    expect(nan.problems).toEqual([
      'pod iac-f: process_resident_memory_bytes is NaN; left out',
    ]);

    const sparse = by('source-watcher');
    expect(sparse.reconcilesPerSecond).toBe(0);
    expect(sparse.problems).toEqual([
      'pod sw-g: the scrape has no controller_runtime_reconcile_time_seconds_bucket series',
      'pod sw-g: the scrape has no controller_runtime_max_concurrent_reconciles series',
      'pod sw-g: the scrape has no controller_runtime_active_workers series',
      'pod sw-g: the scrape has no workqueue_depth series',
      'pod sw-g: the scrape has no process_cpu_seconds_total series',
      'pod sw-g: the scrape has no process_resident_memory_bytes series',
    ]);
  });

  it('says when the credentials may not list pods', async () => {
    const source = new PodProxySource(
      {
        enabled: true,
        concurrency: 2,
        timeoutMs: 2000,
        maxBodyBytes: 1024 * 1024,
        bytesPerMinute: 1024 * 1024,
      },
      createLimiter(2),
      60,
      300,
    );
    deploy('helm-controller', {}, { podListStatus: 403 });
    const [m] = await source.measureCluster(api.client('eu-1'), [
      controller('helm-controller', 'helm-controller'),
    ]);
    expect(m.problems).toEqual([
      'cannot list its pods: the credentials lack list on pods (see the ClusterRole in the README)',
    ]);
  });

  it('scrapes a controller whose answer is over bytesPerMinute every few rounds, spread over the cycle, and keeps its figures between', async () => {
    let now = 1_700_000_000_000;
    const small = exposition({ reconciles: 0 }).length;
    const budget = small + 200;
    // a large controller answers 3.5 times the budget a round (Flux's per-object histograms make a real one large;
    // a comment has an exact size, and capacity drops both unread)
    const padding = `# ${'x'.repeat(Math.round(3.5 * budget) - small - 3)}\n`;
    const large = ['kc-a', 'kc-b', 'kc-c', 'kc-d', 'kc-e', 'kc-f'];
    const source = new PodProxySource(
      { enabled: true, concurrency: 4, timeoutMs: 2000, maxBodyBytes: 1024 * 1024, bytesPerMinute: budget },
      createLimiter(4),
      60,
      300,
      () => now,
    );
    const client = api.client('eu-1');
    const all = [controller('source-controller', 'source-controller'), ...large.map(n => controller(n, 'kustomize-controller'))];
    const answer = (round: number) => {
      api.set({ namespace: 'flux-system', name: 'source-controller', pods: { 'sc-pod': { text: exposition({ reconciles: 60 * round }) } } });
      for (const name of large)
        api.set({ namespace: 'flux-system', name, pods: { [`${name}-pod`]: { text: exposition({ reconciles: 60 * round }) + padding } } });
    };
    const scrapedIn = new Map<string, number[]>();
    const measured: ControllerMeasurement[][] = [];
    for (let round = 1; round <= 14; round++) {
      answer(round);
      const asked = api.requests.length;
      source.beginRound();
      measured.push(await source.measureCluster(client, all));
      for (const path of api.requests.slice(asked)) {
        const pod = /pods\/([^/:]+):\d+\/proxy\/metrics$/.exec(path)?.[1];
        if (pod) scrapedIn.set(pod, [...(scrapedIn.get(pod) ?? []), round]);
      }
      now += 60_000;
    }

    // within the budget: every round
    expect(scrapedIn.get('sc-pod')).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    // 3.5 times the budget: every 4th round once it has rates (the first two rounds give them), its first wait
    // a share of the cycle
    const firstOfCycle = new Set<number>();
    for (const name of large) {
      const rounds = scrapedIn.get(`${name}-pod`)!;
      expect(rounds.slice(0, 2)).toEqual([1, 2]);
      expect(rounds[2] - 2).toBeGreaterThanOrEqual(1);
      expect(rounds[2] - 2).toBeLessThanOrEqual(4);
      expect(rounds.slice(3).map((r, i) => r - rounds[i + 2])).toEqual(rounds.slice(3).map(() => 4));
      firstOfCycle.add(rounds[2] % 4);
    }
    // spread: the six large controllers do not all fall due in the same round
    expect(firstOfCycle.size).toBeGreaterThan(1);

    // between two scrapes a large controller answers its last measurement; the next covers the whole time between
    const kcA = scrapedIn.get('kc-a-pod')!;
    const ofRound = (round: number) => measured[round - 1].find(m => m.deployment === 'kc-a')!;
    const [at, next] = [kcA[3], kcA[4]];
    expect(ofRound(at + 1)).toBe(ofRound(at));
    expect(ofRound(next)).toMatchObject({ windowSeconds: 240, reconcilesPerSecond: 1, problems: [] });
    expect(ofRound(next).measuredAt).not.toBe(ofRound(at).measuredAt);
    expect(source.roundsApart(3.5 * budget)).toBe(4);
    expect(source.roundsApart(100 * small)).toBe(5);
  });

  it('scrapes a spaced controller again the next round when its scrape fails, with rates from its last good one', async () => {
    let now = 1_700_000_000_000;
    const source = new PodProxySource(
      { enabled: true, concurrency: 2, timeoutMs: 2000, maxBodyBytes: 1024 * 1024, bytesPerMinute: 1024 },
      createLimiter(2),
      60,
      600,
      () => now,
    );
    const client = api.client('eu-1');
    const kc = [controller('kustomize-controller', 'kustomize-controller')];
    const scraped: number[] = [];
    let failing = false;
    let afterFailure: ControllerMeasurement | undefined;
    let failedScrape: ControllerMeasurement | undefined;
    for (let round = 1; round <= 16; round++) {
      // good in the first two rounds, then failing until the round it is due, good again after
      failing = round >= 3 && !scraped.some(r => r >= 3);
      deploy('kustomize-controller', {
        'kc-pod': failing
          ? { status: 503, body: 'unavailable' }
          : { text: `${exposition({ reconciles: 60 * round })}# ${'x'.repeat(20_000)}\n` },
      });
      const asked = api.requests.length;
      source.beginRound();
      const [m] = await source.measureCluster(client, kc);
      const wasScraped = api.requests.slice(asked).some(p => p.endsWith('/proxy/metrics'));
      if (wasScraped) scraped.push(round);
      if (wasScraped && failing) failedScrape = m;
      if (scraped.length === 4 && wasScraped) afterFailure = m;
      now += 60_000;
    }
    // 20 KB a round against 1 KiB a minute: 10 rounds apart, the most a 600 s window allows
    const [first, second, failed, retried, ...rest] = scraped;
    expect([first, second]).toEqual([1, 2]);
    expect(failed).toBeGreaterThan(2);
    expect(failed).toBeLessThanOrEqual(12);
    expect(failedScrape?.problems).toEqual(['pod kc-pod: the scrape answered 503 Service Unavailable: unavailable']);
    expect(retried).toBe(failed + 1);
    // the failed scrape kept round 2's as the last good one: the rates cover the time since
    expect(afterFailure).toMatchObject({ windowSeconds: (retried - 2) * 60, reconcilesPerSecond: 1, problems: [] });
    for (const r of rest) expect(r - retried).toBeGreaterThanOrEqual(1);
  });
});
