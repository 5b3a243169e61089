import {
  CLUSTER_SYNC_THRESHOLDS,
  clusterEnvironment,
  clusterFluxVersions,
  deriveClusterSync,
  type ClusterHealth,
  type InstanceSummary,
  type ClusterStatus,
  type ClusterSync,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterEntry } from './ClusterEntry';
import type { Staleness } from './fleetObjects';
import type { ClusterWatchHealth } from '../watch/ClusterWatcher';

/**
 * Whether the index follows a cluster this replica watches (rules §15), from what each of its watches is doing
 * and how long changes have waited for their analysis; undefined when this replica does not watch it.
 */
export function syncOf(
  entry: ClusterEntry,
  now: number,
  watch: ClusterWatchHealth | undefined = entry.watch?.health(),
): ClusterSync | undefined {
  if (!watch) return undefined;
  const connection = watch.connection.status;
  const waitingMs = entry.scheduler.waitingMs(now);
  return deriveClusterSync({
    connection: connection === 'unreachable' || connection === 'unauthorized' ? connection : 'answering',
    discovered: watch.discovered,
    watches: watch.watches,
    ...(waitingMs > 0 && { analysisPendingSince: now - waitingMs }),
    now,
  });
}

/** What of a cluster's health is computed once per analysis of it: its Flux versions and environment. */
type PerAnalysis = Pick<ClusterHealth, 'fluxVersions' | 'environment' | 'environmentSource'>;
interface KnownAt {
  /** The instances of the analysis they were read after (each analysis makes a new list). */
  analysis: readonly InstanceSummary[];
  content: PerAnalysis;
}
const perAnalysis = new WeakMap<ClusterEntry, KnownAt>();

/**
 * The counts, Flux versions and environment of a cluster's health. Health is read on every change batch and every
 * second (the catalog provider, the freshness loop, /clusters): versions and environment are kept until the next
 * analysis, which follows every change of the controllers and namespaces. Reading the versions from every
 * controller each time took 9 % of the backend's CPU at fleet M with 5 status changes a second per cluster
 * (profile of 2026-12-02).
 */
function contentOf(entry: ClusterEntry): Pick<ClusterHealth, 'countsByKind'> & PerAnalysis {
  const analysis = entry.view.instances;
  let known = perAnalysis.get(entry);
  if (known?.analysis !== analysis) {
    // the configured environment, else the one a namespace label says (rules §11)
    const environment = clusterEnvironment({
      configured: entry.configuredEnvironment,
      namespaces: entry.store.namespaces,
      instanceNamespaces: analysis.map(i => i.name),
    });
    known = {
      analysis,
      content: {
        // One Flux version per instance (rules §10): never the controllers' own image tags.
        fluxVersions: clusterFluxVersions(entry.store.controllers.values()),
        ...(environment && { environment: environment.environment, environmentSource: environment.source }),
      },
    };
    perAnalysis.set(entry, known);
  }
  return { countsByKind: entry.view.countsByKind(), ...known.content };
}

/**
 * A cluster's health as the API shows it: its watch's (connection, sync status of rules §15, lag and what is
 * behind, served versions), or the health another replica reported for it; with the view's counts and the Flux
 * versions of its controllers. `now` is when it is read.
 */
export function healthOf(entry: ClusterEntry, now: number): ClusterHealth {
  const { view, store } = entry;
  const { countsByKind: counts, fluxVersions, ...environment } = contentOf(entry);
  if (!entry.watch && entry.remote) {
    return { ...entry.remote, objectCount: view.size, countsByKind: counts };
  }
  const watch = entry.watch?.health();
  const connection = watch?.connection;
  const sync = syncOf(entry, now, watch);
  let status: ClusterStatus = sync?.status ?? 'syncing';
  if (status === 'syncing' && entry.restoredAt !== undefined) status = 'restored';
  const iso = (ms?: number) => (ms === undefined ? undefined : new Date(ms).toISOString());
  return {
    name: entry.name,
    status,
    synced: status === 'synced',
    objectCount: view.size,
    countsByKind: counts,
    ...(connection?.lastEventAt !== undefined && { lastEventAt: iso(connection.lastEventAt) }),
    ...(sync && { lagMs: sync.lagMs }),
    ...(sync && sync.behind.length > 0 && { behind: sync.behind }),
    ...(connection?.unreachableSince !== undefined && {
      unreachableSince: iso(connection.unreachableSince),
    }),
    ...(connection?.lastError !== undefined && { lastError: connection.lastError }),
    fluxVersions,
    servedVersions: watch?.servedVersions ?? {},
    ...(store.malformedObjects.size > 0 && { malformedCount: store.malformedObjects.size }),
    ...environment,
  };
}

/** Whether a cluster's objects are stale, and since when, as the API marks each of them. */
export function stalenessOf(entry: ClusterEntry): Staleness {
  return entry.staleSince === undefined
    ? { stale: false }
    : { stale: true, since: new Date(entry.staleSince).toISOString() };
}

/**
 * When a cluster with this health is stale from (unreachable, unauthorized, restored from a snapshot, or lagging
 * by `staleAfterMs` or more: rules §15), or undefined when it is not. A cluster that already is stale stays so
 * since the time it became stale.
 */
export function staleSinceOf(entry: ClusterEntry, health: ClusterHealth, now: number): number | undefined {
  const lagMs = health.lagMs ?? 0;
  if (health.status === 'lagging') {
    if (lagMs < CLUSTER_SYNC_THRESHOLDS.staleAfterMs) return undefined;
    return entry.staleSince ?? now - lagMs;
  }
  const stale =
    health.status === 'unreachable' || health.status === 'unauthorized' || health.status === 'restored';
  if (!stale) return undefined;
  if (entry.staleSince !== undefined) return entry.staleSince;
  if (health.status === 'unreachable' && health.unreachableSince) return Date.parse(health.unreachableSince);
  if (health.status === 'restored' && entry.restoredAt) return entry.restoredAt;
  return now;
}
