import type { QueueLoad, QueuedObject } from './controllerLoad';
import { QueueState, remainingShare } from './podMetrics';
import { queueFigures } from './queueModel';

const CONCURRENT = 4;

/** `n` Kustomizations reconciled every 600 s, 12 s each (the demo's over-capacity controller's mix). */
function objects(n: number, from = 0): QueuedObject[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: 'Kustomization',
    namespace: 'apps',
    name: `app-${from + i}`,
    arrivalsPerSecond: 1 / 600,
    reconcileSeconds: 12,
    failing: false,
  }));
}

function loadOf(list: QueuedObject[]): QueueLoad {
  const arrivals = list.reduce((s, o) => s + o.arrivalsPerSecond, 0);
  return {
    controller: 'kustomization',
    objects: list,
    arrivalsPerSecond: arrivals,
    meanServiceSeconds: 12,
    errorShare: 0,
    figures: queueFigures(arrivals, 12, CONCURRENT),
  };
}

describe('a controller work queue', () => {
  it('keeps the backlog share of the objects it still owns when objects move away', () => {
    const all = loadOf(objects(280));
    expect(remainingShare(undefined, all)).toBe(1);
    expect(remainingShare(all, loadOf(objects(70)))).toBeCloseTo(0.25);
    expect(remainingShare(all, loadOf(objects(70, 1000)))).toBe(0);
  });

  it('builds a backlog over capacity, never more items than objects, all workers busy', () => {
    const q = new QueueState('kustomization');
    q.setLoad(loadOf(objects(280))); // ρ = 280/600·12/4 = 1.4
    q.advance(600, CONCURRENT);
    // grows at λ − c/E[S] = 0.4667 − 0.3333 items a second
    expect(q.depth).toBeCloseTo(80, 0);
    expect(q.busyWorkers).toBe(CONCURRENT);
    q.advance(10_000, CONCURRENT);
    expect(q.depth).toBe(280);
  });

  it('drops the moved objects’ items at once, drains the rest at c/E[S] − λ with every worker busy, then settles', () => {
    const q = new QueueState('kustomization');
    q.setLoad(loadOf(objects(280)));
    q.advance(600, CONCURRENT);
    q.setLoad(loadOf(objects(93))); // a third stays: ρ = 0.465
    expect(q.depth).toBeCloseTo(80 * (93 / 280), 0);
    const reconciles = q.reconcileTime.count;
    q.advance(60, CONCURRENT);
    // a backlog of 26.6 drains at 1/3 − 0.155 = 0.178 a second: 150 s
    expect(q.busyWorkers).toBe(CONCURRENT);
    expect(q.reconcileTime.count - reconciles).toBeCloseTo(20, 0);
    q.advance(120, CONCURRENT);
    expect(q.depth).toBeLessThan(1);
    expect(q.busyWorkers).toBeLessThan(CONCURRENT);
    q.advance(10, CONCURRENT);
    expect(q.busyWorkers).toBeCloseTo(93 / 600 * 12);
    expect(q.currentWait).toBeLessThan(5);
  });
});
