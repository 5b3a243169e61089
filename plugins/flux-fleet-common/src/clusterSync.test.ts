import { deriveClusterSync, describeBehind, WatchFollowState } from './clusterSync';

const NOW = 1_000_000;
const following = (watch: string): WatchFollowState => ({ watch });
const behind = (watch: string, reason: WatchFollowState['reason'], ms: number): WatchFollowState => ({
  watch,
  reason,
  behindSince: NOW - ms,
});

describe('deriveClusterSync', () => {
  it.each<[string, Parameters<typeof deriveClusterSync>[0], string, number, boolean]>([
    // [case, input, status, lagMs, stale]
    [
      'every watch follows',
      { connection: 'answering', discovered: true, watches: [following('Kustomization'), following('controllers')], now: NOW },
      'synced', 0, false,
    ],
    [
      'a watch renewing within the grace',
      { connection: 'answering', discovered: true, watches: [behind('Kustomization', 'reconnecting', 500)], now: NOW },
      'synced', 0, false,
    ],
    [
      'a watch reconnecting past the grace',
      { connection: 'answering', discovered: true, watches: [behind('Kustomization', 'reconnecting', 2_500)], now: NOW },
      'lagging', 2_500, false,
    ],
    [
      'a relist after 410, however short',
      { connection: 'answering', discovered: true, watches: [behind('HelmRelease', 'relisting', 100)], now: NOW },
      'lagging', 100, false,
    ],
    [
      'throttled for 126 s (the issue): lagging and stale',
      { connection: 'answering', discovered: true, watches: [behind('Kustomization', 'throttled', 126_000)], now: NOW },
      'lagging', 126_000, true,
    ],
    [
      'backing off after an outage, just under the stale threshold',
      { connection: 'answering', discovered: true, watches: [behind('GitRepository', 'backoff', 9_999)], now: NOW },
      'lagging', 9_999, false,
    ],
    [
      'caught up watches, derivation waiting past its grace',
      { connection: 'answering', discovered: true, watches: [following('Kustomization')], analysisPendingSince: NOW - 3_000, now: NOW },
      'lagging', 3_000, false,
    ],
    [
      'derivation within its debounce',
      { connection: 'answering', discovered: true, watches: [following('Kustomization')], analysisPendingSince: NOW - 400, now: NOW },
      'synced', 0, false,
    ],
    [
      'a renewal replaying the few events since its last resource version',
      { connection: 'answering', discovered: true, watches: [behind('Kustomization', 'replaying', 150)], now: NOW },
      'synced', 0, false,
    ],
    [
      'back after an 18 s outage, the replay not all arrived (issue 11: synced with 9 objects wrong)',
      { connection: 'answering', discovered: true, watches: [behind('Kustomization', 'replaying', 18_000)], now: NOW },
      'lagging', 18_000, true,
    ],
    [
      'caught up after an outage, what it missed not yet re-derived: no debounce grace',
      {
        connection: 'answering',
        discovered: true,
        watches: [{ watch: 'Kustomization', caughtUp: { at: NOW - 50, behindMs: 18_000 } }],
        analysisPendingSince: NOW - 120,
        now: NOW,
      },
      'lagging', 120, false,
    ],
    [
      'caught up after an outage, then routine churn within its debounce',
      {
        connection: 'answering',
        discovered: true,
        watches: [{ watch: 'Kustomization', caughtUp: { at: NOW - 900, behindMs: 18_000 } }],
        analysisPendingSince: NOW - 300,
        now: NOW,
      },
      'synced', 0, false,
    ],
    [
      'caught up after a routine renewal, its events within the debounce',
      {
        connection: 'answering',
        discovered: true,
        watches: [{ watch: 'Kustomization', caughtUp: { at: NOW - 50, behindMs: 120 } }],
        analysisPendingSince: NOW - 100,
        now: NOW,
      },
      'synced', 0, false,
    ],
    [
      'a first list not complete',
      { connection: 'answering', discovered: true, watches: [following('controllers'), behind('Kustomization', 'listing', 50)], now: NOW },
      'syncing', 50, false,
    ],
    [
      'a first list backing off is still syncing, not lagging',
      { connection: 'answering', discovered: true, watches: [{ ...behind('Kustomization', 'backoff', 4_000), listed: false }], now: NOW },
      'syncing', 4_000, false,
    ],
    [
      'discovery not done yet',
      { connection: 'answering', discovered: false, watches: [following('controllers')], now: NOW },
      'syncing', 0, false,
    ],
    [
      'a refused or unserved watch is left out',
      { connection: 'answering', discovered: true, watches: [{ ...behind('Event', 'backoff', 60_000), unavailable: true }], now: NOW },
      'synced', 0, false,
    ],
    [
      'unreachable: stale whatever the watches say',
      { connection: 'unreachable', discovered: true, watches: [behind('Kustomization', 'backoff', 20_000)], now: NOW },
      'unreachable', 20_000, true,
    ],
    [
      'unauthorized',
      { connection: 'unauthorized', discovered: true, watches: [], now: NOW },
      'unauthorized', 0, true,
    ],
  ])('%s', (_case, input, status, lagMs, stale) => {
    const sync = deriveClusterSync(input);
    expect(sync.status).toBe(status);
    expect(sync.lagMs).toBe(lagMs);
    // stale since the longest-behind watch fell behind
    expect(sync.staleSince).toBe(stale ? NOW - lagMs : undefined);
  });

  it('says which watches are behind and why, longest first', () => {
    const sync = deriveClusterSync({
      connection: 'answering',
      discovered: true,
      watches: [
        behind('Kustomization', 'relisting', 1_200),
        behind('controllers', 'throttled', 3_100),
        behind('namespaces', 'reconnecting', 300),
      ],
      now: NOW,
    });
    expect(sync.behind).toEqual([
      { watch: 'controllers', reason: 'throttled', lagMs: 3_100 },
      { watch: 'Kustomization', reason: 'relisting', lagMs: 1_200 },
    ]);
    expect(describeBehind(sync.behind)).toBe('controllers throttled 3.1 s, Kustomization relisting 1.2 s');
  });

  it('takes its thresholds as an argument', () => {
    const input = { connection: 'answering' as const, discovered: true, watches: [behind('Kustomization', 'backoff', 5_000)], now: NOW };
    expect(deriveClusterSync(input, { renewalGraceMs: 1, analysisGraceMs: 1, staleAfterMs: 4_000 }).staleSince).toBe(NOW - 5_000);
  });
});
