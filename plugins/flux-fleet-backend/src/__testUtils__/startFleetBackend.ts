import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { startFleetSim, type FleetSim, type FleetSimOptions } from '@flux-fleet/fleet-sim';
import request from 'supertest';
import fluxFleetFeature from '../feature';

/** A simulated fleet with a test backend running the real Flux Fleet plugin against it. */
export interface FleetBackend {
  sim: FleetSim;
  backend: Awaited<ReturnType<typeof startTestBackend>>;
  /** GET an API path as a signed-in user; returns the parsed body (throws on a non-2xx answer). */
  get<T = any>(path: string): Promise<T>;
  /** Waits until `check` returns a value (not undefined) or the time is up. */
  waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts a simulated fleet and a test backend whose Flux Fleet watches it, with fast watch settings so
 * failures show within seconds. Stops both on `stop()`.
 */
export async function startFleetBackend(options: {
  sim?: FleetSimOptions;
  /** A running simulator to use (not stopped by `stop()`), instead of starting one. */
  runningSim?: FleetSim;
  fluxFleet?: Record<string, unknown>;
  config?: Record<string, unknown>;
  features?: any[];
}): Promise<FleetBackend> {
  const ownSim = !options.runningSim;
  const sim =
    options.runningSim ?? (await startFleetSim({ size: 'S', seed: 1, port: 0, ...options.sim }));
  let backend: FleetBackend['backend'] | undefined;
  try {
    backend = await startTestBackend({
      features: [
        fluxFleetFeature,
        ...(options.features ?? []),
        mockServices.rootConfig.factory({
          data: {
            fluxFleet: {
              clusters: sim.clusters.map(c => ({
                name: c.name,
                url: c.server,
                serviceAccountToken: c.readOnlyToken,
              })),
              watch: {
                unreachableAfterSeconds: 1,
                requestTimeoutSeconds: 2,
                backoff: { initialSeconds: 0.1, maxSeconds: 1 },
              },
              persistence: { enabled: false },
              // jest's process hosts many test backends: the memory-reducing collection once a fleet has synced
              // paused it for 0.6-1.1 s each time (25 times in the backend's tests), which made hand-over timings flaky
              heapGrowingPercentOnceSynced: 0,
              ...options.fluxFleet,
            },
            ...options.config,
          },
        }),
      ],
    });
  } catch (error) {
    if (ownSim) await sim.close();
    throw error;
  }
  const server = backend.server;
  const get = async (path: string) => {
    const res = await request(server)
      .get(`/api/flux-fleet${path}`)
      .set('Authorization', mockCredentials.user.header());
    if (res.status >= 300) {
      throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    return res.body;
  };
  const waitFor = async <T>(
    what: string,
    check: () => Promise<T | undefined>,
    timeoutMs = 20_000,
  ): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      try {
        const value = await check();
        if (value !== undefined) return value;
      } catch (error) {
        last = error;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
      }
      await new Promise(r => setTimeout(r, 50));
    }
  };
  return {
    sim,
    backend,
    get,
    waitFor,
    async stop() {
      await backend?.stop();
      if (ownSim) await sim.close();
    },
  };
}

/** Every object of the fleet through the paged API. */
export async function allObjects(fleet: FleetBackend): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await fleet.get(
      `/objects?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
