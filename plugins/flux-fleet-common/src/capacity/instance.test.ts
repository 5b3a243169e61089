import type { CapacityAdvice } from '../capacityApi';
import { controllerOf, measurementOf, sameObjects } from '../fixtures/capacity';
import type { FluxController } from '../types';
import { assessController } from './assess';
import { assessInstance } from './instance';
import type { ControllerMeasurement } from './measurement';

const GIB = 2 ** 30;

function capacity(
  controller: FluxController,
  objects: ReturnType<typeof sameObjects>,
  figures?: Partial<ControllerMeasurement>,
) {
  return assessController({
    controller,
    objects,
    measurement: figures
      ? measurementOf(controller.name, controller.component, figures)
      : undefined,
    noMeasurementReason: figures
      ? undefined
      : 'the credentials lack get on pods/proxy',
  });
}

const kustomize = controllerOf('kustomize-controller');
const helm20 = controllerOf('helm-controller', ['--concurrent=20']);
const notification = controllerOf('notification-controller');
const KS = sameObjects(2400, 'Kustomization', '10m', 2300);
const HR = sameObjects(900, 'HelmRelease', '5m', 40_000);

function instanceOf(...controllers: ReturnType<typeof capacity>[]) {
  return assessInstance({
    cluster: 'prod-eu',
    instance: 'flux-system',
    operatorManaged: false,
    controllers,
  });
}

describe('assessInstance', () => {
  it.each<[string, ReturnType<typeof capacity>[], CapacityAdvice, string]>([
    [
      'room left, measured',
      [
        capacity(kustomize, KS, {
          activeWorkers: 0.92,
          maxConcurrentReconciles: 4,
        }),
      ],
      'none',
      'No: kustomize-controller is 23 % busy with 2,400 Kustomizations, room for about 4,900 more at this mix.',
    ],
    [
      'room left, estimated',
      [capacity(kustomize, sameObjects(240, 'Kustomization', '10m', 2300))],
      'none',
      'No: kustomize-controller is 23 % busy (estimated from intervals: the credentials lack get on pods/proxy) with 240 Kustomizations, room for about 490 more at this mix.',
    ],
    [
      'busy, CPU to spare',
      [
        capacity(kustomize, KS, {
          activeWorkers: 3.6,
          cpuCores: 0.36,
          cpuLimitCores: 2,
        }),
      ],
      'raise-concurrency',
      'Raise --concurrent of kustomize-controller to 10 first: it is 90 % busy at 4 workers with 2,400 Kustomizations; CPU allows it (about 1 core at 10 workers, limit 2 cores).',
    ],
    [
      'busy, estimated (CPU unknown)',
      [capacity(kustomize, sameObjects(600, 'Kustomization', '5m', 1500))],
      'raise-concurrency',
      'Raise --concurrent of kustomize-controller to 5 first: it is 75 % busy (estimated from intervals: the credentials lack get on pods/proxy) at 4 workers with 600 Kustomizations; CPU was not measured, so watch it after the change.',
    ],
    [
      'busy, CPU short',
      [
        capacity(kustomize, KS, {
          activeWorkers: 3.6,
          cpuCores: 1.6,
          cpuLimitCores: 2,
        }),
      ],
      'shard',
      'Shard: kustomize-controller has been near capacity for the last 10 m (90 % busy at 4 workers); more workers would not fit: 10 workers would need about 4.4 cores, limit 2 cores.',
    ],
    [
      'saturated at 20 workers with a growing queue',
      [
        capacity(helm20, HR, {
          activeWorkers: 20,
          maxConcurrentReconciles: 20,
          queueDepth: 120,
          queueDepthTrendPerMinute: 5,
          reconcileTimeMeanSeconds: 36,
          queueWaitP95Seconds: 360,
        }),
      ],
      'shard',
      'Shard: helm-controller has been over capacity for the last 10 m (queue wait p95 6 m, 100 % busy at 20 workers); even 20 workers would be 115 % busy.',
    ],
    [
      'memory short, workers idle',
      [
        capacity(kustomize, KS, {
          activeWorkers: 1,
          memoryBytes: 0.95 * GIB,
          memoryLimitBytes: GIB,
        }),
      ],
      'raise-limits',
      'Raise the limits of kustomize-controller first: memory is at 95 % of its 1 GiB limit, while it is 25 % busy at 4 workers.',
    ],
    [
      'throttled only',
      [
        capacity(kustomize, KS, {
          activeWorkers: 1,
          apiThrottledPerSecond: 0.4,
        }),
      ],
      'check-api-throttling',
      "Not by sharding: the Kubernetes API throttles kustomize-controller (0.4 requests a second answered 429) while it is 25 % busy; more workers or shards would only add requests, so look at the API server's priority and fairness first.",
    ],
    [
      'notification-controller over (never sharded)',
      [
        capacity(kustomize, KS, { activeWorkers: 1 }),
        capacity(notification, sameObjects(50, 'Alert', '10m'), {
          activeWorkers: 4,
        }),
      ],
      'raise-concurrency',
      'Raise --concurrent of notification-controller to 10 first: it is 100 % busy at 4 workers with 50 Alerts; CPU was not measured, so watch it after the change.',
    ],
  ])('%s', (_, controllers, advice, answer) => {
    const result = instanceOf(...controllers);
    expect(result.advice).toBe(advice);
    expect(result.answer).toBe(answer);
  });

  it('answers for the worst controller and gives each shard its busiest', () => {
    const shard1 = controllerOf('kustomize-controller-shard1', [
      '--watch-label-selector=sharding.fluxcd.io/key=shard1',
    ]);
    const result = instanceOf(
      capacity(kustomize, KS, { activeWorkers: 1 }),
      capacity(
        controllerOf('source-controller'),
        sameObjects(10, 'GitRepository', '1m'),
      ),
      capacity(shard1, KS, { activeWorkers: 3.9 }),
    );
    expect(result.verdict).toBe('over-capacity');
    expect(result.controller).toBe('kustomize-controller-shard1');
    expect(result.source).toBe('metrics');
    expect(
      result.shards.map(s => [s.shard, s.verdict, s.busiestController]),
    ).toEqual([
      ['main', 'ok', 'kustomize-controller'],
      ['shard1', 'over-capacity', 'kustomize-controller-shard1'],
    ]);
    expect(result.controllers.map(c => c.controller)).toEqual([
      'kustomize-controller',
      'source-controller',
      'kustomize-controller-shard1',
    ]);
  });

  it('says when an instance runs no controllers', () => {
    const result = instanceOf();
    expect(result.verdict).toBe('ok');
    expect(result.answer).toBe(
      'No figures: instance flux-system in cluster prod-eu runs no Flux controllers.',
    );
  });

  it('says when the busiest controller has no objects', () => {
    const result = instanceOf(capacity(kustomize, []));
    expect(result.answer).toBe(
      'No: kustomize-controller reconciles no objects (estimated from intervals: the credentials lack get on pods/proxy).',
    );
  });
});

