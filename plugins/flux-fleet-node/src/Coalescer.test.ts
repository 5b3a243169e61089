import { stat } from 'node:fs';
import net from 'node:net';
import { Coalescer } from './Coalescer';

describe('Coalescer', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  /** A coalescer whose flushes are recorded with the (fake) time they ran at. */
  function recording(options: ConstructorParameters<typeof Coalescer>[0]) {
    const flushes: number[] = [];
    const coalescer = new Coalescer(options, () => flushes.push(Date.now()));
    return { coalescer, flushes };
  }

  it('flushes a burst once, after its changes pause', () => {
    const { coalescer, flushes } = recording({ quietMs: 100, maxWaitMs: 1000 });
    coalescer.touch();
    jest.advanceTimersByTime(60);
    coalescer.touch();
    jest.advanceTimersByTime(60);
    coalescer.touch();
    expect(flushes).toEqual([]);
    jest.advanceTimersByTime(99);
    expect(flushes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(flushes).toEqual([220]);
    jest.advanceTimersByTime(5000);
    expect(flushes).toEqual([220]);
  });

  it('flushes a steady stream of changes at the latest maxWaitMs after the first', () => {
    const { coalescer, flushes } = recording({ quietMs: 100, maxWaitMs: 500 });
    for (let t = 0; t < 1200; t += 50) {
      coalescer.touch();
      jest.advanceTimersByTime(50);
    }
    // the stream never paused for 100 ms: flushed 500 ms after its first change, then 500 ms after the next one
    expect(flushes).toEqual([500, 1000]);
    expect(coalescer.pendingSince).toBe(1000);
  });

  it('as a throttle, flushes the first change at once and gathers the rest until the window ends', () => {
    const { coalescer, flushes } = recording({ maxWaitMs: 200, leading: true });
    coalescer.touch();
    expect(flushes).toEqual([0]);
    jest.advanceTimersByTime(50);
    coalescer.touch();
    coalescer.touch();
    jest.advanceTimersByTime(149);
    expect(flushes).toEqual([0]);
    jest.advanceTimersByTime(1);
    expect(flushes).toEqual([0, 200]);
    jest.advanceTimersByTime(300);
    coalescer.touch();
    expect(flushes).toEqual([0, 200, 500]);
  });

  it('waits while the hold asks it to, then flushes', () => {
    let holding = true;
    const { coalescer, flushes } = recording({
      quietMs: 10,
      maxWaitMs: 50,
      hold: waited => (holding && waited < 1000 ? 1000 - waited : 0),
    });
    coalescer.touch();
    jest.advanceTimersByTime(600);
    expect(flushes).toEqual([]);
    holding = false;
    jest.advanceTimersByTime(400);
    expect(flushes).toEqual([1000]);
  });

  it('counts a noted change towards the pause, without scheduling a flush for it', () => {
    const { coalescer, flushes } = recording({ quietMs: 100, maxWaitMs: 1000 });
    coalescer.noteChange();
    jest.advanceTimersByTime(1000);
    expect(flushes).toEqual([]);
    coalescer.touch();
    jest.advanceTimersByTime(40);
    coalescer.noteChange();
    // quiet from 1140, not 1100
    jest.advanceTimersByTime(99);
    expect(flushes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(flushes).toEqual([1140]);
  });

  it('flushes at once when asked, and after close ignores every change', () => {
    const { coalescer, flushes } = recording({ quietMs: 100, maxWaitMs: 1000 });
    coalescer.touch();
    coalescer.flushNow();
    expect(flushes).toEqual([0]);
    expect(coalescer.pending).toBe(false);
    coalescer.touch();
    coalescer.close();
    coalescer.touch();
    jest.advanceTimersByTime(5000);
    expect(flushes).toEqual([0]);
  });

  describe('when the event loop stalls past the pause (real timers, a real socket)', () => {
    beforeEach(() => jest.useRealTimers());

    /**
     * Sends a byte to a local server whose `data` handler notes a change, then blocks the event loop for longer
     * than `quietMs` inside an I/O callback: the quiet timer is then due before the loop reads the byte.
     */
    async function stallWithBytesInFlight(options: {
      afterPendingIo: boolean;
    }) {
      const log: string[] = [];
      const coalescer = new Coalescer(
        { quietMs: 20, maxWaitMs: 10_000, ...options },
        () => log.push('flush'),
      );
      let received!: () => void;
      const accepted = new Promise<void>(resolve => {
        received = resolve;
      });
      const server = net.createServer(socket => {
        socket.on('data', () => {
          log.push('data');
          coalescer.touch();
        });
        received();
      });
      await new Promise<void>(resolve =>
        server.listen(0, '127.0.0.1', resolve),
      );
      const client = net.connect(
        (server.address() as net.AddressInfo).port,
        '127.0.0.1',
      );
      await accepted;
      try {
        await new Promise<void>(resolve =>
          stat(__filename, () => {
            coalescer.touch();
            client.write('x');
            const until = Date.now() + 60;
            while (Date.now() < until) {
              // the loop is stalled: garbage collection, a long task
            }
            resolve();
          }),
        );
        // Wait for the byte and for a flush after it: returning at the first flush let the byte arrive after
        // the coalescer closed, between this return and the assertion (CI, stop 27).
        while (!log.includes('data') || log[log.length - 1] !== 'flush') {
          await new Promise(r => setTimeout(r, 10));
        }
        return log;
      } finally {
        coalescer.close();
        client.destroy();
        await new Promise(resolve => server.close(resolve));
      }
    }

    it('flushes as quiet a change still in a socket buffer, by default', async () => {
      expect(await stallWithBytesInFlight({ afterPendingIo: false })).toEqual([
        'flush',
        'data',
        'flush',
      ]);
    });

    it('with afterPendingIo, lets that I/O arrive first and waits for the pause after it', async () => {
      expect(await stallWithBytesInFlight({ afterPendingIo: true })).toEqual([
        'data',
        'flush',
      ]);
    });
  });
});
