import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ClusterConfig, FleetConfig } from '../config/FleetConfig';
import type { FleetIndex } from '../index/FleetIndex';
import { ClusterClient } from './ClusterClient';
import { ClusterWatcher } from './ClusterWatcher';
import { createKubeConfig } from './createKubeConfig';
import { createLimiter } from './createLimiter';

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

/**
 * Creates a watcher per cluster that fills the index, and starts it. `clusters` limits which clusters this
 * process watches (the ones whose lease it holds); every cluster by default.
 */
export function createWatcher(
  client: ClusterClient,
  config: FleetConfig,
  index: FleetIndex,
  logger: LoggerService,
  limitList: <T>(task: () => Promise<T>) => Promise<T>,
): ClusterWatcher {
  const cluster = client.cluster;
  const watcher = new ClusterWatcher(
    client,
    index.storeOf(cluster),
    config.watch,
    logger.child({ cluster }),
    () => index.connectionChanged(cluster),
    limitList,
  );
  index.attachWatcher(cluster, watcher);
  watcher.start();
  return watcher;
}

/** Watches every configured cluster into the index. */
export function startWatching(
  config: FleetConfig,
  index: FleetIndex,
  logger: LoggerService,
): ClusterWatcher[] {
  const clients = createClusterClients(config);
  // Lists are bursts of large pages: a fleet-wide limit keeps the memory they need at once bounded (and the
  // memory the process keeps after them), without slowing one cluster down behind another for long.
  const limitList = createLimiter(config.watch.concurrentLists);
  return [...clients.values()].map(client =>
    createWatcher(client, config, index, logger, limitList),
  );
}
