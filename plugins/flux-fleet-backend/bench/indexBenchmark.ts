/*
 * Benchmark of the Flux Fleet index against a simulated fleet: time from start to fully synced, memory per
 * indexed object, entity-view latency under load (with churn), and the delay from a change in a cluster to the
 * signal that announces it.
 *
 *   yarn workspace @flux-fleet/plugin-flux-fleet-backend bench [--size M] [--churn 10] [--seconds 10]
 *     [--concurrency 8] [--page-size 500] [--concurrent-lists 12] [--list-worker 0] [--diagnose 1] [--baseline 0]
 *     [--kubeconfig FILE]
 *
 * The simulator runs in its own process, so its CPU and memory are not counted as the index's. Prints one JSON
 * document with the figures. With `--kubeconfig`, the benchmark reads the simulated fleet of that kubeconfig (a
 * `fleet-sim` someone else started and stops: `make bench` reads the same fleet for its parse baseline after this
 * benchmark, and an L simulator takes about two minutes to start) instead of starting its own.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import { ConfigReader } from '@backstage/config';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import express from 'express';
import { startWatching } from '../src/watch/startWatching';
import { readFleetConfig } from '../src/config/readFleetConfig';
import { createRouter } from '../src/router';
import { FleetClusters } from '../src/index/FleetClusters';
import { growHeapOnceSynced } from '../src/index/heapGrowth';
import { FleetIndex } from '../src/index/FleetIndex';
import { FleetSignals } from '../src/signals/FleetSignals';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) {
  args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
}
const SIZE = args.get('size') ?? 'M';
const CHURN = Number(args.get('churn') ?? 10);
const SECONDS = Number(args.get('seconds') ?? 10);
const CONCURRENCY = Number(args.get('concurrency') ?? 8);

const gc = (globalThis as { gc?: () => void }).gc;
const SETTLE_MS = Number(args.get('settle-ms') ?? 2000);
/** Memory after full collections and a short pause (V8 gives freed pages back in the background). */
/** The Component the benchmark's catalog has for every service. */
function componentNamed(name: string) {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name, namespace: 'default' },
  };
}

/** Committed size of each V8 heap space, MiB. */
async function heapSpacesMiB() {
  const v8 = await import('node:v8');
  return Object.fromEntries(
    v8
      .getHeapSpaceStatistics()
      .filter(space => space.space_size > 0)
      .map(space => [space.space_name, Math.round(space.space_size / 2 ** 20)]),
  );
}

async function settleMemory() {
  for (let i = 0; i < 3; i++) gc?.();
  await new Promise(r => setTimeout(r, SETTLE_MS));
  gc?.();
  return process.memoryUsage();
}

/**
 * What the plain `JSON.parse` of the same list bodies takes when its items are kept (bench/listBaseline.ts), in
 * its own process so that it does not disturb the index's figures.
 */
async function measureBaseline(kubeconfigPath: string, pageSize: number, contexts: string[]) {
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      resolve(__dirname, 'listBaseline.ts'),
      kubeconfigPath,
      String(pageSize),
      ...contexts,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', chunk => {
    out += chunk;
  });
  const code = await new Promise<number | null>(done => child.on('exit', done));
  if (code !== 0) throw new Error(`the baseline exited with ${code}: ${out}`);
  return JSON.parse(out) as Record<string, number>;
}

/** A logger that prints warnings and errors only, so the figures stay readable. */
function quietLogger(): LoggerService {
  const logger: LoggerService = {
    error: message => process.stderr.write(`error: ${message}\n`),
    warn: message => process.stderr.write(`warn: ${message}\n`),
    info: () => {},
    debug: () => {},
    child: () => logger,
  };
  return logger;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
}

