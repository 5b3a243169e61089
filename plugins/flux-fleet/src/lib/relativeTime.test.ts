import { ageOf, relativeTime } from './relativeTime';

const NOW = Date.parse('2026-07-14T10:20:00Z');

describe('relativeTime and ageOf', () => {
  it('say how long ago a time was', () => {
    expect(relativeTime('2026-07-14T10:08:00Z', NOW)).toBe('12 minutes ago');
    expect(relativeTime('2026-07-10T10:20:00Z', NOW)).toBe('4 days ago');
    expect(ageOf('2026-07-14T09:19:00Z', NOW)).toBe('1 hour');
    expect(ageOf('2026-07-14T10:19:59Z', NOW)).toBe('1 second');
  });

  it('show a value that is not a time as it is', () => {
    expect(relativeTime('yesterday-ish', NOW)).toBe('yesterday-ish');
    expect(ageOf('yesterday-ish', NOW)).toBe('since yesterday-ish');
  });
});
