import { packTime, unpackTime } from './packedTime';

/** What packTime must agree with: the time when unpackTime writes the text back identical, else 0. */
function byRoundTrip(text: string | undefined): number {
  if (text === undefined || text.length !== 20) return 0;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms) || ms < 0 || ms % 1000 !== 0 || ms / 1000 + 1 >= 2 ** 32) return 0;
  return unpackTime(ms / 1000 + 1) === text ? ms / 1000 + 1 : 0;
}

describe('packTime', () => {
  it.each([
    ['a condition time', '2026-07-14T09:13:10Z', Date.UTC(2026, 6, 14, 9, 13, 10) / 1000 + 1],
    ['the epoch', '1970-01-01T00:00:00Z', 1],
    ['a leap day', '2024-02-29T23:59:59Z', Date.UTC(2024, 1, 29, 23, 59, 59) / 1000 + 1],
    ['a leap day of a year divisible by 400', '2000-02-29T12:00:00Z', Date.UTC(2000, 1, 29, 12) / 1000 + 1],
    ['the last second the column holds', '2106-02-07T06:28:14Z', 2 ** 32 - 1],
    ['the second after', '2106-02-07T06:28:15Z', 0],
    ['no leap day in a common year', '2026-02-29T00:00:00Z', 0],
    ['no leap day in a century year', '1900-02-29T00:00:00Z', 0],
    ['a 31st of a 30-day month', '2026-04-31T00:00:00Z', 0],
    ['month 13', '2026-13-01T00:00:00Z', 0],
    ['month 0', '2026-00-10T00:00:00Z', 0],
    ['day 0', '2026-01-00T00:00:00Z', 0],
    ['hour 24', '2026-01-01T24:00:00Z', 0],
    ['a leap second', '2016-12-31T23:59:60Z', 0],
    ['before the epoch', '1969-12-31T23:59:59Z', 0],
    ['fractions of a second', '2026-07-14T09:13:10.5Z', 0],
    ['an offset instead of Z', '2026-07-14T09:13:10+00:00', 0],
    ['a lower-case z', '2026-07-14T09:13:10z', 0],
    ['a space for the T', '2026-07-14 09:13:10Z', 0],
    ['a sign in a field', '2026-+7-14T09:13:10Z', 0],
    ['a letter in the year', '20x6-07-14T09:13:10Z', 0],
    ['no time', undefined, 0],
    ['empty', '', 0],
  ])('%s: %s', (_what, text, packed) => {
    expect(packTime(text)).toBe(packed);
    expect(packTime(text)).toBe(byRoundTrip(text));
  });

  it('writes back every time it packs, identical', () => {
    for (const text of ['2026-07-14T09:13:10Z', '1970-01-01T00:00:00Z', '2024-02-29T23:59:59Z', '2106-02-07T06:28:14Z']) {
      expect(unpackTime(packTime(text))).toBe(text);
    }
  });

  it('agrees with the round trip on a second every few hours over 140 years, and on the texts around them', () => {
    for (let s = 0; s < 2 ** 32 - 2; s += 100_003 + (s % 7)) {
      const text = unpackTime(s + 1);
      expect(packTime(text)).toBe(s + 1);
      // the same text with one field pushed out of range, or one digit off
      for (const variant of [text.replace(/T\d\d/, 'T25'), text.replace(/-\d\d-/, '-19-'), `${text.slice(0, 18)}9Z`]) {
        expect(packTime(variant)).toBe(byRoundTrip(variant));
      }
    }
  });
});