async function startSimulator(dir: string) {
  const bin = resolve(__dirname, '../../../packages/fleet-sim/bin/fleet-sim');
  const child = spawn(
    process.execPath,
    [bin, '--size', SIZE, '--seed', '1', '--port', '0', '--churn', String(CHURN), '--kubeconfig', join(dir, 'kubeconfig')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((ready, fail) => {
    let out = '';
    child.stdout!.on('data', chunk => {
      out += chunk;
      if (out.includes('fleet-sim ready')) ready();
    });
    child.on('exit', code => fail(new Error(`fleet-sim exited with ${code}: ${out}`)));
  });
  return child;
}

/** Sends a JSON merge patch to a simulated cluster with its admin token, read from the kubeconfig. */
function patch(server: string, token: string, path: string, body: unknown, status = false) {
  const text = JSON.stringify(body);
  return new Promise<number>((done, fail) => {
    const req = http.request(
      `${server}${path}${status ? '/status' : ''}`,
      {
        method: 'PATCH',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/merge-patch+json',
          'Content-Length': Buffer.byteLength(text),
        },
      },
      res => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.end(text);
  });
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'flux-fleet-bench-'));
  const given = args.get('kubeconfig');
  const simStarted = Date.now();
  const sim = given ? undefined : await startSimulator(dir);
  const simReadyMs = sim ? Date.now() - simStarted : undefined;
  try {
    const kubeconfigPath = given ?? join(dir, 'kubeconfig');
    const kubeconfig = new KubeConfig();
    kubeconfig.loadFromFile(kubeconfigPath);
    const contexts = kubeconfig
      .getContexts()
      .map(c => c.name)
      .filter(name => !name.endsWith('-readonly'));
    const logger = quietLogger();
    const config = readFleetConfig(
      new ConfigReader({
        fluxFleet: {
          clusters: contexts.map(name => ({ name, kubeconfig: { path: kubeconfigPath, context: name } })),
          persistence: { enabled: false },
          watch: {
            ...(args.has('page-size') && { pageSize: Number(args.get('page-size')) }),
            ...(args.has('concurrent-lists') && { concurrentLists: Number(args.get('concurrent-lists')) }),
            ...(args.has('list-worker') && { listWorker: args.get('list-worker') !== '0' }),
          },
        },
      }),
      logger,
    );

    const baseline =
      args.get('baseline') === '0'
        ? undefined
        : await measureBaseline(kubeconfigPath, config.watch.pageSize, contexts);

    const before = await settleMemory();
    const spacesBefore = await heapSpacesMiB();
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
    // when each key was first announced on the fleet channel, and on an entity channel (what an open entity
    // page listens to)
    const signalTimes = { fleet: new Map<string, number>(), entity: new Map<string, number>() };
    const signals = new FleetSignals(
      {
        async publish(signal) {
          const now = Date.now();
          const times = signal.channel === 'flux-fleet:fleet' ? signalTimes.fleet : signalTimes.entity;
          for (const key of (signal.message as { keys: string[] }).keys) {
            if (!times.has(key)) times.set(key, now);
          }
        },
      },
      logger,
      index,
    );
    index.subscribe(changes => signals.onChanges(changes));

    const started = Date.now();
    const cpuAtStart = process.cpuUsage();
    const watchers = startWatching(config, fleet, logger);
    const peak = { rss: 0, heapUsed: 0, heapTotal: 0 };
    for (;;) {
      const m = process.memoryUsage();
      peak.rss = Math.max(peak.rss, m.rss);
      peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
      peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal);
      const clusters = index.clusters();
      if (clusters.every(c => c.synced && c.lagMs === 0)) break;
      await new Promise(r => setTimeout(r, 10));
    }
    const syncMs = Date.now() - started;
    // CPU time of this process during the sync: less sensitive than wall time to other work on the machine
    const syncCpu = process.cpuUsage(cpuAtStart);
    const syncCpuMs = Math.round((syncCpu.user + syncCpu.system) / 1000);
    const objects = index.summary().objects;
    const after = await settleMemory();
    const spacesAfter = await heapSpacesMiB();
    const memory = {
      objects,
      rssMiB: Math.round(after.rss / 2 ** 20),
      rssDeltaMiB: Math.round((after.rss - before.rss) / 2 ** 20),
      heapDeltaMiB: Math.round((after.heapUsed - before.heapUsed) / 2 ** 20),
      rssBytesPerObject: Math.round((after.rss - before.rss) / objects),
      peakDuringSyncMiB: {
        rss: Math.round(peak.rss / 2 ** 20),
        heapUsed: Math.round(peak.heapUsed / 2 ** 20),
        heapTotal: Math.round(peak.heapTotal / 2 ** 20),
      },
      heapBytesPerObject: Math.round((after.heapUsed - before.heapUsed) / objects),
      /** The same list bodies parsed with plain JSON.parse and kept (bench/listBaseline.ts). */
      baselinePlainJsonParse: baseline,
    };

    if (args.has('diagnose')) {
      // what the index holds, to see where its memory goes
      let inventoryChars = 0;
      let events = 0;
      let messageChars = 0;
      const labelSets = new Set<object>();
      for (const name of index.clusterNames()) {
        const store = fleet.storeOf(name);
        for (const r of store.objects.values()) {
          inventoryChars += r.inventory?.length ?? 0;
          messageChars += r.ready?.message?.length ?? 0;
          labelSets.add(r.labels);
        }
        for (const [, list] of store.events) events += list.length;
      }
      process.stderr.write(
        `${JSON.stringify({
          inventoryChars,
          messageChars,
          events,
          distinctLabelSets: labelSets.size,
          memoryUsageBeforeMiB: Object.fromEntries(
            Object.entries(before).map(([k, v]) => [k, Math.round(v / 2 ** 20)]),
          ),
          heapSpacesBeforeMiB: spacesBefore,
          memoryUsageSettledMiB: Object.fromEntries(
            Object.entries(after).map(([k, v]) => [k, Math.round(v / 2 ** 20)]),
          ),
          heapSpacesSettledMiB: spacesAfter,
          memoryUsageMiB: Object.fromEntries(
            Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 2 ** 20)]),
          ),
          heapSpacesMiB: await heapSpacesMiB(),
        })}\n`,
      );
    }

    // The API, as the plugin serves it, behind a catalog that knows one Component per service.
    const app = express();
    app.use(
      await createRouter({
        httpAuth: {
          credentials: async () => ({
            $$type: '@backstage/BackstageCredentials',
            principal: { type: 'user', userEntityRef: 'user:default/bench' },
          }),
        } as any,
        fleetIndex: index,
        catalog: {
          async getEntityByRef(ref: { name: string }) {
            return componentNamed(ref.name);
          },
          async getEntitiesByRefs(request: { entityRefs: string[] }) {
            return { items: request.entityRefs.map(ref => componentNamed(ref.slice(ref.indexOf('/') + 1))) };
          },
        } as any,
        signals,
        // every caller may read everything; a real decision is cached per caller for 10 s
        readAccess: { filterFor: async () => undefined, entitiesFor: async () => 'all' } as any,
        auth: {
          getOwnServiceCredentials: async () => ({
            $$type: '@backstage/BackstageCredentials',
            principal: { type: 'service', subject: 'plugin:flux-fleet' },
          }),
        } as any,
        logger,
        // the action routes are not measured: what the router needs of them, inert
        writeAccess: { withReadOnly: (cluster: unknown) => cluster },
        ownership: { refresh: async () => {}, ownersOf: () => [] },
        actionAccess: {},
        actions: {},
        auditor: {},
      } as any),
    );
    const server = app.listen(0);
    const port = (server.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const services = [...new Set(index.objects({ limit: 1000 }).items.map(o => o.service))]
      .filter((s): s is string => s !== null);
    const allServices = new Set<string>();
    for (let cursor: string | undefined, n = 0; n < 200; n++) {
      const page = index.objects({ limit: 1000, cursor, sort: 'key' });
      for (const o of page.items) if (o.service) allServices.add(o.service);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    const serviceList = allServices.size ? [...allServices] : services;

    const get = (path: string) =>
      new Promise<{ ms: number; bytes: number }>((done, fail) => {
        const t = process.hrtime.bigint();
        http
          .get({ host: '127.0.0.1', port, path, agent }, res => {
            // an error answer is fast and small: measuring it would flatter the API
            if ((res.statusCode ?? 0) >= 300) {
              res.resume();
              fail(new Error(`GET ${path} answered ${res.statusCode}: the API under test is broken`));
              return;
            }
            let bytes = 0;
            res.on('data', c => {
              bytes += c.length;
            });
            res.on('end', () => done({ ms: Number(process.hrtime.bigint() - t) / 1e6, bytes }));
          })
          .on('error', fail);
      });

    // warm the entity-link cache and the JIT, as pages that are open would
    for (const s of serviceList.slice(0, 200)) await get(`/entity/component/default/${s}`);

    const latencies: number[] = [];
    let bytes = 0;
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < until) {
          const service = serviceList[Math.floor(Math.random() * serviceList.length)];
          const r = await get(`/entity/component/default/${service}`);
          latencies.push(r.ms);
          bytes += r.bytes;
        }
      }),
    );
    const entityHttp = {
      ...stats(latencies),
      requestsPerSecond: Math.round(latencies.length / SECONDS),
      meanBytes: Math.round(bytes / latencies.length),
    };

    // The same view without HTTP: index lookup and conversion only.
    const direct: number[] = [];
    for (let n = 0; n < 5_000; n++) {
      const service = serviceList[n % serviceList.length];
      const t = process.hrtime.bigint();
      index.entityObjects({ kubernetesId: service });
      direct.push(Number(process.hrtime.bigint() - t) / 1e6);
    }

    // A filtered, sorted query over the whole fleet.
    const queries: Record<string, number[]> = {};
    for (const [name, query] of Object.entries({
      'all, by key': { limit: 100 },
      'failed, by updatedAt': { state: ['failed' as const], sort: 'updatedAt' as const, order: 'desc' as const },
      'text "api", by name': { q: 'api', sort: 'name' as const },
      'kind HelmRelease, by state': { kind: ['HelmRelease' as const], sort: 'state' as const },
    })) {
      queries[name] = [];
      for (let n = 0; n < 50; n++) {
        const t = process.hrtime.bigint();
        index.objects(query);
        queries[name].push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }

    // Freshness: a change made in a cluster, until the signal that announces it.
    const kcClusters = new Map<string, { server: string; token: string }>();
    for (const context of kubeconfig.getContexts()) {
      const url = kubeconfig.getCluster(context.cluster)?.server;
      const token = kubeconfig.getUser(context.user)?.token;
      if (url && token) kcClusters.set(context.name, { server: url, token });
    }
    const candidates = index
      .objects({ kind: ['Kustomization'], limit: 1000 })
      .items.filter(o => o.service !== null);
    const freshness = {
      structural: { entity: [] as number[], fleet: [] as number[] },
      status: { entity: [] as number[], fleet: [] as number[] },
    };
    for (const [kind, n] of [['structural', 60], ['status', 60]] as const) {
      for (let i = 0; i < n; i++) {
        const o = candidates[(i * 37 + (kind === 'status' ? 500 : 0)) % candidates.length];
        const c = kcClusters.get(o.ref.cluster);
        if (!c) continue;
        // the service's entity page is open
        signals.entityViewed(`component:default/${o.service}`, { kubernetesId: o.service! });
        const path = `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${o.ref.namespace}/kustomizations/${o.ref.name}`;
        signalTimes.fleet.delete(o.key);
        signalTimes.entity.delete(o.key);
        const t = Date.now();
        const code =
          kind === 'structural'
            ? await patch(c.server, c.token, path, { metadata: { labels: { 'bench.flux-fleet.io/n': String(i) } } })
            : await patch(
                c.server,
                c.token,
                path,
                { status: { lastHandledReconcileAt: new Date().toISOString() } },
                true,
              );
        if (code !== 200) throw new Error(`PATCH ${path} answered ${code}`);
        for (let w = 0; w < 200 && !(signalTimes.fleet.has(o.key) && signalTimes.entity.has(o.key)); w++) {
          await new Promise(r => setTimeout(r, 5));
        }
        for (const channel of ['entity', 'fleet'] as const) {
          const at = signalTimes[channel].get(o.key);
          if (at !== undefined) freshness[kind][channel].push(at - t);
        }
        await new Promise(r => setTimeout(r, 50));
      }
    }

    const result = {
      fleet: SIZE,
      churnPerSecondPerCluster: CHURN,
      clusters: contexts.length,
      simulatorReadyMs: simReadyMs,
      /** How the index listed: page size and lists in flight fleet-wide (`make bench` fetches its baseline alike). */
      lists: { pageSize: config.watch.pageSize, concurrentLists: config.watch.concurrentLists },
      syncMs,
      syncCpuMs,
      memory,
      entityViewHttpMs: entityHttp,
      entityViewIndexMs: stats(direct),
      objectQueriesMs: Object.fromEntries(Object.entries(queries).map(([k, v]) => [k, stats(v)])),
      changeToSignalMs: {
        entityChannel: {
          structural: stats(freshness.structural.entity),
          status: stats(freshness.status.entity),
        },
        fleetChannel: {
          structural: stats(freshness.structural.fleet),
          status: stats(freshness.status.fleet),
        },
      },
      node: process.version,
      nodeFlags: process.execArgv.filter(a => a.startsWith('--') && !a.startsWith('--require')),
      /** Load average of the machine (1, 5, 15 min) when the figures were taken: other work shares the cores. */
      loadAverage: loadavg().map(n => Math.round(n * 100) / 100),
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);

    agent.destroy();
    server.close();
    for (const w of watchers) w.stop();
    signals.close();
    fleet.close();
  } finally {
    sim?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch(error => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
