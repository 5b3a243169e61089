import { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';
import { clustersHeadline } from './clustersHeadline';

const NOW = Date.parse('2026-12-07T12:00:00Z');

const cluster = (name: string, status: ClusterHealth['status'], more: Partial<ClusterHealth> = {}): ClusterHealth => ({
  name,
  status,
  synced: status === 'synced',
  objectCount: 10,
  countsByKind: {},
  fluxVersions: [],
  servedVersions: {},
  ...more,
});

describe('clustersHeadline', () => {
  it.each<[string, ClusterHealth[], string]>([
    ['every cluster synced', [cluster('a', 'synced'), cluster('b', 'synced')], 'All 2 clusters synced.'],
    ['the one cluster synced', [cluster('a', 'synced')], 'The cluster is synced.'],
    [
      'the worst first: refused credentials, then unreachable, then still listing',
      [
        cluster('staging', 'syncing'),
        cluster('prod-us', 'synced'),
        cluster('prod-eu', 'unreachable', { unreachableSince: '2026-12-07T11:48:00Z' }),
        cluster('dev', 'unauthorized'),
      ],
      "1 of 4 clusters synced; dev refuses Flux Fleet's credentials, prod-eu unreachable for 12 minutes, staging still listing.",
    ],
    [
      'lagging with how far behind, and restored from a snapshot',
      [cluster('a', 'lagging', { lagMs: 42_400 }), cluster('b', 'restored')],
      '0 of 2 clusters synced; a lagging 42 s behind, b shown from its last snapshot.',
    ],
    [
      'three named, the rest counted',
      ['a', 'b', 'c', 'd', 'e'].map(n => cluster(n, 'unreachable')),
      '0 of 5 clusters synced; a unreachable, b unreachable, c unreachable and 2 more.',
    ],
    [
      'no cluster configured: where to configure one',
      [],
      'No cluster is configured: list them under fluxFleet.clusters, or give the Kubernetes plugin clusters with a service account.',
    ],
  ])('%s', (_, clusters, expected) => {
    expect(clustersHeadline(clusters, NOW)).toBe(expected);
  });
});
