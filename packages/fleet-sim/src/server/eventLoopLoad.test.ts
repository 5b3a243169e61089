import { startFleetSim, type FleetSim } from '../fleetSim';
import type { EventLoopLoad } from './eventLoopLoad';

/** Keeps the thread busy for `ms`, as a simulator serving a large fleet does. */
function busy(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

describe('the event loop on the admin API', () => {
  let sim: FleetSim;

  beforeAll(async () => {
    sim = await startFleetSim({ clusters: 1, services: 2, seed: 5 });
  });
  afterAll(() => sim.close());

  const read = async (reset: boolean): Promise<EventLoopLoad> =>
    (await fetch(`${sim.adminUrl}/event-loop${reset ? '?reset=1' : ''}`)).json();

  it('shows a thread that was held up, and starts again after a reset', async () => {
    await read(true);
    await new Promise(r => setTimeout(r, 50));
    busy(400);
    await new Promise(r => setTimeout(r, 100));
    const held = await read(true);
    expect(held.sinceMs).toBeGreaterThanOrEqual(500);
    expect(held.delayMs.max).toBeGreaterThanOrEqual(350);
    expect(held.utilization).toBeGreaterThan(0.5);

    await new Promise(r => setTimeout(r, 300));
    const idle = await read(false);
    expect(idle.sinceMs).toBeGreaterThanOrEqual(300);
    expect(idle.sinceMs).toBeLessThan(held.sinceMs + 2_000);
    // the pause before the reset is no longer counted
    expect(idle.delayMs.max).toBeLessThan(held.delayMs.max);
    expect(idle.utilization).toBeLessThan(held.utilization);
  });
});
