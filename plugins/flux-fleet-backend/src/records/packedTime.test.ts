import { packTime, unpackTime } from './packedTime';

/** The forms through `Date` that the digit-by-digit ones replace, as the reference. */
function packThroughDate(text: string | undefined): number {
  if (text === undefined || text.length !== 20) return 0;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms) || ms < 0 || ms % 1000 !== 0 || ms / 1000 + 1 >= 2 ** 32) return 0;
  return unpackThroughDate(ms / 1000 + 1) === text ? ms / 1000 + 1 : 0;
}
function unpackThroughDate(packed: number): string {
  return `${new Date((packed - 1) * 1000).toISOString().slice(0, 19)}Z`;
}

describe('packed times', () => {
  it.each([
    '2026-07-14T09:13:10Z',
    '1970-01-01T00:00:00Z',
    '2000-02-29T23:59:59Z',
    '2024-02-29T12:00:00Z',
    '2099-12-31T23:59:59Z',
    '2106-02-07T06:28:14Z',
  ])('keeps %s and gives it back identical', text => {
    const packed = packTime(text);
    expect(packed).toBeGreaterThan(0);
    expect(packed).toBe(packThroughDate(text));
    expect(unpackTime(packed)).toBe(text);
  });

  it.each([
    undefined,
    '',
    '2026-07-14T09:13:10.5Z', // fractions: kept as text elsewhere
    '2026-07-14T09:13:10+02:00',
    '2026-07-14 09:13:10Z',
    '2026-02-29T00:00:00Z', // not a leap year
    '1900-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-07-14T24:00:00Z',
    '2026-07-14T23:60:00Z',
    '2026-07-14T23:59:60Z', // leap second
    '1969-12-31T23:59:59Z',
    '2106-02-07T06:28:16Z', // past the column
    '+02026-07-14T09:13Z',
    '2026-07-1aT09:13:10Z',
  ])('does not pack %p (0), as the Date form did not', text => {
    expect(packTime(text)).toBe(0);
    expect(packThroughDate(text)).toBe(0);
  });

  it('agrees with the Date forms on 100,000 times spread over the column', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const differences: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const packed = 1 + Math.floor(random() * (2 ** 32 - 2));
      const text = unpackThroughDate(packed);
      if (unpackTime(packed) !== text || packTime(text) !== packed) differences.push(`${packed} ${text}`);
    }
    expect(differences).toEqual([]);
  });
});
