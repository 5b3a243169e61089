/**
 * Whether the index follows a cluster (rules §15): a pure derivation from what each watch of the cluster is doing,
 * so that `synced` means "every watch is live and caught up", never "every kind listed once".
 */

/** Why one watch of a cluster is not following it (rules §15). */
export type WatchBehindReason =
  /** Its first list is not complete. */
  | 'listing'
  /** The server answered `410 Gone` (or the watch was lost for long): everything is listed again. */
  | 'relisting'
  /** Waiting out a backoff after the cluster failed to answer. */
  | 'backoff'
  /** Waiting because the server answered `429 Too Many Requests` (its `Retry-After` honoured). */
  | 'throttled'
  /** Between two watch requests (a renewal, or a retry that is under way). */
  | 'reconnecting'
  /**
   * A watch resumed from the last resource version it saw is open, and the events the server replays since then
   * have not all arrived: the connection is back, the objects are not yet.
   */
  | 'replaying'
  /** Every watch follows, but changes read have waited longer than usual for their derivation. */
  | 'analysing';

/** What one watch of a cluster is doing, as the input of {@link deriveClusterSync}. */
export interface WatchFollowState {
  /** What is watched, for messages: a Flux kind, `controllers`, `namespaces`, … */
  watch: string;
  /** False while its first list is not complete (undefined counts as complete). */
  listed?: boolean;
  /** Since when (epoch ms) it has not been following the cluster; undefined while it follows. */
  behindSince?: number;
  /** Why it is not following; ignored while it follows. */
  reason?: WatchBehindReason;
  /** Refused (403) or not served (404): it is left out, shown as the cluster's last error only. */
  unavailable?: boolean;
  /** When it last caught up after being behind (epoch ms), and how long it had been behind then. */
  caughtUp?: { at: number; behindMs: number };
}

/** Everything {@link deriveClusterSync} reads. */
export interface ClusterSyncInput {
  /** How the connection stands: answering, or failing for long enough to be `unreachable`, or refused. */
  connection: 'answering' | 'unreachable' | 'unauthorized';
  /** Whether discovery of the Flux kinds the cluster serves has succeeded once. */
  discovered: boolean;
  watches: readonly WatchFollowState[];
  /** Since when changes read have waited for their derivation (epoch ms); undefined when none wait. */
  analysisPendingSince?: number;
  now: number;
}

/** The thresholds of rules §15, in milliseconds. */
export interface ClusterSyncThresholds {
  /** A watch between two requests for less than this still counts as following (a routine renewal). */
  renewalGraceMs: number;
  /** Changes waiting for their derivation less than this still count as caught up (the debounce). */
  analysisGraceMs: number;
  /** A lagging cluster's objects are marked stale once the lag reaches this. */
  staleAfterMs: number;
}

/** The thresholds the backend uses (rules §15, decided). */
export const CLUSTER_SYNC_THRESHOLDS: ClusterSyncThresholds = {
  renewalGraceMs: 2_000,
  analysisGraceMs: 2_000,
  staleAfterMs: 10_000,
};

/** A cluster's sync status as the index derives it; `restored` is added by the index (from a snapshot). */
export type ClusterSyncStatus = 'syncing' | 'synced' | 'lagging' | 'unreachable' | 'unauthorized';

/** One watch that is behind, in the cluster's health. */
export interface WatchBehind {
  watch: string;
  reason: WatchBehindReason;
  /** How long it has been behind, in milliseconds. */
  lagMs: number;
}

/** The result of {@link deriveClusterSync}. */
export interface ClusterSync {
  status: ClusterSyncStatus;
  /** How far behind the cluster the index may be: the longest a watch (or a derivation) has been behind. */
  lagMs: number;
  /** The watches behind, longest first (the ones within their grace left out). */
  behind: WatchBehind[];
  /** Since when the cluster's objects are stale (epoch ms), while they are; undefined when they are not. */
  staleSince?: number;
}

/**
 * Derives whether the index follows a cluster (rules §15): `unauthorized`/`unreachable` from the connection;
 * `syncing` until discovery and every first list are done; `lagging` while some watch is relisting, backing off,
 * throttled, or reconnecting or replaying for longer than the renewal grace, or derivations wait longer than their
 * grace (or at all, for changes read before a watch caught up from a real lag);
 * otherwise `synced`. Objects are stale while unreachable or unauthorized (since the oldest lag), and while lagging
 * once the lag reaches `staleAfterMs`.
 */
export function deriveClusterSync(
  input: ClusterSyncInput,
  thresholds: ClusterSyncThresholds = CLUSTER_SYNC_THRESHOLDS,
): ClusterSync {
  const { now } = input;
  const behind: WatchBehind[] = [];
  let firstListPending = !input.discovered;
  for (const w of input.watches) {
    if (w.unavailable) continue;
    if (w.listed === false) firstListPending = true;
    if (w.behindSince === undefined) continue;
    const reason = w.reason ?? 'reconnecting';
    const lagMs = Math.max(0, now - w.behindSince);
    if (reason === 'listing') firstListPending = true;
    // a renewal (and the few events it replays) is routine; every other reason means events are being missed
    // or replayed now
    const routine = reason === 'reconnecting' || reason === 'replaying';
    if (routine && lagMs < thresholds.renewalGraceMs) continue;
    behind.push({ watch: w.watch, reason, lagMs });
  }
  const pendingSince = input.analysisPendingSince;
  if (pendingSince !== undefined) {
    const lagMs = Math.max(0, now - pendingSince);
    // changes waiting since before a watch caught up from a real lag are what it missed, not routine churn:
    // they have no debounce grace (issue 11: `synced` 269 ms after an outage with 9 objects not yet re-derived)
    const missed = input.watches.some(
      w =>
        !w.unavailable &&
        w.caughtUp !== undefined &&
        w.caughtUp.behindMs >= thresholds.renewalGraceMs &&
        pendingSince <= w.caughtUp.at,
    );
    if (missed || lagMs >= thresholds.analysisGraceMs) {
      behind.push({ watch: 'analysis', reason: 'analysing', lagMs });
    }
  }
  behind.sort((a, b) => b.lagMs - a.lagMs || a.watch.localeCompare(b.watch));
  const lagMs = behind[0]?.lagMs ?? 0;

  if (input.connection !== 'answering') {
    return { status: input.connection, lagMs, behind, staleSince: now - lagMs };
  }
  if (firstListPending) return { status: 'syncing', lagMs, behind };
  if (behind.length === 0) return { status: 'synced', lagMs: 0, behind };
  return {
    status: 'lagging',
    lagMs,
    behind,
    ...(lagMs >= thresholds.staleAfterMs && { staleSince: now - lagMs }),
  };
}

/** "Kustomization relisting 12.0 s, controllers throttled 3.1 s": what is behind, in one line. */
export function describeBehind(behind: readonly WatchBehind[]): string {
  return behind.map(b => `${b.watch} ${b.reason} ${(b.lagMs / 1000).toFixed(1)} s`).join(', ');
}
