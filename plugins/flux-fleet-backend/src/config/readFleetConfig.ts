import type { LoggerService } from '@backstage/backend-plugin-api';
import type { Config } from '@backstage/config';
import type {
  AnalysisSettings,
  FleetConfig,
  PersistenceSettings,
  TenantRule,
  WatchSettings,
} from './FleetConfig';
import { FleetConfigError } from './FleetConfigError';
import { readClusterConfig } from './readClusterConfig';
import { readKubernetesPluginClusters } from './readKubernetesPluginClusters';
import { readCapacitySettings } from './readCapacitySettings';
import { readSeconds } from './readSeconds';

/**
 * Reads and validates `fluxFleet.*` (and, unless `fluxFleet.readKubernetesPluginClusters` is false, the clusters
 * of the Kubernetes plugin's `kubernetes.clusterLocatorMethods` of type `config`). Throws
 * {@link FleetConfigError} on the first problem; logs a warning for each cluster read with `skipTLSVerify`.
 */
export function readFleetConfig(
  config: Config,
  logger: LoggerService,
): FleetConfig {
  const own = (config.getOptionalConfigArray('fluxFleet.clusters') ?? []).map(
    (c, i) => readClusterConfig(c, `fluxFleet.clusters[${i}]`),
  );
  const seen = new Map<string, string>();
  for (const cluster of own) {
    const earlier = seen.get(cluster.name);
    if (earlier) {
      throw new FleetConfigError(
        `${cluster.configKey}.name`,
        `the cluster name '${cluster.name}' is already used by ${earlier}; cluster names must be unique`,
      );
    }
    seen.set(cluster.name, cluster.configKey);
  }

  const clusters = [...own];
  if (
    config.getOptionalBoolean('fluxFleet.readKubernetesPluginClusters') ??
    true
  ) {
    for (const cluster of readKubernetesPluginClusters(config, logger)) {
      const earlier = seen.get(cluster.name);
      if (earlier) {
        logger.info(
          `Flux Fleet reads cluster '${cluster.name}' from ${earlier}, not from ${cluster.configKey}`,
        );
        continue;
      }
      seen.set(cluster.name, cluster.configKey);
      clusters.push(cluster);
    }
  }

  for (const cluster of clusters) {
    if (cluster.skipTLSVerify && !cluster.url?.startsWith('http:')) {
      logger.warn(
        `Flux Fleet does not verify the TLS certificate of cluster '${cluster.name}' (${cluster.configKey}.skipTLSVerify is true): anyone between Backstage and its API server can read and change what Flux Fleet sees`,
      );
    }
  }

  return {
    clusters,
    tenants: readTenants(config),
    watch: readWatchSettings(config),
    analysis: readAnalysisSettings(config),
    persistence: readPersistenceSettings(config),
    capacity: readCapacitySettings(config),
    heapGrowingPercentOnceSynced: readHeapGrowingPercent(config),
  };
}

function readHeapGrowingPercent(config: Config): number {
  const key = 'fluxFleet.heapGrowingPercentOnceSynced';
  const percent = config.getOptionalNumber(key) ?? 50;
  if (!Number.isInteger(percent) || percent < 0 || percent > 400) {
    throw new FleetConfigError(
      key,
      `should be a whole number from 0 (leave V8's heap growing alone) to 400, got ${percent}`,
    );
  }
  return percent;
}

function readTenants(config: Config): TenantRule[] {
  return (config.getOptionalConfigArray('fluxFleet.tenants') ?? []).map(
    (c, i) => {
      const key = `fluxFleet.tenants[${i}]`;
      const single = c.getOptionalString('namespace');
      const list = c.getOptionalStringArray('namespaces');
      if ((single === undefined) === (list === undefined)) {
        throw new FleetConfigError(
          key,
          "give either 'namespace' (one glob, e.g. 'team-*') or 'namespaces' (a list of globs)",
        );
      }
      const namespaces = list ?? [single!];
      if (namespaces.length === 0 || namespaces.some(n => !n.trim())) {
        throw new FleetConfigError(
          key,
          'the namespace globs should not be empty',
        );
      }
      const tenant = c.getString('tenant');
      const wildcards = Math.min(
        ...namespaces.map(n => n.split('*').length - 1),
      );
      for (const match of tenant.matchAll(/\{(\d+)\}/g)) {
        const n = Number(match[1]);
        if (n < 1 || n > wildcards) {
          throw new FleetConfigError(
            `${key}.tenant`,
            `'${tenant}' refers to {${n}}, but ${
              wildcards === 0
                ? 'the namespace globs have no *'
                : `the namespace globs have only ${wildcards} *`
            }; {1} is what the first * matched`,
          );
        }
      }
      if (!tenant.trim()) {
        throw new FleetConfigError(`${key}.tenant`, 'is empty');
      }
      return {
        namespaces,
        tenant,
        clusters: c.getOptionalStringArray('clusters'),
        group: c.getOptionalString('group'),
      };
    },
  );
}

