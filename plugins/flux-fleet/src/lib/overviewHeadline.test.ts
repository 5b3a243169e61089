import { ClusterHealth, ClusterStatus, ReconcileStateName } from '@flux-fleet/plugin-flux-fleet-common';
import { overviewHeadline } from './overviewHeadline';

const cluster = (name: string, status: ClusterStatus = 'synced') => ({ name, status }) as ClusterHealth;
type Counts = Partial<Record<ReconcileStateName, number>>;
const counts = (rows: Record<string, Counts>) => new Map(Object.entries(rows));
/** The fleet's totals as the summary has them: the map's, plus objects no shard owns (orphans). */
const summaryOf = (rows: Record<string, Counts>, orphans: Counts = {}) => {
  const countsByState: Counts = { ...orphans };
  for (const row of Object.values(rows)) {
    for (const [state, n] of Object.entries(row)) {
      countsByState[state as ReconcileStateName] = (countsByState[state as ReconcileStateName] ?? 0) + n;
    }
  }
  const objects = Object.values(countsByState).reduce((sum, n) => sum + n, 0);
  return { objects, countsByState };
};

describe('overviewHeadline', () => {
  // every row has its orphans (a row one short makes jest pass its `done` callback in their place)
  it.each<[string, Record<string, Counts>, ClusterHealth[], string, Counts]>([
    [
      'nothing in trouble',
      { a: { ready: 2_000, progressing: 2 }, b: { ready: 200, suspended: 3 } },
      [cluster('a'), cluster('b')],
      'None of the 2,205 Flux objects on 2 clusters failed, blocked or stalled.',
      {},
    ],
    [
      'failed, blocked and stalled counted together, the cluster with most named',
      {
        'prod-eu': { ready: 600, failed: 51, blocked: 10, stalled: 3 },
        'prod-ap': { ready: 676, failed: 36, blocked: 13 },
        staging: { ready: 628 },
      },
      [cluster('prod-eu'), cluster('prod-ap'), cluster('staging')],
      '113 of 2,017 Flux objects failed, blocked or stalled, on 2 of 3 clusters; most on prod-eu (64).',
      {},
    ],
    [
      'all on one cluster, which cannot be read now',
      { a: { failed: 1, ready: 9 }, b: { ready: 10 } },
      [cluster('a', 'unreachable'), cluster('b')],
      '1 of 20 Flux objects failed, blocked or stalled, all on a. a cannot be read now: its objects are counted as last seen.',
      {},
    ],
    [
      'credentials refused counts as unread; lagging does not',
      { a: { ready: 1 }, b: { ready: 1 }, c: { ready: 1 } },
      [cluster('a', 'unauthorized'), cluster('b', 'unreachable'), cluster('c', 'lagging')],
      'None of the 3 Flux objects on 3 clusters failed, blocked or stalled. a, b cannot be read now: their objects are counted as last seen.',
      {},
    ],
    [
      'no cluster configured: where to configure one',
      {},
      [],
      'No cluster is configured: list them under fluxFleet.clusters, or give the Kubernetes plugin clusters with a service account.',
      {},
    ],
    [
      "the totals are the summary's, orphans included; where they are is the map's",
      { a: { ready: 10 }, b: { ready: 10 } },
      [cluster('a'), cluster('b')],
      '2 of 22 Flux objects failed, blocked or stalled.',
      { failed: 2 },
    ],
  ])('%s', (_, rows, clusters, expected, orphans) => {
    expect(overviewHeadline(summaryOf(rows, orphans), counts(rows), clusters)).toBe(expected);
  });
});
