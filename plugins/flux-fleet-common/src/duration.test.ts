import { formatDuration, parseGoDuration } from './duration';

describe('parseGoDuration', () => {
  it.each([
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['3m6.2s', 186_200],
    ['10m0s', 600_000],
    ['250ms', 250],
    ['1.5h', 5_400_000],
    ['.5s', 500],
    ['1500us', 1.5],
    ['0', 0],
    ['-2s', -2000],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBeCloseTo(ms, 6);
  });

  it.each(['', '10', 'ten minutes', '5d', '1h 30m', 'm', '1m-'])(
    'rejects %j',
    text => {
      expect(parseGoDuration(text)).toBeUndefined();
    },
  );
});

describe('formatDuration', () => {
  it.each([
    [850, '850ms'],
    [42_000, '42s'],
    [1_500, '1.5s'],
    [186_200, '3m6s'],
    [600_000, '10m'],
    [7_500_000, '2h5m'],
    [3_600_000, '1h'],
    [-2000, '-2s'],
  ])('writes %d ms as %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
