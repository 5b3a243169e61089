import { distribution, percentile, ratio } from './stats';

describe('distribution', () => {
  it('gives nearest-rank percentiles of unsorted values', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1
    expect(distribution(values)).toEqual({
      count: 100,
      p50: 50,
      p90: 90,
      p99: 99,
      max: 100,
      mean: 50.5,
    });
  });

  it('takes the single value for every percentile of one measurement', () => {
    expect(distribution([7.123])).toMatchObject({
      p50: 7.12,
      p99: 7.12,
      max: 7.12,
    });
  });

  it('has no percentiles without measurements', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(distribution([]).count).toBe(0);
  });
});

describe('ratio', () => {
  it('divides a figure by its baseline, one decimal from 10 up', () => {
    expect(ratio(1234, 10)).toBe(123.4);
    expect(ratio(3, 4)).toBe(0.75);
  });

  it('is undefined when the baseline is zero or a figure is missing', () => {
    expect(ratio(5, 0)).toBeUndefined();
    expect(ratio(NaN, 3)).toBeUndefined();
  });
});
