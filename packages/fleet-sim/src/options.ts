/** Options of a simulated fleet, and the size presets. */

/** Options of `startFleetSim` (and the CLI flags of the same names). */
export interface FleetSimOptions {
  /** Presets: S = 3 clusters × 300 services, M = 20 × 2,500 (~100k Flux objects), L = 100 × 5,000. Default S. */
  size?: 'S' | 'M' | 'L';
  /** Explicit number of clusters (overrides the preset). */
  clusters?: number;
  /** Explicit number of services per cluster (overrides the preset). */
  services?: number;
  /** Default 1; the same seed and size build the same fleet and truth. */
  seed?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** First port (clusters take consecutive ports, then the admin API); 0 = any free ports. Default 0. */
  port?: number;
  /** Clusters serve the Flux APIs but hold no objects (only the default namespaces). */
  empty?: boolean;
  /** HTTPS with a generated CA (its PEM is in each cluster's `caData`). */
  tls?: boolean;
  /** Status changes per second per cluster. Default 0. */
  churnPerSecond?: number;
  /** Interval of BOOKMARK events on watches that allow them. Default 60 s, like kube-apiserver. */
  bookmarkIntervalMs?: number;
  /** How many resourceVersions back a watch may start; older ones get 410 Gone. Default 5,000. */
  watchWindow?: number;
  /**
   * The instant the generated objects' times are relative to (creation, last transition, …). Default: the start
   * of the current UTC hour. Objects are byte-identical for the same seed, size and epoch; the truth does not
   * depend on it.
   */
  epoch?: number | string | Date;
  /** How long the simulated controllers take to react to a write, in ms. Default [500, 1000]. */
  reactionDelayMs?: [number, number];
  /**
   * Serve each controller pod's metrics on a local port of its own (`host:<free port>`) and list them in this
   * Prometheus `file_sd` file (rewritten when pods change).
   */
  prometheusTargets?: string;
  /** Serve the local scrape ports without writing a targets file (`sim.scrapeTargets()` lists them). */
  scrapePorts?: boolean;
}

/** Clusters and services per cluster of each preset. */
export const PRESETS: Record<
  'S' | 'M' | 'L',
  { clusters: number; services: number }
> = {
  S: { clusters: 3, services: 300 },
  M: { clusters: 20, services: 2500 },
  L: { clusters: 100, services: 5000 },
};

/** Options with every default filled in. */
export interface ResolvedOptions {
  clusters: number;
  services: number;
  seed: number;
  host: string;
  port: number;
  empty: boolean;
  tls: boolean;
  churnPerSecond: number;
  bookmarkIntervalMs: number;
  watchWindow: number;
  epoch: number;
  reactionDelayMs: [number, number];
  prometheusTargets?: string;
  scrapePorts: boolean;
}

function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new Error(
      `${name} must be a positive integer, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Fills in defaults and checks the options, with messages that name the option. */
export function resolveOptions(options: FleetSimOptions = {}): ResolvedOptions {
  const size = options.size ?? 'S';
  if (!(size in PRESETS))
    throw new Error(`size must be S, M or L, got ${JSON.stringify(size)}`);
  const preset = PRESETS[size];
  const clusters = positiveInteger(
    'clusters',
    options.clusters ?? preset.clusters,
  );
  const services = positiveInteger(
    'services',
    options.services ?? preset.services,
  );
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed))
    throw new Error(`seed must be an integer, got ${JSON.stringify(seed)}`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port + clusters > 65535) {
    throw new Error(
      `port must be 0 or a port with room for ${
        clusters + 1
      } consecutive ports, got ${port}`,
    );
  }
  let epoch: number;
  if (options.epoch === undefined) {
    const now = Date.now();
    epoch = now - (now % 3_600_000);
  } else {
    const given = options.epoch;
    if (given instanceof Date) epoch = given.getTime();
    else epoch = typeof given === 'number' ? given : Date.parse(given);
    if (Number.isNaN(epoch))
      throw new Error(
        `epoch must be a time, got ${JSON.stringify(options.epoch)}`,
      );
  }
  const churn = options.churnPerSecond ?? 0;
  if (typeof churn !== 'number' || churn < 0)
    throw new Error(`churnPerSecond must be >= 0, got ${churn}`);
  const reaction = options.reactionDelayMs ?? [500, 1000];
  return {
    clusters,
    services,
    seed,
    host: options.host ?? '127.0.0.1',
    port,
    empty: options.empty ?? false,
    tls: options.tls ?? false,
    churnPerSecond: churn,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    watchWindow: positiveInteger('watchWindow', options.watchWindow ?? 5_000),
    epoch,
    reactionDelayMs: [
      Math.max(0, reaction[0]),
      Math.max(reaction[0], reaction[1]),
    ],
    prometheusTargets: options.prometheusTargets,
    scrapePorts:
      options.scrapePorts === true || options.prometheusTargets !== undefined,
  };
}
