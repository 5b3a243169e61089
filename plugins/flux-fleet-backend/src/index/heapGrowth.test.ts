import { mockServices } from '@backstage/backend-test-utils';
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
  it('leaves V8 growing the heap its own way during the first sync, and sets the percent once it is done', async () => {
    const ready = deferred();
    const setFlags = jest.fn();
    const logger = mockServices.logger.mock();
    growHeapOnceSynced({ percent: 50, ready: ready.promise, logger, execArgv: ['--max-semi-space-size=16'], setFlags });
    await settle();
    expect(setFlags).not.toHaveBeenCalled();

    ready.resolve();
    await settle();
    expect(setFlags).toHaveBeenCalledTimes(1);
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=50');
    expect(logger.info).toHaveBeenCalledWith(expect.stringContaining('the heap now grows by 50 %'));
  });

  it('never sets it when configured to 0', async () => {
    const setFlags = jest.fn();
    growHeapOnceSynced({ percent: 0, ready: Promise.resolve(), logger: mockServices.logger.mock(), execArgv: [], setFlags });
    await settle();
    expect(setFlags).not.toHaveBeenCalled();
  });

  it("keeps the operator's own flag from node's command line, and says so", async () => {
    for (const flag of ['--heap-growing-percent=30', '--heap-growing-percent']) {
      const setFlags = jest.fn();
      const logger = mockServices.logger.mock();
      growHeapOnceSynced({ percent: 50, ready: Promise.resolve(), logger, execArgv: [flag], setFlags });
      await settle();
      expect(setFlags).not.toHaveBeenCalled();
      expect(logger.info).toHaveBeenCalledWith(expect.stringContaining(`as node's command line sets it (${flag})`));
    }
  });
});
