/** The command line of `make bench` (`scripts/bench.sh`), read and checked. */

/** Fleet sizes of the simulator (packages/fleet-sim presets). */
export type FleetSize = 'S' | 'M' | 'L';

/** What one benchmark run measures, and how long it spends on each part. */
export interface BenchOptions {
  /** Fleets whose ingest is measured, smallest first. */
  ingestSizes: FleetSize[];
  /** The fleet the product runs on for the API, freshness and side-by-side parts. */
  productSize: FleetSize;
  quick: boolean;
  seed: number;
  /** Status changes per second per cluster while the product runs (freshness is measured under this churn). */
  churn: number;
  /** Seconds of load per API route. */
  loadSeconds: number;
  /** Concurrent connections of the load generator. */
  connections: number;
  /** Changes whose signal is awaited in the freshness part. */
  freshnessChanges: number;
  /** Entity page views per plugin in the side-by-side part. */
  pageViews: number;
  /** Page views per plugin while one cluster is slow or hangs. */
  faultViews: number;
  /** How long a page view may wait for an answer before it counts as not answered. */
  pageTimeoutMs: number;
  /** Where the results JSON goes; the README table is rewritten only by full (not quick) runs. */
  resultsFile: string;
  updateReadme: boolean;
  /** Measure nothing: rewrite the README section from the results file (after a change of the report's layout). */
  renderOnly: boolean;
}

/** The usage text printed by `--help` and on a wrong flag. */
export const USAGE = `usage: make bench ARGS="[--size S|M|L] [--with-l] [--quick] [--seed N] [--churn N]"
  --size S|M|L the fleet of the API, freshness and side-by-side parts (default M); ingest runs S and M (S alone with
               --size S, L alone with --size L: 100 clusters, about 1M Flux objects, the product and the Kubernetes
               plugin side by side at 100 clusters; about 18 minutes and 9 GB of memory on 2 cores: two L
               simulators start in about 55-95 s each, the product syncs 100 clusters in about 80-100 s, and the
               Kubernetes plugin's views of 100 clusters are slow: see bench/README.md, "Fleet L")
  --with-l     also the ingest of fleet L on top of the default run (about 10 more minutes, 6 GB of memory)
  --quick      a smoke run on fleet S with short measurements (about 2 minutes); results go to bench/results/quick.tmp.json
  --seed N     the simulated fleet's seed (default 1)
  --churn N    status changes per second per simulated cluster while the product runs (default 5)
  --render     measure nothing: rewrite the README's Benchmarks section from bench/results/latest.json and latest-L.json`;

/** A command-line mistake, with the usage. */
export class UsageError extends Error {}

function numberFlag(name: string, raw: string | undefined): number {
  const value = Number(raw);
  if (raw === undefined || !Number.isFinite(value) || value < 0) {
    throw new UsageError(
      `--${name} needs a number >= 0, got ${raw ?? 'nothing'}`,
    );
  }
  return value;
}

/**
 * Where a run's results go. L has its own file so that a run at L and the default run at M both stay in the README
 * (a run at L takes about 18 minutes; nobody should have to redo M's to keep L's figures, or the reverse).
 */
export function resultsFileOf(quick: boolean, productSize: FleetSize): string {
  if (quick) return 'bench/results/quick.tmp.json';
  return productSize === 'L'
    ? 'bench/results/latest-L.json'
    : 'bench/results/latest.json';
}

/**
 * Entity page views per plugin. At L a view of the Kubernetes plugin's entity tab over 100 clusters waits out the
 * whole 15 s timeout: 50 of them, of two page kinds, were 25 minutes of a run that must stay under 30.
 */
function pageViewsOf(quick: boolean, productSize: FleetSize): number {
  if (quick) return 5;
  return productSize === 'L' ? 10 : 50;
}

/** Reads the flags after `make bench ARGS=...`; throws a `UsageError` naming a wrong flag. */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  let size: FleetSize | undefined;
  let withL = false;
  let quick = false;
  let seed = 1;
  let churn = 5;
  let renderOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    switch (flag) {
      case '--size': {
        const value = argv[++i]?.toUpperCase();
        if (value !== 'S' && value !== 'M' && value !== 'L') {
          throw new UsageError(
            `--size must be S, M or L, got ${argv[i] ?? 'nothing'}`,
          );
        }
        size = value;
        break;
      }
      case '--with-l':
        withL = true;
        break;
      case '--quick':
        quick = true;
        break;
      case '--render':
        renderOnly = true;
        break;
      case '--seed':
        seed = numberFlag('seed', argv[++i]);
        break;
      case '--churn':
        churn = numberFlag('churn', argv[++i]);
        break;
      default:
        throw new UsageError(`unknown flag ${flag}`);
    }
  }
  if (quick && size !== undefined && size !== 'S') {
    throw new UsageError(`--quick runs on fleet S; leave out --size ${size}`);
  }
  if (withL && size === 'L') {
    throw new UsageError('--size L measures the ingest of L already; leave out --with-l');
  }
  const productSize: FleetSize = quick ? 'S' : size ?? 'M';
  // at L the ingest of S and M would add 5 minutes to a run that must stay under 30: L's own ingest is measured
  const ingestSizes: FleetSize[] = { S: ['S'], M: ['S', 'M'], L: ['L'] }[productSize] as FleetSize[];
  if (withL) ingestSizes.push('L');
  return {
    ingestSizes,
    productSize,
    quick,
    seed,
    churn,
    loadSeconds: quick ? 2 : 10,
    connections: 8,
    freshnessChanges: quick ? 10 : 200,
    pageViews: pageViewsOf(quick, productSize),
    faultViews: quick ? 2 : 5,
    pageTimeoutMs: quick ? 5_000 : 15_000,
    resultsFile: resultsFileOf(quick, productSize),
    updateReadme: !quick,
    renderOnly,
  };
}
