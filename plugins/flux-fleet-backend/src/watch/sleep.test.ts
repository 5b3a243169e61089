import { sleep } from './sleep';

describe('sleep', () => {
  it('ends when its signal aborts, long before its time', async () => {
    const abort = new AbortController();
    const slept = sleep(3_600_000, abort.signal);
    abort.abort();
    await expect(slept).resolves.toBeUndefined();
  });

  it('does not wait at all on a signal that has already aborted', async () => {
    await expect(sleep(3_600_000, AbortSignal.abort())).resolves.toBeUndefined();
  });

  it('waits its time when nothing aborts', async () => {
    let done = false;
    const slept = sleep(1, new AbortController().signal).then(() => {
      done = true;
    });
    expect(done).toBe(false);
    await slept;
    expect(done).toBe(true);
  });
});
