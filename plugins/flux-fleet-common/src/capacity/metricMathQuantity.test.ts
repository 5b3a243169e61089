import { parseQuantity } from './metricMathQuantity';

describe('parseQuantity', () => {
  it.each([
    ['500m', 0.5],
    ['2', 2],
    [2, 2],
    ['1.5', 1.5],
    ['512Mi', 512 * 2 ** 20],
    ['1Gi', 2 ** 30],
    ['1G', 1e9],
    ['100k', 1e5],
    ['1e3', 1000],
    ['250u', 0.00025],
    ['', undefined],
    ['lots', undefined],
    ['1GB', undefined],
    ['-1', undefined],
    [-1, undefined],
    [undefined, undefined],
  ])('%j', (text, expected) => {
    const value = parseQuantity(text);
    if (expected === undefined) expect(value).toBeUndefined();
    else expect(value).toBeCloseTo(expected, 12);
  });
});
