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

  it('gives a field the value it last pooled when the next is equal, holding what intern would hold', () => {
    const pool = new ValuePool(2);
    const plain = new ValuePool(2);
    const first = ['flux', '-system'].join('');
    expect(pool.internAt(0, first)).toBe(first);
    expect(pool.internAt(0, ['flux-', 'system'].join(''))).toBe(first);
    // another field's slot does not answer for this one
    const other = ['team', '-a'].join('');
    expect(pool.internAt(1, other)).toBe(other);
    // the generations turn: the remembered value is found again through the pool, and moved as intern moves it
    for (const value of [first, other, 'b', 'c']) plain.intern(value);
    pool.intern('b');
    pool.intern('c');
    expect(pool.internAt(0, ['flux-sys', 'tem'].join(''))).toBe(first);
    plain.intern(first);
    expect(pool.size).toBe(plain.size);
    // a value dropped from the pool is not given back from the slot
    pool.intern('d');
    pool.intern('e');
    pool.intern('f');
    const again = ['team', '-a'].join('');
    expect(pool.internAt(1, again)).toBe(again);
  });

  it('does not pool very long strings', () => {
    const pool = new ValuePool(100, 10);
    const long = 'x'.repeat(11);
    pool.intern(long);
    expect(pool.size).toBe(0);
  });
});
