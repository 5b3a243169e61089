/**
 * The validated configuration of Flux Fleet (`fluxFleet.*`, see `config.d.ts`): which clusters to watch, how to
 * reach them, how to watch, and how the fleet is split into tenants.
 */

/** How the backend authenticates to a cluster, exactly one per cluster. */
export type ClusterAuth =
  | { type: 'serviceAccountToken'; token: string }
  | { type: 'kubeconfig'; path: string; context?: string }
  | { type: 'inCluster' }
  | {
      type: 'clientCert';
      certData?: string;
      certFile?: string;
      keyData?: string;
      keyFile?: string;
    }
  /** No credentials: a `kubectl proxy` or an API server that allows anonymous reads. */
  | { type: 'anonymous' };

/** One cluster to watch. */
export interface ClusterConfig {
  /** Unique; used in the API, the UI and entity names. */
  name: string;
  /** The API server's URL; optional for kubeconfig and in-cluster clusters (theirs is used then). */
  url?: string;
  auth: ClusterAuth;
  /** Base64-encoded PEM of the CA that signed the API server's certificate. */
  caData?: string;
  caFile?: string;
  skipTLSVerify: boolean;
  /** The environment it belongs to (`prod`, `staging`…), as configured; the UI groups clusters by it. */
  environment?: string;
  /** Where the entry came from, for messages: `fluxFleet.clusters[0]` or `kubernetes.clusterLocatorMethods[0].clusters[1]`. */
  configKey: string;
}

/**
 * One entry of the configured namespace → tenant mapping. `namespace` is a glob (`*` = any run of characters);
 * `tenant` is a name, where `{1}`, `{2}`… stand for what the first, second… `*` matched.
 */
export interface TenantRule {
  namespaces: string[];
  tenant: string;
  clusters?: string[];
  group?: string;
}

/**
 * Clusters from which `watch.listWorker: auto` reads lists on a second thread. At fleet L (100 clusters) the index's
 * first sync took 68.6-83.4 s with it against 84.2-115 s without (alternating runs, 2026-12-07; backend README, "A
 * second thread for the lists"), and the thread's memory, which the process keeps after the thread stops, was 30-60
 * B an object; at fleet M (20 clusters) the sync was no faster (9.3 against 6.9 s: the simulator serving the lists
 * shares the second core) and the same memory was 600 B an object, beside the index's 960.
 */
export const LIST_WORKER_AUTO_CLUSTERS = 50;

/** How clusters are watched; every duration in milliseconds. */
export interface WatchSettings {
  /** Items per page of the initial list. */
  pageSize: number;
  /** Lists (of any cluster) that may run at the same time. */
  concurrentLists: number;
  /**
   * Read the pages of Flux lists on the list worker's thread (see ListWorker); `auto`: when at least
   * {@link LIST_WORKER_AUTO_CLUSTERS} clusters are configured.
   */
  listWorker: boolean | 'auto';
  /** Asked of the server for each watch request, so watches are renewed regularly. */
  watchTimeoutMs: number;
  /** Ask the server for bookmarks (keeps resource versions fresh, proves a quiet watch is alive). */
  bookmarks: boolean;
  /** A request that has not answered after this long fails. */
  requestTimeoutMs: number;
  /** A watch that delivered nothing, not even a bookmark, for this long is restarted. */
  idleTimeoutMs: number;
  /** How often the API server is asked for its version, to notice one that stopped answering new requests. */
  probeIntervalMs: number;
  /** A cluster whose requests have failed for this long is shown as unreachable and its objects as stale. */
  unreachableAfterMs: number;
  /** First retry delay after a failure; doubled on each further failure, with jitter. */
  backoffInitialMs: number;
  /** Upper bound of the retry delay (a longer `Retry-After` from the server is still honoured). */
  backoffMaxMs: number;
  /** How often served Flux API versions are discovered again (CRDs installed or upgraded). */
  discoveryIntervalMs: number;
  /** Watch core Events about Flux objects. */
  events: boolean;
  /** Recent events kept per Flux object. */
  eventsPerObject: number;
}

/** How the index re-derives after changes. */
export interface AnalysisSettings {
  /** A structural change waits this long for more changes before its cluster is analysed again. */
  debounceMs: number;
  /** …but never longer than this after the first change. */
  maxDelayMs: number;
  /** Time-based findings (a reconcile request left unhandled) are re-evaluated at least this often. */
  refreshIntervalMs: number;
}

/** Database snapshots and the lease that lets several replicas share the watching. */
export interface PersistenceSettings {
  enabled: boolean;
  /** How often a changed cluster's snapshot is written. */
  snapshotIntervalMs: number;
  /** How long a cluster's lease lasts without renewal before another replica takes the cluster over. */
  leaseDurationMs: number;
}

/** Scraping controller pods through the Kubernetes API's pod proxy (`fluxFleet.capacity.podProxy`). */
export interface PodProxySettings {
  enabled: boolean;
  /** Scrapes (of any cluster) that may run at the same time. */
  concurrency: number;
  /** A scrape not done, body included, after this long fails. */
  timeoutMs: number;
  /** A scrape answering more than this many bytes fails while it streams. */
  maxBodyBytes: number;
  /** Bytes a minute a controller's pods may answer; a controller answering more is scraped every few rounds. */
  bytesPerMinute: number;
}

/** How Flux Fleet authenticates to a Prometheus server. */
export type PrometheusAuth =
  | { type: 'none' }
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string };

/** A Prometheus server that scrapes the controllers (`fluxFleet.capacity.prometheus`). */
export interface PrometheusSettings {
  /** The server's URL without a trailing slash, e.g. `https://prometheus.example.com`. */
  url: string;
  auth: PrometheusAuth;
  /** The label whose value names the cluster (as in `fluxFleet.clusters[].name`). */
  clusterLabel: string;
  /** A query not answered after this long fails. */
  timeoutMs: number;
}

/** Measuring controllers from their metrics (`fluxFleet.capacity`, rules §12). */
export interface CapacitySettings {
  enabled: boolean;
  /** How often controllers are measured. */
  scrapeIntervalMs: number;
  /** The window Prometheus rates and quantiles cover, and the longest between two pod-proxy scrapes of a controller. */
  windowMs: number;
  /** Measurements kept per controller for charts (one per interval). */
  historyPoints: number;
  podProxy: PodProxySettings;
  prometheus?: PrometheusSettings;
}

/** Everything Flux Fleet reads from `fluxFleet.*` (and `kubernetes.clusterLocatorMethods`). */
export interface FleetConfig {
  clusters: ClusterConfig[];
  tenants: TenantRule[];
  watch: WatchSettings;
  analysis: AnalysisSettings;
  persistence: PersistenceSettings;
  capacity: CapacitySettings;
  /** `fluxFleet.heapGrowingPercentOnceSynced`: V8's heap growing once the fleet has synced; 0 leaves it alone. */
  heapGrowingPercentOnceSynced: number;
}
