import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's Prometheus (`apt-get install prometheus`, as scripts/prometheus.sh installs it). */
export const PROMETHEUS_BINARY = process.env.PROMETHEUS_BINARY ?? '/usr/bin/prometheus';

/** A throw-away Prometheus of one test file. */
export interface TestPrometheus {
  url: string;
  /** The last lines it logged, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise(resolve => server.close(resolve));
  return port;
}

/**
 * Starts a Prometheus on a free loopback port with its own data folder, scraping the targets of a fleet-sim
 * targets file (`--prometheus-targets`, file_sd) every `scrapeSeconds`; resolves once it answers queries.
 */
export async function startPrometheus(targetsFile: string, scrapeSeconds = 1): Promise<TestPrometheus> {
  if (!existsSync(PROMETHEUS_BINARY)) {
    throw new Error(`${PROMETHEUS_BINARY} is absent: scripts/prometheus.sh install (apt-get install prometheus)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'flux-fleet-prometheus-'));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      `global: { scrape_interval: ${scrapeSeconds}s, scrape_timeout: ${scrapeSeconds}s }`,
      'scrape_configs:',
      '  - job_name: flux-controllers',
      '    file_sd_configs:',
      `      - files: ['${targetsFile}']`,
      `        refresh_interval: ${scrapeSeconds}s`,
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    PROMETHEUS_BINARY,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr!.on('data', chunk => {
    log = (log + chunk).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise(resolve => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const answer = await fetch(`${url}/-/ready`);
      if (answer.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`Prometheus did not become ready:\n${log}`);
    }
    await new Promise(r => setTimeout(r, 200));
  }
  return { url, log: () => log, stop };
}
