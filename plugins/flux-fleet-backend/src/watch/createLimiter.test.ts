import { createLimiter, openingWhen } from './createLimiter';

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise(resolve => setImmediate(resolve));

describe('createLimiter', () => {
  it('runs at most its concurrency at once, the others in the order they came', async () => {
    const limit = createLimiter(2);
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const tasks = [1, 2, 3, 4].map(n =>
      limit(() => {
        started.push(n);
        return new Promise<number>(resolve => finish.push(() => resolve(n)));
      }),
    );
    await settle();
    expect(started).toEqual([1, 2]);
    finish[0]();
    await settle();
    expect(started).toEqual([1, 2, 3]);
    finish.slice(1).forEach(f => f());
    await settle();
    finish.slice(3).forEach(f => f());
    expect(await Promise.all(tasks)).toEqual([1, 2, 3, 4]);
  });
});

describe('openingWhen', () => {
  it('starts no task before it opens, then each in turn within the limit', async () => {
    let open!: () => void;
    const opened = new Promise<void>(resolve => {
      open = resolve;
    });
    const limit = openingWhen(opened, createLimiter(1));
    const started: string[] = [];
    const first = limit(async () => {
      started.push('first');
    });
    const second = limit(async () => {
      started.push('second');
    });
    await settle();
    expect(started).toEqual([]);
    open();
    await Promise.all([first, second]);
    expect(started).toEqual(['first', 'second']);
  });

  it('passes on what a task returns and what it throws', async () => {
    const limit = openingWhen(Promise.resolve(), createLimiter(2));
    await expect(limit(async () => 42)).resolves.toBe(42);
    await expect(limit(async () => Promise.reject(new Error('list failed')))).rejects.toThrow('list failed');
  });
});
