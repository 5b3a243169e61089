import type { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';

/**
 * What the provider may do with a cluster's entities, given how the index follows the cluster:
 * - `reconcile`: the index has the cluster's current structure: add, change and remove entities;
 * - `add-only`: the index serves an earlier snapshot (restored) or lags behind the cluster: add and change, never
 *   remove;
 * - `keep`: the index does not know the structure now (syncing, unreachable, unauthorized): emit nothing, so the
 *   catalog keeps what it has;
 * - `remove`: the cluster has been unreachable longer than the configured grace period: remove its entities.
 */
export type ClusterDisposition = 'reconcile' | 'add-only' | 'keep' | 'remove';

/**
 * Decides a cluster's disposition. `outageStartedAt` is when the provider first saw the cluster down, used when the
 * index does not say since when it is unreachable.
 */
export function clusterDisposition(
  health: ClusterHealth,
  options: {
    now: number;
    removeAfterOutageMs?: number;
    outageStartedAt?: number;
  },
): ClusterDisposition {
  switch (health.status) {
    case 'synced':
      return 'reconcile';
    // lagging: listed once, some watch behind (relisting, throttled: rules §15); what is there is right, what is
    // missing may still come
    case 'restored':
    case 'lagging':
      return 'add-only';
    case 'unreachable':
    case 'unauthorized': {
      if (options.removeAfterOutageMs === undefined) return 'keep';
      const since = outageStart(health, options.outageStartedAt);
      if (since === undefined) return 'keep';
      return options.now - since > options.removeAfterOutageMs ? 'remove' : 'keep';
    }
    default:
      return 'keep';
  }
}

function outageStart(
  health: ClusterHealth,
  seenAt: number | undefined,
): number | undefined {
  const reported = health.unreachableSince
    ? Date.parse(health.unreachableSince)
    : NaN;
  return Number.isNaN(reported) ? seenAt : reported;
}

/** Whether the cluster is down (its outage clock runs). */
export function isOutage(health: ClusterHealth): boolean {
  return health.status === 'unreachable' || health.status === 'unauthorized';
}
