import { parseQuantity } from './metricMathQuantity';

const near = (value: number) => expect.closeTo(value, 12);

describe('parseQuantity', () => {
  it.each([
    ['500m', near(0.5)],
    ['2', 2],
    [2, 2],
    ['1.5', near(1.5)],
    ['512Mi', near(512 * 2 ** 20)],
    ['1Gi', near(2 ** 30)],
    ['1G', near(1e9)],
    ['100k', near(1e5)],
    ['1e3', near(1000)],
    ['250u', near(0.00025)],
    ['', undefined],
    ['lots', undefined],
    ['1GB', undefined],
    ['-1', undefined],
    [-1, undefined],
    [undefined, undefined],
  ])('%j', (text, expected) => {
    expect(parseQuantity(text)).toEqual(expected);
  });
});
