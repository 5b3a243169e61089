import { Backoff } from './Backoff';
import { parseRetryAfter } from './KubernetesRequestError';

describe('Backoff', () => {
  it('doubles the delay per failure up to the cap, with jitter in the upper half', () => {
    const lowest = new Backoff(500, 4_000, () => 0);
    expect([1, 2, 3, 4, 5].map(() => lowest.next())).toEqual([
      250, 500, 1_000, 2_000, 2_000,
    ]);
    const highest = new Backoff(500, 4_000, () => 0.999999);
    expect([1, 2, 3, 4, 5].map(() => highest.next())).toEqual([
      500, 1_000, 2_000, 4_000, 4_000,
    ]);
  });

  it("waits at least the server's Retry-After, even above the cap", () => {
    const backoff = new Backoff(500, 4_000, () => 0);
    expect(backoff.next(7_000)).toBe(7_000);
    expect(backoff.next(100)).toBe(500);
  });

  it('starts over after a success', () => {
    const backoff = new Backoff(500, 4_000, () => 0);
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(250);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Mon, 30 Nov 2026 12:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
