import type { LoggerService } from '@backstage/backend-plugin-api';
import { LIST_WORKER_AUTO_CLUSTERS, type ClusterConfig, type FleetConfig } from '../config/FleetConfig';
import { ClusterClient } from './ClusterClient';
import { ClusterSinks, ClusterWatcher, ClusterWatchHealth } from './ClusterWatcher';
import { createKubeConfig } from './createKubeConfig';
import { createLimiter } from './createLimiter';
import { ListWorker } from './listWorker/ListWorker';

/** Reads the health of the watch of one cluster, when asked. */
export interface WatchHealthProbe {
  /** The watch's whole health: connection, and a state per watch, built on each call. */
  health(): ClusterWatchHealth;
  /**
   * `health().listed` without building the rest: the analysis scheduler asks it for every status batch of every
   * cluster, which at fleet L is thousands of times a second during a first sync.
   */
  listed(): boolean;
}

/**
 * Where the watchers deliver: per cluster, the sinks of what is read, and the cluster's lifecycle, which is
 * told when a watch starts and whenever its connection status changes (the index implements it).
 */
export interface WatchTargets {
  sinksOf(cluster: string): ClusterSinks;
  /** A watch of the cluster starts; `health` reads its health. */
  attachWatch(cluster: string, health: WatchHealthProbe): void;
  /** The watch's connection status changed. */
  connectionChanged(cluster: string): void;
}

/** A client per configured cluster; throws on configuration the cluster's KubeConfig cannot be built from. */
export function createClusterClients(config: FleetConfig): Map<string, ClusterClient> {
  return new Map(
    config.clusters.map((cluster: ClusterConfig) => [
      cluster.name,
      new ClusterClient(
        cluster.name,
        createKubeConfig(cluster),
        config.watch.requestTimeoutMs,
      ),
    ]),
  );
}

/** Creates the watcher of one cluster, delivering into `targets`, and starts it. */
export function createWatcher(
  client: ClusterClient,
  config: FleetConfig,
  targets: WatchTargets,
  logger: LoggerService,
  limitList: <T>(task: () => Promise<T>) => Promise<T>,
  listWorker?: ListWorker,
): ClusterWatcher {
  const cluster = client.cluster;
  const watcher = new ClusterWatcher(
    client,
    targets.sinksOf(cluster),
    config.watch,
    logger.child({ cluster }),
    () => targets.connectionChanged(cluster),
    limitList,
    listWorker,
  );
  targets.attachWatch(cluster, {
    health: () => watcher.watchHealth(),
    listed: () => watcher.listed,
  });
  watcher.start();
  return watcher;
}

/** The list worker the watchers of a fleet share, when the configuration asks for one. */
export function createListWorker(config: FleetConfig, logger: LoggerService): ListWorker | undefined {
  const { listWorker } = config.watch;
  const wanted = listWorker === 'auto' ? config.clusters.length >= LIST_WORKER_AUTO_CLUSTERS : listWorker;
  return wanted ? new ListWorker(logger) : undefined;
}

/** Watches every configured cluster into `targets`. */
export function startWatching(
  config: FleetConfig,
  targets: WatchTargets,
  logger: LoggerService,
  listWorker = createListWorker(config, logger),
): ClusterWatcher[] {
  const clients = createClusterClients(config);
  // Lists are bursts of large pages: a fleet-wide limit keeps the memory they need at once bounded (and the
  // memory the process keeps after them), without slowing one cluster down behind another for long.
  const limitList = createLimiter(config.watch.concurrentLists);
  return [...clients.values()].map(client =>
    createWatcher(client, config, targets, logger, limitList, listWorker),
  );
}
