/**
 * The `fleet-sim` command: generates a fleet, serves it, writes the kubeconfig and the truth, prints one ready
 * line and runs until SIGINT/SIGTERM.
 *
 *   fleet-sim --size S --seed 7 --port 0 --kubeconfig FILE --truth FILE
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { startFleetSim } from './fleetSim';
import type { FleetSimOptions } from './options';
import { catalogEntities } from './truth/catalogEntities';
import { parseFaultFlag, type FaultChange } from './sim/faults';

const USAGE = `Usage: fleet-sim [options]

Serves simulated Flux fleets through real Kubernetes API servers (one port per cluster).

  --size S|M|L            preset: S = 3 clusters x 300 services, M = 20 x 2,500, L = 100 x 5,000 (default S)
  --clusters N            number of clusters (overrides the preset)
  --services N            services per cluster (overrides the preset)
  --seed N                seed of the generator (default 1): same seed and size, same fleet and truth
  --host H                address to listen on (default 127.0.0.1)
  --port N                first port; clusters take consecutive ports, then the admin API (default 0: any)
  --kubeconfig FILE       write a kubeconfig: per cluster a context <cluster> (admin) and <cluster>-readonly
  --truth FILE            write the ground truth (JSON) at start; GET <admin>/truth serves it live
  --catalog FILE          write a Backstage catalog file: a Component per service, owned by its team's Group
  --catalog-skip NAMES    comma-separated entity names defined elsewhere, left out of the catalog file
  --empty                 clusters serve the Flux APIs but hold no objects
  --tls                   HTTPS with a generated CA (in the kubeconfig)
  --prometheus-targets FILE  serve each controller pod's metrics on a local port and list them in FILE
                          (Prometheus file_sd JSON, labels cluster, namespace, pod, deployment, component)
  --churn N               status changes per second per cluster (default 1; 0 = none)
  --fault CLUSTER:FAULT[=VALUE]
                          start with a fault, e.g. prod-eu-west-1:down, prod-eu-west-1:latencyMs=300,
                          prod-eu-west-1:throttleRatio=0.2 (repeatable)
  --bookmark-interval MS  interval of watch bookmarks (default 60000)
  --watch-window N        how many resourceVersions back a watch may resume (default 5000)
  --epoch TIME            the instant object times are relative to (default: the current hour)
  --help                  this text

Admin API: GET /truth, GET /clusters, GET /targets, POST /clusters/:name/faults with a JSON body such as {"down": true}.
`;

/** Parses the command line. */
export function parseArgs(argv: string[]): {
  options: FleetSimOptions;
  kubeconfig?: string;
  truth?: string;
  catalog?: string;
  catalogSkip: string[];
  faults: Array<{ cluster: string; faults: FaultChange }>;
  help: boolean;
} {
  const options: FleetSimOptions = { churnPerSecond: 1 };
  const faults: Array<{ cluster: string; faults: FaultChange }> = [];
  let kubeconfig: string | undefined;
  let truth: string | undefined;
  let catalog: string | undefined;
  let catalogSkip: string[] = [];
  let help = false;
  const integer = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (value === undefined || value.trim() === '' || !Number.isFinite(n)) {
      throw new Error(
        `${flag} needs a number, got ${
          value === undefined ? 'nothing' : JSON.stringify(value)
        }`,
      );
    }
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] =
      argv[i].startsWith('--') &&
      argv[i].includes('=') &&
      !argv[i].startsWith('--fault=')
        ? argv[i].split(/=(.*)/s, 2)
        : [argv[i], undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--size': {
        const size = value().toUpperCase();
        if (size !== 'S' && size !== 'M' && size !== 'L')
          throw new Error(`--size must be S, M or L, got ${size}`);
        options.size = size;
        break;
      }
      case '--clusters':
        options.clusters = integer(flag, value());
        break;
      case '--services':
        options.services = integer(flag, value());
        break;
      case '--seed':
        options.seed = integer(flag, value());
        break;
      case '--host':
        options.host = value();
        break;
      case '--port':
        options.port = integer(flag, value());
        break;
      case '--kubeconfig':
        kubeconfig = value();
        break;
      case '--truth':
        truth = value();
        break;
      case '--catalog':
        catalog = value();
        break;
      case '--catalog-skip':
        catalogSkip = value()
          .split(',')
          .map(n => n.trim())
          .filter(Boolean);
        break;
      case '--empty':
        options.empty = true;
        break;
      case '--prometheus-targets':
        options.prometheusTargets = value();
        break;
      case '--tls':
        options.tls = true;
        break;
      case '--churn':
        options.churnPerSecond = integer(flag, value());
        break;
      case '--fault':
        faults.push(parseFaultFlag(value()));
        break;
      case '--bookmark-interval':
        options.bookmarkIntervalMs = integer(flag, value());
        break;
      case '--watch-window':
        options.watchWindow = integer(flag, value());
        break;
      case '--epoch':
        options.epoch = value();
        break;
      case '--help':
      case '-h':
        help = true;
        break;
      default:
        if (argv[i].startsWith('--fault=')) {
          faults.push(parseFaultFlag(argv[i].slice('--fault='.length)));
          break;
        }
        throw new Error(`unknown option ${argv[i]}; see --help`);
    }
  }
  return { options, kubeconfig, truth, catalog, catalogSkip, faults, help };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`fleet-sim: ${(error as Error).message}\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const sim = await startFleetSim(parsed.options);
  const shutdown = (signal: string) => {
    process.stderr.write(`fleet-sim: ${signal}, stopping\n`);
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  try {
    for (const { cluster, faults } of parsed.faults)
      await sim.setFault(cluster, faults);
  } catch (error) {
    process.stderr.write(`fleet-sim: ${(error as Error).message}\n`);
    await sim.close();
    process.exit(2);
  }
  if (parsed.kubeconfig) sim.writeKubeconfig(parsed.kubeconfig);
  const truth = sim.truth();
  if (parsed.truth) {
    mkdirSync(dirname(parsed.truth), { recursive: true });
    writeFileSync(parsed.truth, `${JSON.stringify(truth, null, 2)}\n`);
  }
  if (parsed.catalog) {
    mkdirSync(dirname(parsed.catalog), { recursive: true });
    writeFileSync(
      parsed.catalog,
      catalogEntities(truth, { skip: new Set(parsed.catalogSkip) }),
    );
  }
  process.stdout.write(
    `fleet-sim ready: ${sim.clusters.length} clusters, ${truth.objects.length} objects, admin ${sim.adminUrl}\n`,
  );
}

if (require.main === module || process.env.FLEET_SIM_CLI === '1') {
  main().catch(error => {
    process.stderr.write(`fleet-sim: ${error?.stack ?? error}\n`);
    process.exit(1);
  });
}