describe('assessInstance with small figures and a history', () => {
  it.each<[string, Partial<ControllerMeasurement>, string]>([
    [
      'a tiny CPU figure reads in millicores, never "0 cores"',
      { activeWorkers: 3.6, cpuCores: 0.012, cpuLimitCores: 0.5 },
      'Raise --concurrent of kustomize-controller to 10 first: it is 90 % busy at 4 workers with 2,400 Kustomizations; CPU allows it (about 33 millicores at 10 workers, limit 500 millicores).',
    ],
    [
      'a CPU figure under a millicore',
      { activeWorkers: 3.6, cpuCores: 0.0001 },
      'Raise --concurrent of kustomize-controller to 10 first: it is 90 % busy at 4 workers with 2,400 Kustomizations; CPU allows it (under 1 millicore at 10 workers, no CPU limit).',
    ],
    [
      'a controller barely busy reads "under 1 %", not "0 %"',
      { activeWorkers: 0.01, maxConcurrentReconciles: 4 },
      'No: kustomize-controller is under 1 % busy with 2,400 Kustomizations, room for about 660,000 more at this mix.',
    ],
    [
      'a throttling rate just over the threshold, to one decimal',
      { activeWorkers: 1, apiThrottledPerSecond: 0.12 },
      "Not by sharding: the Kubernetes API throttles kustomize-controller (0.1 requests a second answered 429) while it is 25 % busy; more workers or shards would only add requests, so look at the API server's priority and fairness first.",
    ],
  ])('%s', (_, figures, answer) => {
    expect(instanceOf(capacity(kustomize, KS, figures)).answer).toBe(answer);
  });

  const overHelm = () =>
    capacity(helm20, HR, {
      activeWorkers: 20,
      maxConcurrentReconciles: 20,
      queueDepth: 120,
      queueDepthTrendPerMinute: 5,
      reconcileTimeMeanSeconds: 36,
      queueWaitP95Seconds: 360,
    });
  const at = (minute: number) =>
    new Date(Date.UTC(2026, 11, 1, 12, minute)).toISOString();

  it.each<[string, Array<[number, number]>, string]>([
    [
      'over for 40 minutes by the history',
      [
        [0, 0.5],
        [10, 1],
        [30, 1],
        [50, 1],
      ],
      'Shard: helm-controller has been over capacity for 40 minutes (queue wait p95 6 m, 100 % busy at 20 workers); even 20 workers would be 115 % busy.',
    ],
    [
      'over in all the history kept',
      [
        [0, 1],
        [25, 1],
      ],
      'Shard: helm-controller has been over capacity for at least 25 minutes (queue wait p95 6 m, 100 % busy at 20 workers); even 20 workers would be 115 % busy.',
    ],
    [
      'no history: the window only',
      [],
      'Shard: helm-controller has been over capacity for the last 10 m (queue wait p95 6 m, 100 % busy at 20 workers); even 20 workers would be 115 % busy.',
    ],
  ])('%s', (_, points, answer) => {
    const result = assessInstance({
      cluster: 'prod-eu',
      instance: 'flux-system',
      operatorManaged: false,
      controllers: [overHelm()],
      history: new Map([
        [
          'helm-controller',
          points.map(([minute, utilisation]) => ({
            at: at(minute),
            utilisation,
          })),
        ],
      ]),
    });
    expect(result.answer).toBe(answer);
  });
});
