/*
 * Profile of the initial sync of a simulated fleet: memory over time (RSS, heap, external, young generation)
 * while the index lists every cluster and after, optionally a heap snapshot once synced.
 *
 *   node --expose-gc --require @backstage/cli/config/nodeTransform.cjs bench/syncProfile.ts \
 *     [--size M] [--snapshot /tmp/after-sync.heapsnapshot] [--settle-seconds 5]
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import { ConfigReader } from '@backstage/config';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import v8 from 'node:v8';
import { KubeConfig } from '@kubernetes/client-node';
import { startWatching } from '../src/watch/startWatching';
import { readFleetConfig } from '../src/config/readFleetConfig';
import { FleetClusters } from '../src/index/FleetClusters';
import { FleetIndex } from '../src/index/FleetIndex';
import { growHeapOnceSynced } from '../src/index/heapGrowth';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) {
  args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
}
const SIZE = args.get('size') ?? 'M';
const SETTLE_S = Number(args.get('settle-seconds') ?? 5);
const gc = (globalThis as { gc?: () => void }).gc;

const logger: LoggerService = {
  error: m => process.stderr.write(`error: ${m}\n`),
  warn: m => process.stderr.write(`warn: ${m}\n`),
  info: () => {},
  debug: () => {},
  child: () => logger,
};

function sample(t0: number, label = '') {
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map(s => [s.space_name, s]),
  );
  const mib = (n: number) => Math.round(n / 2 ** 20);
  return {
    t: Date.now() - t0,
    label,
    rss: mib(m.rss),
    heapUsed: mib(m.heapUsed),
    heapTotal: mib(m.heapTotal),
    external: mib(m.external),
    arrayBuffers: mib(m.arrayBuffers),
    newSpace: mib(spaces.new_space?.space_size ?? 0),
    oldSpace: mib(spaces.old_space?.space_size ?? 0),
    lo: mib(spaces.large_object_space?.space_size ?? 0),
  };
}

/** Resident memory by kind of mapping: V8's pages (small anonymous), malloc's heap and arenas, the rest. */
async function smapsSummary(): Promise<string> {
  const { readFileSync } = await import('node:fs');
  const totals: Record<string, number> = {};
  let name = '';
  let size = 0;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      name = head[1];
      continue;
    }
    if (line.startsWith('Size:')) size = Number(line.split(/\s+/)[1]);
    if (!line.startsWith('Rss:')) continue;
    let kind = 'files';
    if (name === '[heap]') kind = 'malloc heap';
    else if (!name && size >= 65536) kind = 'anon >= 64 MiB (arenas)';
    else if (!name && size >= 1024) kind = 'anon 1-64 MiB';
    else if (!name) kind = 'anon < 1 MiB (V8 pages)';
    totals[kind] = (totals[kind] ?? 0) + Number(line.split(/\s+/)[1]);
  }
  return Object.entries(totals)
    .map(([k, v]) => `${k} ${Math.round(v / 1024)}`)
    .join(', ');
}

/**
 * Counts the index's passes over a cluster (analyses, status re-derivations) and the time they take, by wrapping
 * the instance's own methods: how many analyses a first sync costs is what its CPU time mostly depends on.
 */
