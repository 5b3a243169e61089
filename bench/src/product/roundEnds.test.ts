import { RoundEnds } from './roundEnds';

/** The readings (seconds, count) at which the tracker says a round ended. */
function endsOf(readings: Array<[number, number]>, quietMs = 10_000): number[] {
  const tracker = new RoundEnds(quietMs);
  return readings.filter(([s, n]) => tracker.observe(s * 1000, n)).map(([s]) => s);
}

describe('RoundEnds', () => {
  it.each<[string, Array<[number, number]>, number[]]>([
    ['a count that never moves shows no round', [[0, 5], [10, 5], [20, 5], [30, 5]], []],
    [
      'a round ends once the count has stood still for the quiet time after growing',
      [[0, 0], [1, 10], [2, 20], [5, 20], [12, 20], [13, 20]],
      [12],
    ],
    [
      'a pause shorter than the quiet time inside a round is not an end',
      [[0, 0], [1, 10], [5, 10], [9, 10], [10, 30], [15, 30], [20, 30]],
      [20],
    ],
    [
      'each round of a periodic collection ends once',
      [[0, 0], [2, 50], [14, 50], [30, 50], [60, 50], [62, 100], [74, 100], [90, 100], [122, 150], [134, 150]],
      [14, 74, 134],
    ],
    ['the first reading alone is no growth', [[0, 100], [20, 100]], []],
  ])('%s', (_, readings, ends) => {
    expect(endsOf(readings)).toEqual(ends);
  });
});
