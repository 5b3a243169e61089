import {
  clusterFluxVersions,
  type ClusterHealth,
  type ClusterStatus,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterEntry } from './ClusterEntry';
import type { Staleness } from './fleetObjects';

/**
 * A cluster's health as the API shows it: its watch's (connection, sync, lag, served versions), or the health
 * another replica reported for it; with the view's counts and the Flux versions of its controllers. `now` is
 * when it is read (the lag includes how long changes have waited for their analysis).
 */
export function healthOf(entry: ClusterEntry, now: number): ClusterHealth {
  const { view, store } = entry;
  const counts = view.countsByKind();
  // One Flux version per instance (rules §10): never the controllers' own image tags.
  const fluxVersions = clusterFluxVersions(store.controllers.values());
  if (!entry.watch && entry.remote) {
    return { ...entry.remote, objectCount: view.size, countsByKind: counts };
  }
  const watch = entry.watch?.();
  const connection = watch?.connection;
  let status: ClusterStatus = connection?.status ?? 'syncing';
  if (status === 'syncing' && entry.restoredAt !== undefined) status = 'restored';
  const iso = (ms?: number) => (ms === undefined ? undefined : new Date(ms).toISOString());
  return {
    name: entry.name,
    status,
    synced: watch?.synced ?? false,
    objectCount: view.size,
    countsByKind: counts,
    ...(connection?.lastEventAt !== undefined && { lastEventAt: iso(connection.lastEventAt) }),
    ...(watch && { lagMs: watch.lagMs + entry.scheduler.waitingMs(now) }),
    ...(connection?.unreachableSince !== undefined && {
      unreachableSince: iso(connection.unreachableSince),
    }),
    ...(connection?.lastError !== undefined && { lastError: connection.lastError }),
    fluxVersions,
    servedVersions: watch?.servedVersions ?? {},
  };
}

/** Whether a cluster's objects are stale, and since when, as the API marks each of them. */
export function stalenessOf(entry: ClusterEntry): Staleness {
  return entry.staleSince === undefined
    ? { stale: false }
    : { stale: true, since: new Date(entry.staleSince).toISOString() };
}

/**
 * When a cluster with this health is stale from (unreachable, unauthorized, or restored from a snapshot), or
 * undefined when it is not. A cluster that already is stale stays so since the time it became stale.
 */
export function staleSinceOf(entry: ClusterEntry, health: ClusterHealth, now: number): number | undefined {
  const stale =
    health.status === 'unreachable' || health.status === 'unauthorized' || health.status === 'restored';
  if (!stale) return undefined;
  if (entry.staleSince !== undefined) return entry.staleSince;
  if (health.status === 'unreachable' && health.unreachableSince) return Date.parse(health.unreachableSince);
  if (health.status === 'restored' && entry.restoredAt) return entry.restoredAt;
  return now;
}
