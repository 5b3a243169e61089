/**
 * `make bench` (scripts/bench.sh): Flux Fleet measured on the simulated fleet, with a baseline in the same run for
 * every figure, side by side with the Kubernetes plugin on the same backend. Writes bench/results/latest.json and
 * the README's `## Benchmarks` section; `--help` for the options.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { measureIngest, type IngestResult } from './ingest/runIngest';
import { startMachineAccounting } from './machine';
import {
  parseBenchOptions,
  resultsFileOf,
  USAGE,
  UsageError,
  type BenchOptions,
} from './options';
import { killAllGroups, startedGroupIds } from './processGroup';
import { measureProduct, type ProductResult } from './product/runProduct';
import { renderBenchSection, renderReport } from './report/renderReport';
import type { BenchResults } from './report/results';
import { withBenchSection } from './report/updateReadme';
import { closeClusterConnections } from './clusterRequest';

/** The repository: scripts/env.sh sets FLUX_FLEET_ROOT; `yarn bench` runs in bench/. */
const root = process.env.FLUX_FLEET_ROOT ?? resolve(process.cwd(), '..');
const started = Date.now();

function log(line: string) {
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(`==> [${String(seconds).padStart(4)} s] ${line}\n`);
}

function readOptions(argv: string[]): BenchOptions {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  try {
    return parseBenchOptions(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`make bench: ${error.message}\n${USAGE}\n`);
      process.exit(2);
    }
    throw error;
  }
}

function readResults(file: string): BenchResults | undefined {
  const path = join(root, file);
  return existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as BenchResults)
    : undefined;
}

/** Rewrites the README's Benchmarks section from the default run's results and the run at L's, as on record. */
function writeReadmeSection(): string {
  const section = renderBenchSection(
    readResults(resultsFileOf(false, 'M')),
    readResults(resultsFileOf(false, 'L')),
  );
  const readme = join(root, 'README.md');
  writeFileSync(
    readme,
    withBenchSection(readFileSync(readme, 'utf8'), section),
  );
  return section;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const options = readOptions(argv);
  if (options.renderOnly) {
    process.stdout.write(`${writeReadmeSection()}\n`);
    log(
      'README.md: the Benchmarks section rewritten from bench/results/latest.json and latest-L.json',
    );
    return 0;
  }
  // logs of every process the run starts, kept for a look after a failure (git-ignored)
  const dir = join(root, '.flux-fleet/bench');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });

  const accounting = startMachineAccounting(startedGroupIds);
  log(
    `machine: ${accounting.machine.cores} cores, ${accounting.machine.memoryGiB} GiB, Node ${accounting.machine.node}; ${accounting.machine.uptimeBefore}`,
  );
  log(`logs of the simulators, benchmarks and backend: ${dir}`);

  const failures: BenchResults['failures'] = [];
  const ingest: IngestResult[] = [];
  for (const size of options.ingestSizes) {
    try {
      ingest.push(
        await measureIngest({
          root,
          dir,
          size,
          loadSeconds: options.quick ? 1 : 3,
          log,
        }),
      );
    } catch (error) {
      const message = (error as Error).message;
      log(`!! ingest ${size} failed: ${message.split('\n')[0]}`);
      failures.push({ part: `ingest ${size}`, message });
    }
  }

  let product: ProductResult | undefined;
  try {
    product = await measureProduct({ root, dir, bench: options, log });
    failures.push(...product.failures);
  } catch (error) {
    const message = (error as Error).message;
    log(`!! product ${options.productSize} failed: ${message.split('\n')[0]}`);
    failures.push({ part: `product ${options.productSize}`, message });
  }
  closeClusterConnections();

  const results: BenchResults = {
    date: new Date(started).toISOString(),
    command: argv.join(' '),
    options,
    machine: accounting.finish(),
    durationSeconds: Math.round((Date.now() - started) / 1000),
    ingest,
    product,
    failures,
  };
  const resultsFile = join(
    root,
    failures.length > 0 ? 'bench/results/failed.tmp.json' : options.resultsFile,
  );
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  const report = renderReport(results);
  process.stdout.write(`\n${report}\n`);
  log(`results: ${resultsFile}`);
  if (failures.length === 0 && options.updateReadme) {
    writeReadmeSection();
    log('README.md: the Benchmarks section is up to date');
  } else if (failures.length > 0) {
    log(
      `${failures.length} part(s) failed: latest.json and the README keep the previous run's figures`,
    );
  }
  return failures.length > 0 ? 1 : 0;
}

process.on('exit', killAllGroups);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\nmake bench: ${signal}, stopping what it started\n`);
    killAllGroups();
    process.exit(130);
  });
}

main().then(
  code => process.exit(code),
  error => {
    process.stderr.write(
      `make bench failed: ${(error as Error).stack ?? error}\n`,
    );
    process.exit(1);
  },
);
