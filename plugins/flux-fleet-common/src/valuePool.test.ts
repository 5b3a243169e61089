import { ValuePool } from './valuePool';

describe('ValuePool', () => {
  it('gives back the first of equal strings', () => {
    const pool = new ValuePool();
    const first = ['main@sha1:', '4f1c2d0b'].join('');
    const second = ['main@sha1:4f1c', '2d0b'].join('');
    expect(pool.intern(first)).toBe(first);
    expect(pool.intern(second)).toBe(first);
  });

  it('shares equal label sets whatever their key order, and keeps different ones apart', () => {
    const pool = new ValuePool();
    const a = pool.labels({
      app: 'payments',
      'sharding.fluxcd.io/key': 'shard1',
    });
    const b = pool.labels({
      'sharding.fluxcd.io/key': 'shard1',
      app: 'payments',
    });
    const c = pool.labels({
      app: 'payments',
      'sharding.fluxcd.io/key': 'shard2',
    });
    const d = pool.labels({ app: 'payments' });
    const e = pool.labels({
      ap: 'ppayments',
      'sharding.fluxcd.io/key': 'shard1',
    });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(d).toEqual({ app: 'payments' });
    expect(e).toEqual({ ap: 'ppayments', 'sharding.fluxcd.io/key': 'shard1' });
    expect(Object.isFrozen(a)).toBe(true);
    // the same keys and values, paired differently
    const swapped = pool.labels({ app: 'shard1', 'sharding.fluxcd.io/key': 'payments' });
    expect(swapped).not.toBe(a);
    expect(swapped).toEqual({ app: 'shard1', 'sharding.fluxcd.io/key': 'payments' });
  });

  it('stays bounded: old entries are dropped, values in use stay correct', () => {
    const pool = new ValuePool(100);
    for (let i = 0; i < 10_000; i++) {
      pool.intern(`value-${i}`);
      pool.labels({ i: String(i) });
    }
    expect(pool.size).toBeLessThanOrEqual(3 * 2 * 100);
    expect(pool.labels({ i: '5' })).toEqual({ i: '5' });
  });

  it('does not pool very long strings', () => {
    const pool = new ValuePool(100, 10);
    const long = 'x'.repeat(11);
    pool.intern(long);
    expect(pool.size).toBe(0);
  });
});