function countPasses(fleet: FleetClusters) {
  const counts = { analyses: 0, analysisMs: 0, statusPasses: 0, statusMs: 0 };
  const target = fleet as unknown as Record<'analyse' | 'rederiveStatus', (entry: unknown) => unknown>;
  const wrap = (name: 'analyse' | 'rederiveStatus', count: 'analyses' | 'statusPasses', ms: 'analysisMs' | 'statusMs') => {
    const original = target[name].bind(fleet);
    target[name] = (entry: unknown) => {
      const t = performance.now();
      try {
        return original(entry);
      } finally {
        counts[count]++;
        counts[ms] += performance.now() - t;
      }
    };
  };
  wrap('analyse', 'analyses', 'analysisMs');
  wrap('rederiveStatus', 'statusPasses', 'statusMs');
  return {
    snapshot: () => ({
      analyses: counts.analyses,
      analysisMs: Math.round(counts.analysisMs),
      statusPasses: counts.statusPasses,
      statusMs: Math.round(counts.statusMs),
    }),
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'flux-fleet-profile-'));
  const bin = resolve(__dirname, '../../../packages/fleet-sim/bin/fleet-sim');
  const sim = spawn(
    process.execPath,
    [bin, '--size', SIZE, '--seed', '1', '--port', '0', '--churn', args.get('churn') ?? '10', '--kubeconfig', join(dir, 'kubeconfig')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((ready, fail) => {
    let out = '';
    sim.stdout!.on('data', c => {
      out += c;
      if (out.includes('fleet-sim ready')) ready();
    });
    sim.on('exit', code => fail(new Error(`fleet-sim exited ${code}`)));
  });
  try {
    const kubeconfigPath = join(dir, 'kubeconfig');
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigPath);
    const contexts = kc.getContexts().map(c => c.name).filter(n => !n.endsWith('-readonly'));
    const config = readFleetConfig(
      new ConfigReader({
        fluxFleet: {
          clusters: contexts.map(name => ({ name, kubeconfig: { path: kubeconfigPath, context: name } })),
          persistence: { enabled: false },
          ...(args.has('page-size') && { watch: { pageSize: Number(args.get('page-size')) } }),
          ...(args.has('concurrent-lists') && {
            watch: { concurrentLists: Number(args.get('concurrent-lists')) },
          }),
        },
      }),
      logger,
    );
    for (let i = 0; i < 3; i++) gc?.();
    const smapsBefore = args.has('smaps') ? await smapsSummary() : '';
    const t0 = Date.now();
    const samples = [sample(t0, 'before')];
    const fleet = new FleetClusters({
      clusters: config.clusters.map(c => c.name),
      tenants: config.tenants,
      analysis: config.analysis,
      eventsPerObject: config.watch.eventsPerObject,
      logger,
    });
    // as the plugin does (fleetIndexServiceFactory): V8's own heap growing during the sync, the configured after
    growHeapOnceSynced({ percent: config.heapGrowingPercentOnceSynced, ready: fleet.ready(), logger });
    const index = new FleetIndex(fleet, config.tenants);
    const passes = countPasses(fleet);
    const cpuAtStart = process.cpuUsage();
    const watchers = startWatching(config, fleet, logger);
    let last = 0;
    for (;;) {
      if (Date.now() - last >= 250) {
        samples.push(sample(t0));
        last = Date.now();
      }
      if (index.clusters().every(c => c.synced && c.lagMs === 0)) break;
      await new Promise(r => setTimeout(r, 10));
    }
    const syncMs = Date.now() - t0;
    const passesDuringSync = passes.snapshot();
    const cpu = process.cpuUsage(cpuAtStart);
    const syncCpuMs = Math.round((cpu.user + cpu.system) / 1000);
    samples.push(sample(t0, 'synced'));
    const settleUntil = Date.now() + SETTLE_S * 1000;
    while (Date.now() < settleUntil) {
      await new Promise(r => setTimeout(r, 500));
      samples.push(sample(t0));
    }
    for (let i = 0; i < 3; i++) gc?.();
    samples.push(sample(t0, 'settled+gc'));
    if (args.has('last-resort')) {
      // what a memory-reducing collection (the memory reducer's kind) gives back
      (gc as unknown as (o: object) => void)?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      await new Promise(r => setTimeout(r, 1000));
      samples.push(sample(t0, 'last-resort'));
    }
    // how memory goes on under churn, with no collection asked for
    const followUntil = Date.now() + Number(args.get('follow-seconds') ?? 0) * 1000;
    while (Date.now() < followUntil) {
      await new Promise(r => setTimeout(r, 5000));
      samples.push(sample(t0, 'follow'));
    }
    const objects = index.summary().objects;
    const settled = samples.find(x => x.label === 'settled+gc')!;
    process.stdout.write(
      `${JSON.stringify({
        syncMs,
        syncCpuMs,
        objects,
        rssPerObject: Math.round(((settled.rss - samples[0].rss) * 2 ** 20) / objects),
        passesDuringSync,
      })}\n`,
    );
    for (const s of samples) process.stdout.write(`${JSON.stringify(s)}\n`);
    if (args.has('fields')) {
      // per record field: how many objects have it, distinct values, and characters of distinct strings
      const stats = new Map<string, { present: number; distinct: Set<unknown>; chars: number }>();
      for (const name of index.clusterNames()) {
        for (const r of fleet.storeOf(name).objects.values()) {
          for (const [field, value] of Object.entries(r)) {
            if (value === undefined) continue;
            let s = stats.get(field);
            if (!s) stats.set(field, (s = { present: 0, distinct: new Set(), chars: 0 }));
            s.present++;
            const v = typeof value === 'object' ? JSON.stringify(value) : value;
            if (!s.distinct.has(v)) {
              s.distinct.add(v);
              if (typeof v === 'string') s.chars += v.length;
            }
          }
        }
      }
      for (const [field, s] of stats) {
        process.stdout.write(`field ${field} present ${s.present} distinct ${s.distinct.size} distinctChars ${s.chars}\n`);
      }
    }
    if (args.has('time-analysis')) {
      // how long a structural change's re-analysis of one cluster takes (it delays that change's signal)
      const times: number[] = [];
      for (let round = 0; round < 3; round++) {
        for (const entry of fleet.all()) {
          const t = process.hrtime.bigint();
          entry.scheduler.analyseNow();
          times.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
      }
      const reads: number[] = [];
      for (const name of index.clusterNames()) {
        const t = process.hrtime.bigint();
        let n = 0;
        for (const r of fleet.storeOf(name).objects.values()) n += r.inventoryCount;
        reads.push(Number(process.hrtime.bigint() - t) / 1e6 + n * 0);
      }
      reads.sort((a, b) => a - b);
      process.stdout.write(`records of one cluster built back: p50 ${reads[Math.floor(reads.length / 2)].toFixed(1)} ms\n`);
      times.sort((a, b) => a - b);
      process.stdout.write(
        `analysis of one cluster: p50 ${times[Math.floor(times.length / 2)].toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms\n`,
      );
    }
    if (args.has('smaps')) {
      process.stdout.write(`smaps before: ${smapsBefore}\nsmaps after:  ${await smapsSummary()}\n`);
    }
    if (args.has('snapshot')) {
      v8.writeHeapSnapshot(args.get('snapshot'));
      process.stdout.write(`snapshot written to ${args.get('snapshot')}\n`);
    }
    for (const w of watchers) w.stop();
    fleet.close();
  } finally {
    sim.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch(e => {
  process.stderr.write(`${e?.stack ?? e}\n`);
  process.exit(1);
});
