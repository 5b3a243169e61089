import { mockServices } from '@backstage/backend-test-utils';
import { runInNewContext } from 'node:vm';
import { eventLoopQuiet, growHeapOnceSynced } from './heapGrowth';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>(r => {
    resolve = r;
  });
  return { promise, resolve };
}

const settle = () => new Promise(r => setImmediate(r));

describe('growHeapOnceSynced', () => {
  it('leaves V8 growing the heap its own way during the first sync; then, once quiet, gives memory back and sets the percent', async () => {
    const ready = deferred();
    const quiet = deferred();
    const setFlags = jest.fn();
    const collect = jest.fn();
    const logger = mockServices.logger.mock();
    growHeapOnceSynced({
      percent: 50,
      ready: ready.promise,
      logger,
      execArgv: ['--max-semi-space-size=16'],
      setFlags,
      collect,
      quiet: () => quiet.promise,
    });
    await settle();
    expect(setFlags).not.toHaveBeenCalled();
    expect(collect).not.toHaveBeenCalled();

    // ready, but what waited for it still runs: the collection's pause waits
    ready.resolve();
    await settle();
    expect(collect).not.toHaveBeenCalled();

    quiet.resolve();
    await settle();
    expect(setFlags).toHaveBeenCalledTimes(1);
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=50');
    expect(collect).toHaveBeenCalledTimes(1);
    expect(logger.info).toHaveBeenCalledWith(expect.stringContaining('the heap now grows by 50 %'));
  });

  it('does not collect once stopped before the event loop was quiet', async () => {
    const quiet = deferred();
    const collect = jest.fn();
    const setFlags = jest.fn();
    let signal: AbortSignal | undefined;
    const growth = growHeapOnceSynced({
      percent: 50,
      ready: Promise.resolve(),
      logger: mockServices.logger.mock(),
      execArgv: [],
      setFlags,
      collect,
      quiet: given => {
        signal = given;
        return quiet.promise;
      },
    });
    await settle();
    growth.stop();
    expect(signal?.aborted).toBe(true);
    quiet.resolve();
    await settle();
    expect(collect).not.toHaveBeenCalled();
    expect(setFlags).not.toHaveBeenCalled();
  });

  it('does nothing when configured to 0', async () => {
    const setFlags = jest.fn();
    const collect = jest.fn();
    growHeapOnceSynced({ percent: 0, ready: Promise.resolve(), logger: mockServices.logger.mock(), execArgv: [], setFlags, collect, quiet: async () => {} });
    await settle();
    expect(setFlags).not.toHaveBeenCalled();
    expect(collect).not.toHaveBeenCalled();
  });

  it("keeps the operator's own flag from node's command line, and says so", async () => {
    for (const flag of ['--heap-growing-percent=30', '--heap-growing-percent']) {
      const setFlags = jest.fn();
      const collect = jest.fn();
      const logger = mockServices.logger.mock();
      growHeapOnceSynced({ percent: 50, ready: Promise.resolve(), logger, execArgv: [flag], setFlags, collect, quiet: async () => {} });
      await settle();
      expect(setFlags).not.toHaveBeenCalled();
      expect(collect).toHaveBeenCalledTimes(1);
      expect(logger.info).toHaveBeenCalledWith(expect.stringContaining(`as node's command line sets it (${flag})`));
    }
  });

  it('gives memory back with V8 itself in this node, and keeps going with a warning where it cannot', async () => {
    const logger = mockServices.logger.mock();
    growHeapOnceSynced({ percent: 50, ready: Promise.resolve(), logger, execArgv: [], setFlags: () => {}, quiet: async () => {} });
    await settle();
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.info).toHaveBeenCalledWith(expect.stringMatching(/a memory-reducing collection took \d+ ms \(resident memory \d+ → \d+ MiB\)/));
    // the gc extension was only on while the collection's context was made: no later context gets `gc`
    expect(runInNewContext('typeof gc')).toBe('undefined');

    const failing = mockServices.logger.mock();
    growHeapOnceSynced({
      percent: 50,
      ready: Promise.resolve(),
      logger: failing,
      execArgv: [],
      setFlags: () => {},
      quiet: async () => {},
      collect: () => {
        throw new ReferenceError('gc is not defined');
      },
    });
    await settle();
    expect(failing.warn).toHaveBeenCalledWith('Flux Fleet could not give back the memory of its first sync: ReferenceError: gc is not defined');
  });
});

describe('eventLoopQuiet', () => {
  /** Keeps the event loop busy (about 90 %) for `ms`. */
  async function busyFor(ms: number) {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const slice = performance.now() + 9;
      while (performance.now() < slice) {
        // busy
      }
      await new Promise(r => setTimeout(r, 1));
    }
  }

  it('waits while the event loop is busy, and resolves in the first quiet window', async () => {
    let resolvedAt: number | undefined;
    const started = performance.now();
    const quiet = eventLoopQuiet({ windowMs: 100, capMs: 10_000 }).then(() => {
      resolvedAt = performance.now() - started;
    });
    await busyFor(450);
    expect(resolvedAt).toBeUndefined();
    await quiet;
    expect(resolvedAt).toBeGreaterThanOrEqual(450);
    expect(resolvedAt).toBeLessThan(1_000);
  });

  it('ends its wait with a rejection when its signal aborts', async () => {
    const stop = new AbortController();
    const quiet = eventLoopQuiet({ windowMs: 10_000, signal: stop.signal });
    stop.abort();
    await expect(quiet).rejects.toThrow(/abort/i);
  });

  it('resolves after the cap when the loop stays busy', async () => {
    const started = performance.now();
    let resolvedAt: number | undefined;
    const quiet = eventLoopQuiet({ windowMs: 50, capMs: 200 }).then(() => {
      resolvedAt = performance.now() - started;
    });
    await busyFor(600);
    await quiet;
    expect(resolvedAt).toBeGreaterThanOrEqual(200);
    expect(resolvedAt).toBeLessThan(600);
  });
});
