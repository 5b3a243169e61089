/**
 * A real Prometheus (Debian's `/usr/bin/prometheus`; required when `FLUX_FLEET_REQUIRE_PROMETHEUS=1`, as
 * `make test` sets it) scrapes the simulated controller pods from the targets file the simulator writes, and
 * answers PromQL about every controller of the fleet. The test starts its own Prometheus (scraping every
 * second, so that it needs seconds, not minutes) on a free port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './__testUtils__/fleetClients';
import { startFleetSim, type FleetSim } from './fleetSim';

const PROMETHEUS = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus';
const required = process.env.FLUX_FLEET_REQUIRE_PROMETHEUS === '1';
const present = existsSync(PROMETHEUS) || required;

jest.setTimeout(120_000);

function freePort(): Promise<number> {
  return new Promise(resolve => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address() as { port: number };
      probe.close(() => resolve(address.port));
    });
  });
}

async function query(url: string, promql: string): Promise<any[]> {
  const answer = await (
    await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`)
  ).json();
  if (answer.status !== 'success')
    throw new Error(`${promql}: ${JSON.stringify(answer)}`);
  return answer.data.result;
}

(present ? describe : describe.skip)(
  present
    ? 'a real Prometheus scraping the simulated controllers'
    : `a real Prometheus scraping the simulated controllers (skipped: no ${PROMETHEUS}; apt-get install prometheus, or set FLUX_FLEET_REQUIRE_PROMETHEUS=1 to fail instead)`,
  () => {
    let sim: FleetSim;
    let home: string;
    let prometheus: ChildProcess | undefined;
    let url: string;

    beforeAll(async () => {
      if (!existsSync(PROMETHEUS))
        throw new Error(
          `FLUX_FLEET_REQUIRE_PROMETHEUS=1 but there is no ${PROMETHEUS} (scripts/prometheus.sh install)`,
        );
      home = mkdtempSync(join(tmpdir(), 'fleet-sim-prometheus-'));
      const targets = join(home, 'targets.json');
      sim = await startFleetSim({
        clusters: 2,
        services: 40,
        seed: 1,
        prometheusTargets: targets,
      });
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      writeFileSync(
        join(home, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          '  scrape_timeout: 900ms',
          'scrape_configs:',
          '  - job_name: flux-controllers',
          '    file_sd_configs:',
          `      - files: ['${targets}']`,
          '        refresh_interval: 1s',
          '',
        ].join('\n'),
      );
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${join(home, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(home, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: 'ignore' },
      );
      await eventually(async () => {
        const ready = await fetch(`${url}/-/ready`).catch(() => undefined);
        return ready?.status === 200 ? true : undefined;
      }, 30_000);
    });
    afterAll(async () => {
      prometheus?.kill('SIGTERM');
      await sim?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it('answers rate(controller_runtime_reconcile_total[1m]) for every controller of the fleet', async () => {
      const wanted = sim
        .truth()
        .controllers.filter(c => c.replicas > 0)
        .map(c => `${c.cluster}/${c.namespace}/${c.deployment}`);
      expect(wanted.length).toBeGreaterThan(10);
      const missing = await eventually(async () => {
        const result = await query(
          url,
          'sum by (cluster, namespace, deployment) (rate(controller_runtime_reconcile_total[1m]))',
        );
        const seen = new Set(
          result.map(
            r =>
              `${r.metric.cluster}/${r.metric.namespace}/${r.metric.deployment}`,
          ),
        );
        const left = wanted.filter(k => !seen.has(k));
        return left.length === 0 ? left : undefined;
      }, 60_000);
      expect(missing).toEqual([]);
    });

    it('shows the over-capacity controller: every worker busy and its queue growing', async () => {
      const over = sim
        .truth()
        .controllers.find(c => c.verdict === 'over-capacity')!;
      const selector = `cluster="${over.cluster}",namespace="${over.namespace}",deployment="${over.deployment}"`;
      const [busy] = await query(
        url,
        `sum(controller_runtime_active_workers{${selector}}) / sum(controller_runtime_max_concurrent_reconciles{${selector}})`,
      );
      expect(Number(busy.value[1])).toBe(1);
      const growth = await eventually(async () => {
        const [row] = await query(
          url,
          `deriv(workqueue_depth{${selector}}[30s])`,
        );
        return row && Number(row.value[1]) > 0
          ? Number(row.value[1])
          : undefined;
      }, 30_000);
      expect(growth).toBeGreaterThan(0);
    });
  },
);
