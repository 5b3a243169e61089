/**
 * Benchmark of the simulator, run as its own process through the CLI (as the plugin's benchmarks use it):
 *   node -r @backstage/cli/config/nodeTransform.cjs src/bench.ts [--size M] [--watches 200] [--seconds 15]
 * Measures the time to generate and serve a fleet and its RSS, the latency of listing every Kustomization of
 * a cluster (with limit=500 paging and without), and whether concurrent watches hold under churn.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

interface Target {
  name: string;
  server: string;
  token: string;
}

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) =>
    Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    rss: Math.round(kb('VmRSS') / 1024),
    peak: Math.round(kb('VmHWM') / 1024),
  };
}

async function startSim(args: string[]): Promise<{
  child: ChildProcess;
  targets: Target[];
  ms: number;
  dir: string;
  line: string;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-sim-bench-'));
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      join(
        dirname(require.resolve('@flux-fleet/fleet-sim/package.json')),
        'bin/fleet-sim',
      ),
      ...args,
      '--port',
      '0',
      '--kubeconfig',
      join(dir, 'kubeconfig'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', chunk => {
      out += chunk;
      if (out.includes('\n')) done(out.trim());
    });
    child.on('exit', code => fail(new Error(`fleet-sim exited with ${code}`)));
  });
  const ms = Date.now() - started;
  const config = parse(readFileSync(join(dir, 'kubeconfig'), 'utf8'));
  const targets = config.clusters.map((c: any) => ({
    name: c.name,
    server: c.cluster.server,
    token: config.users.find((u: any) => u.name === `${c.name}-admin`).user
      .token,
  }));
  return { child, targets, ms, dir, line };
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function get(target: Target, path: string): Promise<Buffer> {
  return new Promise((done, fail) => {
    const req = request(
      `${target.server}${path}`,
      { agent, headers: { Authorization: `Bearer ${target.token}` } },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? done(Buffer.concat(chunks))
            : fail(new Error(`${path}: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', fail);
    req.end();
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    Math.round(
      sorted[
        Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))
      ] * 10,
    ) / 10
  );
}

async function listTimes(
  target: Target,
  rounds: number,
): Promise<Record<string, unknown>> {
  const path = '/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations';
  const count = JSON.parse((await get(target, path)).toString()).items.length;
  const whole: number[] = [];
  const wholeParsed: number[] = [];
  const paged: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    const body = await get(target, path);
    whole.push(performance.now() - t);
    JSON.parse(body.toString());
    wholeParsed.push(performance.now() - t);
    t = performance.now();
    let token: string | undefined;
    let n = 0;
    do {
      const page = JSON.parse(
        (
          await get(
            target,
            `${path}?limit=500${
              token ? `&continue=${encodeURIComponent(token)}` : ''
            }`,
          )
        ).toString(),
      );
      n += page.items.length;
      token = page.metadata.continue;
    } while (token);
    paged.push(performance.now() - t);
    if (n !== count)
      throw new Error(`paging saw ${n} of ${count} Kustomizations`);
  }
  return {
    kustomizations: count,
    unpagedMs: { p50: percentile(whole, 50), p95: percentile(whole, 95) },
    unpagedWithParseMs: {
      p50: percentile(wholeParsed, 50),
      p95: percentile(wholeParsed, 95),
    },
    pagedLimit500Ms: { p50: percentile(paged, 50), p95: percentile(paged, 95) },
  };
}

/** Opens watches spread over clusters and kinds, holds them, and counts what arrives. */
async function holdWatches(
  targets: Target[],
  count: number,
  seconds: number,
): Promise<Record<string, unknown>> {
  const paths = [
    '/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations',
    '/apis/helm.toolkit.fluxcd.io/v2/helmreleases',
    '/apis/source.toolkit.fluxcd.io/v1/gitrepositories',
    '/api/v1/events',
  ];
  const stats = {
    opened: 0,
    events: 0,
    bookmarks: 0,
    errors: 0,
    endedEarly: 0,
  };
  const watchAgent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const requests: Array<ReturnType<typeof request>> = [];
  let stopping = false;
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const target = targets[i % targets.length];
      const path = paths[i % paths.length];
      const list = JSON.parse(
        (await get(target, `${path}?limit=1`)).toString(),
      );
      await new Promise<void>(opened => {
        const req = request(
          `${target.server}${path}?watch=true&allowWatchBookmarks=true&resourceVersion=${list.metadata.resourceVersion}`,
          {
            agent: watchAgent,
            headers: { Authorization: `Bearer ${target.token}` },
          },
          res => {
            if (res.statusCode !== 200) stats.errors++;
            stats.opened++;
            opened();
            let buffer = '';
            res.on('data', chunk => {
              buffer += chunk;
              let newline = buffer.indexOf('\n');
              while (newline >= 0) {
                const type = JSON.parse(buffer.slice(0, newline)).type;
                if (type === 'BOOKMARK') stats.bookmarks++;
                else if (type === 'ERROR') stats.errors++;
                else stats.events++;
                buffer = buffer.slice(newline + 1);
                newline = buffer.indexOf('\n');
              }
            });
            res.on('end', () => {
              if (!stopping) stats.endedEarly++;
            });
          },
        );
        req.on('error', () => {
          if (!stopping) stats.errors++;
          opened();
        });
        req.end();
        requests.push(req);
      });
    }),
  );
  await new Promise(r => setTimeout(r, seconds * 1000));
  stopping = true;
  for (const req of requests) req.destroy();
  return { watches: count, seconds, ...stats };
}

async function main(): Promise<void> {
  const size = flag('size', 'M');
  const watches = Number(flag('watches', '200'));
  const seconds = Number(flag('seconds', '15'));
  const rounds = Number(flag('rounds', '20'));
  const results: Record<string, unknown> = { node: process.version };

  const fleet = await startSim([
    '--size',
    size,
    '--seed',
    '1',
    '--churn',
    '20',
    '--bookmark-interval',
    '1000',
  ]);
  try {
    results.fleet = {
      size,
      ready: fleet.line,
      startMs: fleet.ms,
      ...rssMb(fleet.child.pid!),
    };
    results.listOneCluster = await listTimes(fleet.targets[0], rounds);
    results.watchesUnderChurn = {
      churnPerSecondPerCluster: 20,
      ...(await holdWatches(fleet.targets, watches, seconds)),
    };
    results.fleetAfter = rssMb(fleet.child.pid!);
  } finally {
    fleet.child.kill('SIGTERM');
    rmSync(fleet.dir, { recursive: true, force: true });
  }

  const big = await startSim([
    '--clusters',
    '1',
    '--services',
    '5000',
    '--seed',
    '1',
    '--churn',
    '0',
  ]);
  try {
    results.list5000 = {
      startMs: big.ms,
      ...(await listTimes(big.targets[0], rounds)),
    };
  } finally {
    big.child.kill('SIGTERM');
    rmSync(big.dir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  agent.destroy();
}

main().catch(error => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
