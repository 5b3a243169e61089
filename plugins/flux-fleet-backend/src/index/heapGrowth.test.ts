import { mockServices } from '@backstage/backend-test-utils';
import { runInNewContext } from 'node:vm';
import { growHeapOnceSynced } from './heapGrowth';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>(r => {
    resolve = r;
  });
  return { promise, resolve };
}

const settle = () => new Promise(r => setImmediate(r));

describe('growHeapOnceSynced', () => {
  it('leaves V8 growing the heap its own way during the first sync; then gives memory back and sets the percent', async () => {
    const ready = deferred();
    const setFlags = jest.fn();
    const collect = jest.fn();
    const logger = mockServices.logger.mock();
    growHeapOnceSynced({ percent: 50, ready: ready.promise, logger, execArgv: ['--max-semi-space-size=16'], setFlags, collect });
    await settle();
    expect(setFlags).not.toHaveBeenCalled();
    expect(collect).not.toHaveBeenCalled();

    ready.resolve();
    await settle();
    expect(setFlags).toHaveBeenCalledTimes(1);
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=50');
    expect(collect).toHaveBeenCalledTimes(1);
    expect(logger.info).toHaveBeenCalledWith(expect.stringContaining('the heap now grows by 50 %'));
  });

  it('does nothing when configured to 0', async () => {
    const setFlags = jest.fn();
    const collect = jest.fn();
    growHeapOnceSynced({ percent: 0, ready: Promise.resolve(), logger: mockServices.logger.mock(), execArgv: [], setFlags, collect });
    await settle();
    expect(setFlags).not.toHaveBeenCalled();
    expect(collect).not.toHaveBeenCalled();
  });

  it("keeps the operator's own flag from node's command line, and says so", async () => {
    for (const flag of ['--heap-growing-percent=30', '--heap-growing-percent']) {
      const setFlags = jest.fn();
      const collect = jest.fn();
      const logger = mockServices.logger.mock();
      growHeapOnceSynced({ percent: 50, ready: Promise.resolve(), logger, execArgv: [flag], setFlags, collect });
      await settle();
      expect(setFlags).not.toHaveBeenCalled();
      expect(collect).toHaveBeenCalledTimes(1);
      expect(logger.info).toHaveBeenCalledWith(expect.stringContaining(`as node's command line sets it (${flag})`));
    }
  });

  it('gives memory back with V8 itself in this node, and keeps going with a warning where it cannot', async () => {
    const logger = mockServices.logger.mock();
    growHeapOnceSynced({ percent: 50, ready: Promise.resolve(), logger, execArgv: [], setFlags: () => {} });
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
      collect: () => {
        throw new ReferenceError('gc is not defined');
      },
    });
    await settle();
    expect(failing.warn).toHaveBeenCalledWith('Flux Fleet could not give back the memory of its first sync: ReferenceError: gc is not defined');
  });
});
