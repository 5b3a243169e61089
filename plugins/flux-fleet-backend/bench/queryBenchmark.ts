/*
 * Benchmark of fleet-wide object queries (`GET /objects`) without HTTP or a server: the simulator's generator
 * builds a fleet, its objects go straight into the index's stores (as a watch would deliver them), and each query
 * of the product benchmark's fleet page runs many times. Prints one JSON document: per query its matches and
 * p50/p99 in ms, and the heap the index holds per object.
 *
 *   yarn workspace @flux-fleet/plugin-flux-fleet-backend bench:query [--size M] [--runs 200] [--only text]
 */
import { generateFleet, resolveOptions } from '@flux-fleet/fleet-sim';
import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ObjectQuery } from '@flux-fleet/plugin-flux-fleet-common';
import { FleetClusters } from '../src/index/FleetClusters';
import { FleetIndex } from '../src/index/FleetIndex';
import { loadGeneratedFleet } from '../src/__testUtils__/generatedFleet';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) {
  args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
}
const SIZE = (args.get('size') ?? 'M') as 'S' | 'M' | 'L';
const RUNS = Number(args.get('runs') ?? 200);
const gc = (globalThis as { gc?: () => void }).gc;

const silent: LoggerService = {
  error: message => process.stderr.write(`error: ${message}\n`),
  warn: () => {},
  info: () => {},
  debug: () => {},
  child: () => silent,
};

/** The fleet page's queries of the product benchmark (bench/src/product/apiUnderLoad.ts), and a few more. */
const QUERIES: Record<string, ObjectQuery> = {
  'kind HelmRelease, state failed': { kind: ['HelmRelease'], state: ['failed'], limit: 100 },
  'failed/stalled/blocked, by updatedAt desc': {
    state: ['failed', 'stalled', 'blocked'],
    sort: 'updatedAt',
    order: 'desc',
    limit: 100,
  },
  'text "api", by name': { q: 'api', sort: 'name', limit: 100 },
  'all, by key': { limit: 100 },
  'kind HelmRelease, by state': { kind: ['HelmRelease'], sort: 'state', limit: 100 },
  'one cluster, Kustomizations by state': { cluster: ['CLUSTER'], kind: ['Kustomization'], sort: 'state', limit: 100 },
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const generated = generateFleet(resolveOptions({ size: SIZE, seed: 1 }));
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const fleet = new FleetClusters({
    clusters: generated.map(c => c.name),
    tenants: [],
    analysis: { debounceMs: 10, maxDelayMs: 50, refreshIntervalMs: 3_600_000 },
    eventsPerObject: 0,
    logger: silent,
  });
  const index = new FleetIndex(fleet, []);
  loadGeneratedFleet(fleet, generated);
  generated.length = 0;
  // the analyses run on their schedulers' timers
  for (;;) {
    await new Promise(r => setTimeout(r, 200));
    if (fleet.all().every(e => e.view.analysedAt !== undefined && !e.store.peekChanges().structural)) break;
  }
  gc?.();
  const objects = index.summary().objects;
  const heapBytesPerObject = Math.round((process.memoryUsage().heapUsed - heapBefore) / objects);
  for (let i = 0; i < 3; i++) gc?.();
  const heapBeforeQueries = process.memoryUsage().heapUsed;
  const firstCluster = index.clusterNames()[0];
  const results: Record<string, unknown> = {};
  const only = args.get('only');
  for (const [name, q] of Object.entries(QUERIES)) {
    if (only && !name.includes(only)) continue;
    const query = { ...q, ...(q.cluster && { cluster: [firstCluster] }) };
    const times: number[] = [];
    const cpu: number[] = [];
    let totalCount = 0;
    for (let n = 0; n < RUNS; n++) {
      const t = process.hrtime.bigint();
      const c = process.cpuUsage();
      totalCount = index.objects(query).totalCount;
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 100) / 100;
    // CPU time is less disturbed than wall time by other work on a shared machine
    results[name] = {
      totalCount,
      p50: round(percentile(times, 50)),
      p99: round(percentile(times, 99)),
      cpuP50: round(percentile(cpu, 50)),
    };
  }
  for (let i = 0; i < 3; i++) gc?.();
  // what the queries keep: each cluster's key order, the matches of the texts asked
  const queryHeapBytesPerObject = Math.round((process.memoryUsage().heapUsed - heapBeforeQueries) / objects);
  process.stdout.write(
    `${JSON.stringify({ size: SIZE, objects, heapBytesPerObject, queryHeapBytesPerObject, queries: results }, null, 2)}\n`,
  );
  fleet.close();
}

main().catch(error => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
