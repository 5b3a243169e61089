import { randomHex } from './randomHex';

describe('randomHex', () => {
  it.each([3, 8, 20, 32])('gives %p bytes as lowercase hex', bytes => {
    expect(randomHex(bytes)).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
  });

  it('does not repeat', () => {
    const seen = new Set(Array.from({ length: 10_000 }, () => randomHex(20)));
    expect(seen.size).toBe(10_000);
  });
});
