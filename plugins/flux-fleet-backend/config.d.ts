export interface Config {
  /** Flux Fleet: which clusters to watch, how to reach them, and how to watch. */
  fluxFleet?: {
    /**
     * The clusters whose Flux objects Flux Fleet watches. Each needs a way to reach its API server: `url` with
     * `serviceAccountToken` or `clientCert` (or neither, for a `kubectl proxy`), or `kubeconfig`, or
     * `inCluster`.
     */
    clusters?: Array<{
      /**
       * A unique name for the cluster, used in the API, the UI and catalog entity names: 1 to 63 letters,
       * digits, '.', '_' or '-'.
       */
      name: string;
      /**
       * The environment the cluster belongs to (`prod`, `staging`, `dev`…): the UI groups clusters by it (the
       * revision matrix, the deploy answer). Without it the environment is read from the cluster's name
       * (`prod-eu-1` → prod).
       */
      environment?: string;
      /** The API server's URL, e.g. `https://api.prod-eu-1:6443`; optional with `kubeconfig` or `inCluster`. */
      url?: string;
      /**
       * A bearer token of a service account that may get, list and watch the Flux kinds, Deployments,
       * StatefulSets, DaemonSets, CronJobs, Namespaces and Events.
       * @visibility secret
       */
      serviceAccountToken?: string;
      /** Read the server and credentials from a kubeconfig file. */
      kubeconfig?: {
        /** Path of the kubeconfig file. */
        path: string;
        /** The context to use; the file's current context when absent. */
        context?: string;
      };
      /** Use the service account of the pod Backstage runs in. */
      inCluster?: boolean;
      /** Authenticate with a client certificate. */
      clientCert?: {
        /**
         * The certificate, base64-encoded PEM.
         * @visibility secret
         */
        certData?: string;
        /** Path of the certificate's PEM file. */
        certFile?: string;
        /**
         * The private key, base64-encoded PEM.
         * @visibility secret
         */
        keyData?: string;
        /** Path of the private key's PEM file. */
        keyFile?: string;
      };
      /** The CA certificate of the API server, base64-encoded PEM (as a kubeconfig's certificate-authority-data). */
      caData?: string;
      /** Path of the CA certificate's PEM file. */
      caFile?: string;
      /** Do not verify the API server's TLS certificate. Logs a warning naming the cluster. */
      skipTLSVerify?: boolean;
    }>;

    /**
     * Also watch the clusters of the Kubernetes plugin (`kubernetes.clusterLocatorMethods` of type `config`
     * with `authProvider: serviceAccount`), so they are configured once. A cluster of the same name in
     * `fluxFleet.clusters` wins. Default true.
     */
    readKubernetesPluginClusters?: boolean;

    /**
     * Namespace → tenant mapping, for namespaces without the `toolkit.fluxcd.io/tenant` label. The first
     * matching entry wins.
     */
    tenants?: Array<{
      /** A namespace glob; `*` matches any run of characters, e.g. `team-*`. */
      namespace?: string;
      /** Several namespace globs (instead of `namespace`). */
      namespaces?: string[];
      /** The tenant: a name, where `{1}`, `{2}`… stand for what the first, second… `*` matched. */
      tenant: string;
      /** The clusters where the entry applies; every cluster when absent. */
      clusters?: string[];
      /** The catalog group that owns the tenant, e.g. `group:default/payments`. */
      group?: string;
    }>;

    /**
     * Once every cluster has synced for the first time (or been restored, or failed), how much the JavaScript
     * heap may grow between two full collections, in percent: V8's `--heap-growing-percent`, which Flux Fleet sets
     * then (once the backend is no more than half busy for a second, at most 30 s later), after one
     * memory-reducing collection that gives back what the sync peaked at. Before, V8 grows the heap
     * as it sees fit: the first sync builds the whole index at once, and at 50 % its collections were a quarter of
     * the backend's CPU over the first sync at fleet L. After, 50 % keeps the heap near what stays live. 0 leaves
     * V8 alone throughout. A `--heap-growing-percent` on node's command line wins: Flux Fleet then leaves it as it
     * is. Default 50.
     */
    heapGrowingPercentOnceSynced?: number;

    /** How clusters are watched. */
    watch?: {
      /** Objects per page of the initial list. Default 500. */
      pageSize?: number;
      /**
       * Lists (of any cluster) that may run at the same time. Items are read as they arrive, so a list in flight
       * holds about one item, and more of them keep the backend busy while others wait for their next page.
       * Default 12.
       */
      concurrentLists?: number;
      /**
       * Read the pages of Flux lists (cutting out the items, parsing and normalising them) on a second thread, a
       * worker that runs only while lists are read. `auto` (the default): when at least 50 clusters are
       * configured, where the first sync is bound by the main thread; the thread's memory (35-60 MiB) stays with
       * the process.
       */
      listWorker?: boolean | 'auto';
      /** How long the server keeps a watch open before it is renewed, in seconds. Default 300. */
      watchTimeoutSeconds?: number;
      /** Ask for watch bookmarks (keeps resource versions fresh, proves a quiet watch alive). Default true. */
      bookmarks?: boolean;
      /** A request without an answer after this many seconds fails. Default 20. */
      requestTimeoutSeconds?: number;
      /** A watch that delivers nothing, not even a bookmark, for this many seconds is restarted. Default 150. */
      idleTimeoutSeconds?: number;
      /**
       * How often the API server is asked for its version, in seconds, to notice one that stopped answering new
       * requests while its open watches still stream. Default 10.
       */
      probeIntervalSeconds?: number;
      /**
       * A cluster whose requests have failed for this many seconds is shown unreachable, its objects stale.
       * Default 15.
       */
      unreachableAfterSeconds?: number;
      /** Retry delays after failures (exponential with jitter; a server's `Retry-After` is always honoured). */
      backoff?: {
        /** The first retry delay in seconds. Default 0.5. */
        initialSeconds?: number;
        /** The longest retry delay in seconds. Default 30. */
        maxSeconds?: number;
      };
      /** How often the served Flux API versions are discovered again, in seconds. Default 600. */
      discoveryIntervalSeconds?: number;
      /** Recent Kubernetes Events about Flux objects, shown on the object's detail. */
      events?: {
        /** Watch Events. Default true. */
        enabled?: boolean;
        /** Events kept per Flux object. Default 5. */
        perObject?: number;
      };
    };

    /** How the index re-derives owners, boundaries and findings after changes. */
    analysis?: {
      /** A structural change waits this many seconds for more before its cluster is analysed. Default 0.05. */
      debounceSeconds?: number;
      /** …but at most this many seconds after the first change. Default 0.5. */
      maxDelaySeconds?: number;
      /**
       * How often, in seconds, a synced cluster is looked at for an analysis that time or new capacity
       * measurements call for (a reconcile request turning "not handled", a controller crossing capacity: rules
       * §2a), once no cluster is still in its first sync; with neither, it is analysed every 10 intervals.
       * Default 60.
       */
      refreshIntervalSeconds?: number;
    };

    /** Snapshots in the database, so a restarted backend answers at once, and leases between replicas. */
    persistence?: {
      /** Store snapshots and use leases. Default true. */
      enabled?: boolean;
      /** How often a changed cluster's snapshot is written, in seconds. Default 15. */
      snapshotIntervalSeconds?: number;
      /** How long a replica's lease on a cluster lasts without renewal, in seconds. Default 30. */
      leaseSeconds?: number;
    };

    /**
     * Measuring the Flux controllers from their own metrics, so capacity figures are measured rather than
     * estimated: through a Prometheus server that scrapes them when one is configured and has the cluster's
     * series, else by scraping each controller pod through the Kubernetes API's pod proxy (needs `get` on
     * `pods/proxy`). Where neither answers, figures are estimated and say why.
     */
    capacity?: {
      /** Measure controllers at all. Default true. */
      enabled?: boolean;
      /** How often every controller is measured, in seconds (at least 5). Default 60. */
      scrapeIntervalSeconds?: number;
      /**
       * The window Prometheus rates and quantiles cover, in seconds, and the longest time between two pod-proxy
       * scrapes of a controller (see `podProxy.bytesPerMinute`). Default 300.
       */
      windowSeconds?: number;
      /** How many hours of measurements are kept per controller for charts (one per interval; 0 to 48). Default 3. */
      historyHours?: number;
      /** Scraping controller pods through the Kubernetes API's pod proxy, with each cluster's own credentials. */
      podProxy?: {
        /** Scrape pods where Prometheus does not measure. Default true. */
        enabled?: boolean;
        /** Scrapes (of any cluster) at the same time, 1 to 200. Default 8. */
        concurrency?: number;
        /** A scrape not done, body included, after this many seconds fails; shorter than the interval. Default 10. */
        timeoutSeconds?: number;
        /**
         * A scrape answering more bytes than this fails (checked while it streams; only the lines capacity reads are
         * held). Default 33554432 (32 MiB): a controller's exposition grows by about 1.6 KB per object it reconciles.
         */
        maxBodyBytes?: number;
        /**
         * Bytes a minute a controller's pods may answer on average. A controller whose answer is larger is scraped
         * every few rounds instead of every round, at most `windowSeconds` apart, and keeps its last figures
         * between (their window is then the longer time between its scrapes, as long as Prometheus's at most). Default
         * 1048576 (1 MiB, about 660 objects' histograms): a pod-proxy scrape passes through the cluster's API server.
         */
        bytesPerMinute?: number;
      };
      /** A Prometheus server that scrapes the controllers, asked through its HTTP API (`/api/v1/query`). */
      prometheus?: {
        /** The server's URL, e.g. `https://prometheus.example.com` (Flux Fleet adds `/api/v1/query`). */
        url: string;
        /**
         * A bearer token sent as `Authorization: Bearer …`.
         * @visibility secret
         */
        token?: string;
        /** The user name for basic authentication (with `password`). */
        username?: string;
        /**
         * The password for basic authentication.
         * @visibility secret
         */
        password?: string;
        /**
         * The label whose value names the cluster as `fluxFleet.clusters[].name` does (the series also need the
         * target labels `namespace`, `deployment` and `pod`). Default `cluster`.
         */
        clusterLabel?: string;
        /** A query not answered after this many seconds fails. Default 10. */
        timeoutSeconds?: number;
      };
    };
  };
}
