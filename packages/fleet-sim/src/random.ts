/** Every 16-bit value as four hex digits: digests and ids are the generator's hottest path at fleet scale. */
const HEX4: readonly string[] = Array.from({ length: 65536 }, (_, i) =>
  i.toString(16).padStart(4, '0'),
);

/**
 * A small seeded pseudo-random generator (sfc32 seeded through splitmix32), so that the same seed always
 * builds the same fleet. `Math.random` is never used by the generator.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    let s = this.seed;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A uniform float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with the given probability. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [value, weight] of choices) {
      r -= weight;
      if (r < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** Lower-case hex digits, e.g. for git commit ids and digests. */
  hex(length: number): string {
    const parts: string[] = [];
    for (let n = 0; n < length; n += 8) {
      const value = Math.floor(this.next() * 4294967296);
      parts.push(HEX4[value >>> 16], HEX4[value & 0xffff]);
    }
    const out = parts.join('');
    return out.length === length ? out : out.slice(0, length);
  }

  /**
   * A child generator that depends only on this generator's seed and the label, not on how many numbers were
   * drawn: adding a draw in one part of the generator does not reshuffle every other part.
   */
  fork(label: string): Random {
    let h = (this.seed ^ 0x811c9dc5) >>> 0;
    for (let i = 0; i < label.length; i++) {
      h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
    }
    return new Random(h);
  }
}
