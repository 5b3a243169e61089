import type { ClusterHealth, FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import { FleetBackend, startFleetBackend } from '../__testUtils__/startFleetBackend';

jest.setTimeout(120_000);

/** Every object of one cluster through the paged API. */
async function objectsOf(fleet: FleetBackend, cluster: string): Promise<FleetObject[]> {
  const items: FleetObject[] = [];
  let cursor: string | undefined;
  do {
    const page = await fleet.get(
      `/objects?cluster=${cluster}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** How many of the cluster's objects differ from the simulator's truth (missing, extra, or another state). */
async function differences(fleet: FleetBackend, cluster: string): Promise<number> {
  const served = new Map((await objectsOf(fleet, cluster)).map(o => [o.key, o.state.state] as const));
  let wrong = 0;
  const truth = fleet.sim.truth().objects.filter(o => o.cluster === cluster);
  for (const t of truth) {
    const key = `${t.cluster}/${t.namespace}/${t.kind}/${t.name}`;
    if (served.get(key) !== t.state) wrong++;
    served.delete(key);
  }
  return wrong + served.size;
}

/**
 * Issue 11 item 2: after an outage the index matched the truth only after 24.5 s (watchers slept out backoffs of
 * up to 30 s) and the cluster said `synced` 3 s after it came back while 40 objects were still wrong. Here the
 * backoff is the default's (1 s doubling to 30 s), the objects churn during the outage, and the index must match
 * the truth within 5 s of recovery, never saying `synced` while it does not.
 */
describe('Flux Fleet recovering from a cluster outage', () => {
  let fleet: FleetBackend;

  beforeAll(async () => {
    fleet = await startFleetBackend({
      sim: { churnPerSecond: 5 },
      fluxFleet: {
        watch: {
          unreachableAfterSeconds: 1,
          // a shared CI machine can be slow to answer: the outage is a refused connection, seen at once anyway
          requestTimeoutSeconds: 5,
          probeIntervalSeconds: 10,
          backoff: { initialSeconds: 1, maxSeconds: 30 },
        },
      },
    });
    let last: ClusterHealth[] = [];
    await fleet
      .waitFor('every cluster synced', async () => {
        last = (await fleet.get('/clusters')).items;
        return last.every(c => c.synced) ? true : undefined;
      }, 30_000)
      .catch(error => {
        throw new Error(`${error}: ${JSON.stringify(last.map(c => [c.name, c.status, c.lagMs, c.behind]))}`);
      });
  });

  afterAll(() => fleet?.stop());

  it('wakes the sleeping watchers when the cluster answers again: the truth within 5 s, not synced before', async () => {
    const down = fleet.sim.clusters[0].name;
    const healthOf = async (): Promise<ClusterHealth> =>
      (await fleet.get('/clusters')).items.find((c: ClusterHealth) => c.name === down);
    await fleet.sim.setFault(down, { down: true });
    try {
      await fleet.waitFor('unreachable', async () => ((await healthOf()).status === 'unreachable' ? true : undefined));
      // long enough for the backoffs to grow to 8-16 s, with the truth churning meanwhile
      await new Promise(r => setTimeout(r, 16_000));
    } finally {
      await fleet.sim.setFault(down, { down: false });
    }
    const recovered = Date.now();
    const samples: Array<{ ms: number; status: string; wrong: number; behind: string }> = [];
    const summary = () =>
      samples
        .filter((x, i) => i === 0 || x.status !== samples[i - 1].status || x.behind !== samples[i - 1].behind)
        .map(x => `${x.ms} ms ${x.status} ${x.wrong} wrong ${x.behind}`)
        .join('\n');
    await fleet.waitFor(
      `the index to match the truth, synced (${down})`,
      async () => {
        const health = await healthOf();
        const wrong = await differences(fleet, down);
        samples.push({
          ms: Date.now() - recovered,
          status: health.status,
          wrong,
          behind: (health.behind ?? []).map(b => `${b.watch} ${b.reason}`).join(', '),
        });
        return wrong === 0 && health.status === 'synced' ? true : undefined;
      },
      20_000,
    ).catch(error => {
      throw new Error(`${error}\n${summary()}\n${JSON.stringify(samples.length)} samples`);
    });
    const matchedAfterMs = samples[samples.length - 1].ms;
    // the figure for the issue: how long back to the truth after the cluster answered again
    console.log(`back to the truth ${matchedAfterMs} ms after recovery:\n${summary()}`);
    expect(matchedAfterMs).toBeLessThan(5_000);
    expect(samples[0].status).not.toBe('synced');
    // churn goes on after recovery, so a change or two can be in flight while synced; the issue saw 40 wrong
    expect(samples.filter(s => s.status === 'synced' && s.wrong > 3)).toEqual([]);
  });
});
