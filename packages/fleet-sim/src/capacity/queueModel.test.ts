import { capacityVerdict, erlangC, queueFigures } from './queueModel';

describe('the queueing model', () => {
  it('gives Erlang C for textbook cases', () => {
    // c = 1: the chance of waiting is ρ; c = 2, a = 1: 1/3.
    expect(erlangC(1, 0.5)).toBeCloseTo(0.5, 10);
    expect(erlangC(2, 1)).toBeCloseTo(1 / 3, 10);
    expect(erlangC(4, 0)).toBe(0);
    expect(erlangC(4, 4)).toBe(1);
  });

  it('keeps up below ρ = 1 and grows without bound at or above it', () => {
    const ok = queueFigures(0.5, 2, 4);
    expect(ok.utilisation).toBeCloseTo(0.25);
    expect(ok.unbounded).toBe(false);
    expect(ok.busyWorkers).toBeCloseTo(1);
    expect(ok.meanWaitSeconds).toBeGreaterThan(0);
    const over = queueFigures(1, 5.6, 4);
    expect(over.utilisation).toBeCloseTo(1.4);
    expect(over.unbounded).toBe(true);
    expect(over.busyWorkers).toBe(4);
    expect(over.growthPerSecond).toBeCloseTo(1 - 4 / 5.6);
  });

  it.each([
    [0.69, false, undefined, undefined, 'ok'],
    [0.7, false, undefined, undefined, 'near-capacity'],
    [0.94, false, undefined, undefined, 'near-capacity'],
    [0.95, false, undefined, undefined, 'over-capacity'],
    [0.5, true, undefined, undefined, 'over-capacity'],
    [0.2, false, 0.9, undefined, 'near-capacity'],
    [0.2, false, 0.89, 0.9, 'near-capacity'],
    [0.2, false, 0.89, 0.89, 'ok'],
  ])(
    'ρ %p, unbounded %p, CPU %p and memory %p of their limits: %s',
    (utilisation, unbounded, cpu, memory, verdict) => {
      expect(
        capacityVerdict({
          utilisation,
          unbounded,
          cpuShareOfLimit: cpu,
          memoryShareOfLimit: memory,
        }),
      ).toBe(verdict);
    },
  );
});