function readWatchSettings(config: Config): WatchSettings {
  const key = 'fluxFleet.watch';
  const pageSize = config.getOptionalNumber(`${key}.pageSize`) ?? 500;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 10_000) {
    throw new FleetConfigError(
      `${key}.pageSize`,
      `should be a whole number from 1 to 10000, got ${pageSize}`,
    );
  }
  const eventsPerObject =
    config.getOptionalNumber(`${key}.events.perObject`) ?? 5;
  if (
    !Number.isInteger(eventsPerObject) ||
    eventsPerObject < 1 ||
    eventsPerObject > 50
  ) {
    throw new FleetConfigError(
      `${key}.events.perObject`,
      `should be a whole number from 1 to 50, got ${eventsPerObject}`,
    );
  }
  // 12 rather than 6 since 2026-12-06: the product's first sync at fleet L took 92 s and 85 s against 111 s and
  // 96 s (a fresh simulator each, alternating), fleet M's index 5.5 s and 6.7 s against 6.7 s twice, with the
  // same memory per object; its peak during the sync was 25 MiB higher at M
  const concurrentLists = config.getOptionalNumber(`${key}.concurrentLists`) ?? 12;
  if (!Number.isInteger(concurrentLists) || concurrentLists < 1 || concurrentLists > 100) {
    throw new FleetConfigError(
      `${key}.concurrentLists`,
      `should be a whole number from 1 to 100, got ${concurrentLists}`,
    );
  }
  const listWorker = config.getOptional(`${key}.listWorker`) ?? 'auto';
  if (listWorker !== true && listWorker !== false && listWorker !== 'auto') {
    throw new FleetConfigError(
      `${key}.listWorker`,
      `should be true, false or 'auto', got ${JSON.stringify(listWorker)}`,
    );
  }
  const settings: WatchSettings = {
    pageSize,
    concurrentLists,
    watchTimeoutMs: readSeconds(config, `${key}.watchTimeoutSeconds`, 300),
    bookmarks: config.getOptionalBoolean(`${key}.bookmarks`) ?? true,
    listWorker,
    requestTimeoutMs: readSeconds(config, `${key}.requestTimeoutSeconds`, 20),
    idleTimeoutMs: readSeconds(config, `${key}.idleTimeoutSeconds`, 150),
    probeIntervalMs: readSeconds(config, `${key}.probeIntervalSeconds`, 10),
    unreachableAfterMs: readSeconds(
      config,
      `${key}.unreachableAfterSeconds`,
      15,
    ),
    backoffInitialMs: readSeconds(config, `${key}.backoff.initialSeconds`, 0.5),
    backoffMaxMs: readSeconds(config, `${key}.backoff.maxSeconds`, 30),
    discoveryIntervalMs: readSeconds(
      config,
      `${key}.discoveryIntervalSeconds`,
      600,
    ),
    events: config.getOptionalBoolean(`${key}.events.enabled`) ?? true,
    eventsPerObject,
  };
  if (settings.backoffInitialMs > settings.backoffMaxMs) {
    throw new FleetConfigError(
      `${key}.backoff`,
      'initialSeconds should not be larger than maxSeconds',
    );
  }
  return settings;
}

function readAnalysisSettings(config: Config): AnalysisSettings {
  const key = 'fluxFleet.analysis';
  const settings = {
    debounceMs: readSeconds(config, `${key}.debounceSeconds`, 0.05),
    maxDelayMs: readSeconds(config, `${key}.maxDelaySeconds`, 0.5),
    refreshIntervalMs: readSeconds(config, `${key}.refreshIntervalSeconds`, 60),
  };
  if (settings.debounceMs > settings.maxDelayMs) {
    throw new FleetConfigError(
      key,
      'debounceSeconds should not be larger than maxDelaySeconds',
    );
  }
  return settings;
}

function readPersistenceSettings(config: Config): PersistenceSettings {
  const key = 'fluxFleet.persistence';
  return {
    enabled: config.getOptionalBoolean(`${key}.enabled`) ?? true,
    snapshotIntervalMs: readSeconds(
      config,
      `${key}.snapshotIntervalSeconds`,
      15,
    ),
    leaseDurationMs: readSeconds(config, `${key}.leaseSeconds`, 30),
  };
}
