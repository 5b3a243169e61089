import {
  bucketIncreases,
  counterIncrease,
  histogramQuantile,
  perSecond,
  sumBuckets,
} from './metricMath';
import { parseSampleValue } from './exposition';

const inf = Infinity;
const near = (value: number) => expect.closeTo(value, 10);
const b = (...pairs: Array<[number, number]>) =>
  pairs.map(([le, count]) => ({ le, count }));

describe('counterIncrease', () => {
  it.each([
    ['grows', 10, 25, 15],
    ['stays', 7, 7, 0],
    ['went down: a restart, the new value is the increase', 100, 4, 4],
    ['restart to zero', 100, 0, 0],
    ['NaN now', 1, NaN, undefined],
    ['NaN before', NaN, 3, undefined],
    ['+Inf', 1, inf, undefined],
    ['-Inf before', -inf, 1, undefined],
  ])('%s', (_, before, now, expected) => {
    expect(counterIncrease(before as number, now as number)).toBe(expected);
  });
});

describe('perSecond', () => {
  it.each([
    [30, 60, 0.5],
    [undefined, 60, undefined],
    [30, 0, undefined],
    [30, -5, undefined],
  ])('%s over %s s', (value, seconds, expected) => {
    expect(perSecond(value, seconds)).toBe(expected);
  });
});

describe('histogramQuantile (as Prometheus)', () => {
  it.each([
    // 10 observations: 5 ≤ 0.5, 3 in (0.5,1], 2 in (1,2]; rank 9.5 lies in (1,2]: 1 + 1·(1.5/2)
    [
      'interpolates inside the bucket',
      0.95,
      b([0.5, 5], [1, 8], [2, 10], [inf, 10]),
      near(1.75),
    ],
    [
      'median in the lowest bucket starts at 0',
      0.5,
      b([0.5, 5], [1, 8], [2, 10], [inf, 10]),
      near(0.5),
    ],
    [
      'rank in the +Inf bucket: the largest finite bound',
      0.95,
      b([0.1, 1], [1, 2], [inf, 10]),
      near(1),
    ],
    [
      'unsorted buckets are sorted',
      0.95,
      b([inf, 10], [2, 10], [0.5, 5], [1, 8]),
      near(1.75),
    ],
    [
      'non-monotonic counts raised to the running maximum',
      0.5,
      b([1, 4], [2, 3], [inf, 8]),
      near(1),
    ],
    ['no observations', 0.95, b([1, 0], [inf, 0]), undefined],
    ['no +Inf bucket', 0.95, b([1, 3], [2, 4]), undefined],
    ['only the +Inf bucket', 0.5, b([inf, 4]), undefined],
    ['NaN count', 0.5, b([1, NaN], [inf, 4]), undefined],
    ['phi above 1', 1.5, b([1, 3], [inf, 4]), undefined],
    ['phi NaN', NaN, b([1, 3], [inf, 4]), undefined],
    [
      'lowest bound not positive answers the bound',
      0.1,
      b([-1, 5], [1, 8], [inf, 10]),
      near(-1),
    ],
    [
      'phi 1 is the top of the last filled bucket',
      1,
      b([1, 3], [2, 4], [inf, 4]),
      near(2),
    ],
  ])('%s', (_, phi, buckets, expected) => {
    expect(histogramQuantile(phi, buckets)).toEqual(expected);
  });
});

describe('bucketIncreases', () => {
  it.each([
    [
      'the increase per bound',
      b([1, 2], [inf, 5]),
      b([1, 6], [inf, 12]),
      b([1, 4], [inf, 7]),
    ],
    [
      'a reset (+Inf went down): the current buckets',
      b([1, 50], [inf, 90]),
      b([1, 2], [inf, 3]),
      b([1, 2], [inf, 3]),
    ],
    [
      'a bound only now is left out',
      b([inf, 5]),
      b([1, 6], [inf, 12]),
      b([inf, 7]),
    ],
    ['NaN count', b([1, 2], [inf, 5]), b([1, NaN], [inf, 12]), undefined],
  ])('%s', (_, before, now, expected) => {
    expect(bucketIncreases(before, now)).toEqual(expected);
  });

  it('sums bucket counts of the same bound', () => {
    expect(sumBuckets([b([1, 2], [inf, 3]), b([1, 5], [inf, 5])])).toEqual(
      b([1, 7], [inf, 8]),
    );
  });
});

describe('parseSampleValue', () => {
  it.each([
    ['1', 1],
    ['-2.5e-3', -0.0025],
    ['.5', 0.5],
    ['+Inf', inf],
    ['-Inf', -inf],
    ['NaN', NaN],
    ['', undefined],
    ['0x10', undefined],
    ['world', undefined],
    ['1,5', undefined],
  ])('%j', (text, expected) => {
    expect(parseSampleValue(text)).toBe(expected);
  });
});
