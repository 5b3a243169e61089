import type { CapacityReasonCode, CapacityVerdict } from '../capacityApi';
import { controllerOf, measurementOf, sameObjects } from '../fixtures/capacity';
import type { ControllerMeasurement } from './measurement';
import { assessController, NO_METRICS_REASON } from './assess';

const KUSTOMIZE = controllerOf('kustomize-controller');
const GIB = 2 ** 30;

function measured(figures: Partial<ControllerMeasurement>) {
  return measurementOf('kustomize-controller', 'kustomize-controller', figures);
}

describe('assessController', () => {
  it('estimates from intervals without metrics and says why', () => {
    // 2,400 Kustomizations every 10 m taking 2.3 s: 2,400 × 2.3 / 600 = 9.2 busy workers of 4 → 230 %.
    const c = assessController({
      controller: KUSTOMIZE,
      objects: sameObjects(2400, 'Kustomization', '10m', 2300),
      noMeasurementReason: 'the credentials lack get on pods/proxy',
    });
    expect(c.source).toBe('estimate');
    expect(c.estimateReason).toBe('the credentials lack get on pods/proxy');
    expect(c.figures.busyWorkers?.source).toBe('estimated');
    expect(c.figures.busyWorkers?.value).toBeCloseTo(9.2);
    expect(c.figures.concurrent).toEqual({ value: 4, source: 'configured' });
    expect(c.figures.utilisation?.value).toBeCloseTo(2.3);
    expect(c.verdict).toBe('over-capacity');
    expect(c.reasons[0].code).toBe('utilisation-over');
    expect(c.reasons[0].text).toBe(
      'utilisation 230 % (estimated; 9.2 of 4 workers busy) is at or above 95 %',
    );
    expect(c.headroomObjects).toBe(0);
    expect(c.headroomText).toBe('none');
  });

  it('says a default reason when the caller gives none', () => {
    const c = assessController({
      controller: KUSTOMIZE,
      objects: sameObjects(10, 'Kustomization', '10m'),
    });
    expect(c.estimateReason).toBe(NO_METRICS_REASON);
  });

  it('takes measured active workers over the estimate and counts headroom at this mix', () => {
    // 2,400 objects keep 0.92 of 4 workers busy: each adds 0.92/2400; room up to 2.8 busy = 4,904 more.
    const c = assessController({
      controller: KUSTOMIZE,
      objects: sameObjects(2400, 'Kustomization', '10m', 2300),
      measurement: measured({
        activeWorkers: 0.92,
        maxConcurrentReconciles: 4,
      }),
    });
    expect(c.source).toBe('metrics');
    expect(c.estimateReason).toBeUndefined();
    expect(c.figures.utilisation).toEqual({ value: 0.23, source: 'measured' });
    expect(c.figures.concurrent.source).toBe('measured');
    expect(c.verdict).toBe('ok');
    expect(c.reasons.map(r => r.text)).toEqual([
      'utilisation 23 % (0.9 of 4 workers busy) is below 70 %',
    ]);
    expect(c.headroomObjects).toBe(4904);
    expect(c.headroomText).toBe('about 4,900');
    expect(c.estimatedBusyWorkers).toBeCloseTo(9.2);
  });

  it('derives busy workers from reconcile rate × mean time when the gauge is missing', () => {
    const c = assessController({
      controller: KUSTOMIZE,
      objects: sameObjects(100, 'Kustomization', '1m'),
      measurement: measured({
        reconcilesPerSecond: 1.5,
        reconcileTimeMeanSeconds: 2,
        problems: [
          'pod kustomize-controller-7d9f: series controller_runtime_active_workers is absent',
        ],
      }),
    });
    expect(c.figures.busyWorkers).toEqual({ value: 3, source: 'measured' });
    expect(c.figures.utilisation?.value).toBe(0.75);
    expect(c.verdict).toBe('near-capacity');
    expect(c.problems).toEqual([
      'pod kustomize-controller-7d9f: series controller_runtime_active_workers is absent',
    ]);
  });

  it('falls back to the estimate when the measurement lacks every busy series, and says so with its problems', () => {
    const c = assessController({
      controller: KUSTOMIZE,
      objects: sameObjects(10, 'Kustomization', '10m'),
      measurement: measured({
        cpuCores: 0.1,
        problems: ['pod kustomize-controller-7d9f: scrape answered 500'],
      }),
    });
    expect(c.source).toBe('estimate');
    expect(c.estimateReason).toBe(
      'the metrics of kustomize-controller give neither active workers nor reconcile rate and mean time (pod kustomize-controller-7d9f: scrape answered 500)',
    );
    expect(c.figures.cpuCores).toEqual({ value: 0.1, source: 'measured' });
  });

  it.each<[string, unknown]>([
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['a negative value', -2],
    ['a string', '3'],
  ])('treats %s as missing with a problem', (_, bad) => {
    const c = assessController({
      controller: KUSTOMIZE,
      objects: sameObjects(60, 'Kustomization', '10m'),
      measurement: measured({
        activeWorkers: bad as number,
        cpuCores: bad as number,
      }),
    });
    expect(c.source).toBe('estimate');
    expect(c.figures.cpuCores).toBeUndefined();
    expect(c.figures.utilisation?.value).toBeCloseTo((60 * 10) / 600 / 4);
    expect(c.problems).toHaveLength(2);
    expect(c.problems[0]).toMatch(
      /^flux-system\/kustomize-controller: activeWorkers is /,
    );
    expect(Number.isNaN(c.headroomObjects)).toBe(false);
  });

  it('ignores a measured --concurrent of 0 and keeps the configured one', () => {
    const c = assessController({
      controller: KUSTOMIZE,
      objects: sameObjects(10, 'Kustomization', '10m'),
      measurement: measured({ activeWorkers: 1, maxConcurrentReconciles: 0 }),
    });
    expect(c.figures.concurrent).toEqual({ value: 4, source: 'configured' });
    expect(c.problems).toEqual([
      'flux-system/kustomize-controller: maxConcurrentReconciles is 0: ignored',
    ]);
  });

  it('is over capacity with zero workers and objects to reconcile', () => {
    const c = assessController({
      controller: { ...KUSTOMIZE, concurrent: 0 },
      objects: sameObjects(3, 'Kustomization', '10m'),
    });
    expect(c.verdict).toBe('over-capacity');
    expect(c.reasons[0].code).toBe('no-workers');
    expect(c.figures.utilisation).toBeUndefined();
    expect(c.headroomObjects).toBeUndefined();
  });

  it('is ok with no objects, and has no headroom figure (no mix to count in)', () => {
    const c = assessController({ controller: KUSTOMIZE, objects: [] });
    expect(c.verdict).toBe('ok');
    expect(c.reasons.map(r => r.code)).toEqual(['no-objects']);
    expect(c.headroomObjects).toBeUndefined();
    expect(c.figures.shortestIntervalSeconds).toBeUndefined();
  });

  it.each<
    [
      string,
      Partial<ControllerMeasurement>,
      CapacityVerdict,
      CapacityReasonCode[],
    ]
  >([
    ['idle', { activeWorkers: 0.4 }, 'ok', ['utilisation-low']],
    ['at 70 %', { activeWorkers: 2.8 }, 'near-capacity', ['utilisation-near']],
    [
      'just below 95 %',
      { activeWorkers: 3.79 },
      'near-capacity',
      ['utilisation-near'],
    ],
    ['at 95 %', { activeWorkers: 3.8 }, 'over-capacity', ['utilisation-over']],
    [
      'with a growing queue at least one per worker',
      { activeWorkers: 2, queueDepth: 4, queueDepthTrendPerMinute: 0.5 },
      'over-capacity',
      ['queue-growing', 'utilisation-low'],
    ],
    [
      'with a growing queue shorter than its workers',
      { activeWorkers: 2, queueDepth: 3, queueDepthTrendPerMinute: 0.5 },
      'ok',
      ['utilisation-low'],
    ],
    [
      'with a long queue that shrinks',
      { activeWorkers: 2, queueDepth: 40, queueDepthTrendPerMinute: -3 },
      'ok',
      ['utilisation-low'],
    ],
    [
      'waiting longer than its shortest interval (1 m)',
      { activeWorkers: 2, queueWaitP95Seconds: 75 },
      'near-capacity',
      ['queue-wait-over-interval', 'utilisation-low'],
    ],
    [
      'reconciling slower than its shortest interval',
      { activeWorkers: 2, reconcileTimeP95Seconds: 90 },
      'ok',
      ['utilisation-low', 'reconcile-time-over-interval'],
    ],
    [
      'at 90 % of its CPU limit',
      { activeWorkers: 1, cpuCores: 0.9, cpuLimitCores: 1 },
      'near-capacity',
      ['cpu-near-limit', 'utilisation-low'],
    ],
    [
      'at 89 % of its CPU limit',
      { activeWorkers: 1, cpuCores: 0.89, cpuLimitCores: 1 },
      'ok',
      ['utilisation-low'],
    ],
    [
      'at 95 % of its memory limit',
      { activeWorkers: 1, memoryBytes: 0.95 * GIB, memoryLimitBytes: GIB },
      'near-capacity',
      ['memory-near-limit', 'utilisation-low'],
    ],
    [
      'throttled by the API',
      { activeWorkers: 1, apiThrottledPerSecond: 0.5 },
      'near-capacity',
      ['api-throttled', 'utilisation-low'],
    ],
    [
      'throttled now and then',
      { activeWorkers: 1, apiThrottledPerSecond: 0.1 },
      'ok',
      ['utilisation-low'],
    ],
  ])(
    'a controller %s gets the verdict and reasons its figures give',
    (_, figures, verdict, codes) => {
      const c = assessController({
        controller: KUSTOMIZE,
        objects: [
          ...sameObjects(50, 'Kustomization', '10m'),
          ...sameObjects(1, 'Kustomization', '1m'),
        ],
        measurement: measured(figures),
      });
      expect(c.verdict).toBe(verdict);
      expect(c.reasons.map(r => r.code)).toEqual(codes);
      for (const r of c.reasons) expect(r.text).not.toMatch(/NaN|undefined/);
    },
  );

  it('reads limits from the Deployment when the measurement has none', () => {
    const c = assessController({
      controller: KUSTOMIZE,
      objects: sameObjects(10, 'Kustomization', '10m'),
      measurement: measured({ activeWorkers: 1, memoryBytes: 1.9 * GIB }),
      limits: { memoryLimitBytes: 2 * GIB },
    });
    expect(c.figures.memoryLimitBytes).toEqual({
      value: 2 * GIB,
      source: 'configured',
    });
    expect(c.figures.memoryOfLimit?.value).toBe(0.95);
    expect(c.verdict).toBe('near-capacity');
    expect(c.reasons[0].text).toBe(
      'memory is at 95 % of its limit (at or above 90 %)',
    );
  });
});
