import {
  formatBytes,
  formatCores,
  formatPercent,
  formatRate,
  formatSeconds,
} from './format';

describe('capacity figures in words', () => {
  it.each<[string, (n: number) => string, number, string]>([
    ['cores: none', formatCores, 0, 'no CPU'],
    ['cores: under a millicore', formatCores, 0.0003, 'under 1 millicore'],
    ['cores: one millicore', formatCores, 0.001, '1 millicore'],
    ['cores: millicores', formatCores, 0.04, '40 millicores'],
    ['cores: just under one', formatCores, 0.96, '1 core'],
    ['cores: several', formatCores, 2.54, '2.5 cores'],
    ['percent: zero', formatPercent, 0, '0 %'],
    ['percent: above zero, rounds to it', formatPercent, 0.004, 'under 1 %'],
    ['percent: rounds to one', formatPercent, 0.005, '1 %'],
    ['percent: over 100', formatPercent, 1.4, '140 %'],
    ['seconds: zero', formatSeconds, 0, '0 s'],
    ['seconds: under a millisecond', formatSeconds, 0.0001, 'under 1 ms'],
    ['seconds: milliseconds', formatSeconds, 0.85, '850 ms'],
    ['seconds: rounds up to a second', formatSeconds, 0.9996, '1 s'],
    ['seconds: minutes', formatSeconds, 360, '6 m'],
    ['bytes: KiB under a MiB', formatBytes, 40 * 1024, '40 KiB'],
    ['bytes: a few bytes', formatBytes, 12, '1 KiB'],
    ['bytes: GiB', formatBytes, 1.5 * 2 ** 30, '1.5 GiB'],
    ['rate: under 0.1', formatRate, 0.02, 'under 0.1'],
    ['rate: zero', formatRate, 0, '0'],
    ['rate: one decimal', formatRate, 0.44, '0.4'],
  ])('%s', (_, format, value, text) => {
    expect(format(value)).toBe(text);
  });
});
