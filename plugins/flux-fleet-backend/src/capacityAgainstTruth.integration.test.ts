/**
 * The capacity routes against the simulator's own load model (its truth's `controllers`), through both sources of
 * measured figures: the Kubernetes API pod proxy, and a real Prometheus scraping the simulated pods' local ports.
 * Then the sharding plan of the over-capacity instance applied with the real kubectl (`KUBECTL`, default
 * /usr/bin/kubectl; over TLS so the admin user may write): its verdict becomes `ok`, and no group is split.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleetSim, type FleetSim } from '@flux-fleet/fleet-sim';
import type {
  CapacityReport,
  ControllerCapacity,
  ShardingPlan,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FleetBackend, startFleetBackend } from './__testUtils__/startFleetBackend';
import { intervalSchedulerFactory } from './__testUtils__/intervalScheduler';
import { PROMETHEUS_BINARY, startPrometheus, TestPrometheus } from './__testUtils__/startPrometheus';

// applying the plan's 140 kubectl commands takes over 10 minutes on the shared 2-core test machine
jest.setTimeout(1_500_000);

const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
// fluxFleet.capacity.scrapeIntervalSeconds allows 5 s at least; on a shared 2-core test machine a round of the
// demo's 41 controller pods takes longer than that, so the test collects every 10 s
const SCRAPE_SECONDS = 10;
// How long the instance may take to settle after the plan's last command. The new shards' figures follow the labels
// at once; the main kustomize-controller keeps the share of its backlog that belongs to the objects it still owns
// (at 140 % the queue grows by λ − c/E[S] ≈ 0.13 items a second: about 80 items after the simulator's 10 minutes
// of warm-up, more by the time the plan is applied; a third stays) and drains it at c/E[S] − λ ≈ 0.18 a second
// with every worker busy: up to about 4 minutes when the labels change at once. On a slow machine the labels take
// minutes to apply and the backlog drains meanwhile (ok 38 s and 142 s after the last command in two runs here).
// 300 s was not always enough under the whole of `make test` (2026-12-04: the main controller still 100 % busy
// when it ran out; the same tree passed alone and in the run before)
const SETTLE_SECONDS = 480;

type TruthController = ReturnType<FleetSim['truth']>['controllers'][number];

/** Every truth controller whose verdict or source differs, as one readable line each. */
function verdictMismatches(report: CapacityReport, truth: TruthController[]): string[] {
  const api = new Map<string, ControllerCapacity>();
  for (const i of report.items) {
    for (const c of i.controllers) api.set(`${c.cluster}/${c.instance}/${c.controller}`, c);
  }
  const lines: string[] = [];
  for (const t of truth) {
    const key = `${t.cluster}/${t.namespace}/${t.deployment}`;
    const c = api.get(key);
    api.delete(key);
    if (!c) {
      lines.push(`${key}: missing from /capacity (truth: ${t.verdict}, ρ ${t.utilisation.toFixed(2)})`);
    } else if (c.verdict !== t.verdict || c.source !== (t.replicas === 0 ? 'estimate' : 'metrics')) {
      // a Deployment scaled to 0 runs no pod: no metrics, its figures estimated
      const u = c.figures.utilisation;
      lines.push(
        `${key}: API ${c.verdict} from ${c.source}${c.estimateReason ? ` (${c.estimateReason})` : ''}, utilisation ${
          u ? `${u.value.toFixed(2)} ${u.source}` : 'unknown'
        }; truth ${t.verdict}, ρ ${t.utilisation.toFixed(2)}; reasons: ${c.reasons.map(r => r.text).join('; ')}`,
      );
    }
  }
  for (const key of api.keys()) lines.push(`${key}: in /capacity but not in the truth`);
  return lines;
}

/** Every controller measured after `since` (rates need two scrapes through the pod proxy); else says which not. */
async function measuredReport(fleet: FleetBackend, since: number): Promise<CapacityReport> {
  try {
    return await fleet.waitFor(
      'every controller measured after the given time',
      async () => {
        const report: CapacityReport = await fleet.get('/capacity');
        const all = report.items.flatMap(i => i.controllers);
        const measured = (c: ControllerCapacity) =>
          c.source === 'metrics' && c.measuredAt !== undefined && Date.parse(c.measuredAt) > since;
        return all.length > 0 && all.every(measured) ? report : undefined;
      },
      90_000,
    );
  } catch {
    // the comparison names every controller not measured, with why
    return fleet.get('/capacity');
  }
}

function exitCode(error: { code?: unknown } | null): number {
  if (!error) return 0;
  return typeof error.code === 'number' ? error.code : 1;
}

function clustersOf(sim: FleetSim, token: 'readOnlyToken' | 'adminToken' = 'readOnlyToken') {
  return sim.clusters.map(c => ({ name: c.name, url: c.server, caData: c.caData, serviceAccountToken: c[token] }));
}

describe('capacity verdicts against the simulator’s truth (fleet S seed 7, the demo)', () => {
  let sim: FleetSim;
  let home: string;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'flux-fleet-capacity-'));
    sim = await startFleetSim({
      size: 'S',
      seed: 7,
      port: 0,
      tls: true,
      reactionDelayMs: [50, 100],
      prometheusTargets: join(home, 'targets.json'),
    });
    sim.writeKubeconfig(join(home, 'kubeconfig'));
  });
  afterAll(async () => {
    await sim?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  describe('measured through a real Prometheus', () => {
    const required = process.env.FLUX_FLEET_REQUIRE_PROMETHEUS === '1';
    const present = existsSync(PROMETHEUS_BINARY);
    let prometheus: TestPrometheus | undefined;
    let fleet: FleetBackend | undefined;

    beforeAll(async () => {
      if (!present && !required) return;
      prometheus = await startPrometheus(join(home, 'targets.json'), 2);
      fleet = await startFleetBackend({
        runningSim: sim,
        features: [intervalSchedulerFactory],
        fluxFleet: {
          clusters: clustersOf(sim),
          watch: { requestTimeoutSeconds: 8, unreachableAfterSeconds: 60 },
          capacity: {
            scrapeIntervalSeconds: SCRAPE_SECONDS,
            windowSeconds: 20,
            podProxy: { enabled: false, timeoutSeconds: 8 },
            prometheus: { url: prometheus.url, clusterLabel: 'cluster' },
          },
        },
      });
    });
    afterAll(async () => {
      await fleet?.stop();
      await prometheus?.stop();
    });

    it('gives every truth controller its verdict from metrics (0 mismatches)', async () => {
      if (!prometheus || !fleet) {
        // eslint-disable-next-line no-console
        console.warn(
          `Prometheus test skipped: ${PROMETHEUS_BINARY} is absent (scripts/prometheus.sh install; FLUX_FLEET_REQUIRE_PROMETHEUS=1 makes this a failure)`,
        );
        return;
      }
      // the window needs 20 s of samples before rates cover it
      const report = await measuredReport(fleet, Date.now() + 20_000);
      const mismatches = verdictMismatches(report, sim.truth().controllers);
      expect(mismatches).toEqual([]);
      expect(report.items.flatMap(i => i.controllers)).toHaveLength(sim.truth().controllers.length);
    });
  });

  (existsSync(KUBECTL) ? describe : describe.skip)('measured through the pod proxy, then sharded with kubectl', () => {
    let fleet: FleetBackend;

    function kubectlShell(command: string, context: string) {
      return new Promise<{ code: number; stdout: string; stderr: string }>(resolve => {
        // the plan's commands are shell lines (quoted JSON patches): run them as a person pasting them would
        execFile(
          '/bin/sh',
          ['-c', command.replace(/^kubectl /, `"${KUBECTL}" --context ${context} `)],
          {
            env: { ...process.env, HOME: home, KUBECONFIG: join(home, 'kubeconfig') },
            timeout: 30_000,
            maxBuffer: 64 * 2 ** 20,
          },
          (error, stdout, stderr) => resolve({ code: exitCode(error), stdout, stderr }),
        );
      });
    }

    beforeAll(async () => {
      fleet = await startFleetBackend({
        runningSim: sim,
        features: [intervalSchedulerFactory],
        fluxFleet: {
          clusters: clustersOf(sim),
          // the shared test machine answers slowly: requests may take seconds
          watch: { requestTimeoutSeconds: 8, unreachableAfterSeconds: 60 },
          capacity: { scrapeIntervalSeconds: SCRAPE_SECONDS, podProxy: { timeoutSeconds: 8 } },
        },
      });
    });
    afterAll(async () => fleet?.stop());

    it('gives every truth controller its verdict from metrics (0 mismatches)', async () => {
      const report = await measuredReport(fleet, Date.now() + 1000);
      expect(verdictMismatches(report, sim.truth().controllers)).toEqual([]);
      expect(report.items.flatMap(i => i.controllers)).toHaveLength(sim.truth().controllers.length);
    });

    it("applies the over-capacity instance's plan with kubectl: verdict ok, every reason ok or a note, truth ok, no group split", async () => {
      // measured (it does not lean on the test before it having waited)
      const before = await measuredReport(fleet, Date.now());
      const over = before.items.filter(i => i.verdict === 'over-capacity');
      expect(over.map(i => `${i.cluster}/${i.instance}`)).toEqual(['staging-us-east-1/flux-system']);
      const { cluster, instance } = over[0];
      // two shards besides main: the default plan (the fewest shards under 70 %) puts both halves of a 140 %
      // controller at 0.69 predicted, which the simulator's load model measures at 70 %, the near threshold
      const plan: ShardingPlan = await fleet.get(
        `/capacity/plan?cluster=${cluster}&instance=${instance}&shards=2`,
      );
      expect(plan.movedGroups).toBeGreaterThan(0);
      // The shard controllers. For a bootstrap install the plan gives kustomize files for the bootstrap repository;
      // Flux would build them into a copy of each sharded controller per new shard selecting its shard key, and
      // give the main controllers `!sharding.fluxcd.io/key`: the same Deployments, applied with kubectl here.
      expect(plan.controllers?.kind).toBe('bootstrap');
      const newShards = plan.shards.filter(sh => !sh.existing).map(sh => sh.name);
      const mainPatched: Array<{ component: string; code: number }> = [];
      for (const component of ['source-controller', 'kustomize-controller', 'helm-controller']) {
        const got = await kubectlShell(`kubectl get deployment -n ${instance} ${component} -o json`, cluster);
        expect(got.code).toBe(0);
        const main = JSON.parse(got.stdout);
        const container = main.spec.template.spec.containers[0];
        const args = (container.args as string[]).filter(a => !a.startsWith('--watch-label-selector'));
        for (const shard of newShards) {
          const name = `${component}-${shard}`;
          const copy = JSON.parse(got.stdout);
          copy.metadata = { name, namespace: instance, labels: main.metadata.labels };
          delete copy.status;
          copy.spec.selector.matchLabels = { app: name };
          copy.spec.template.metadata.labels = { app: name };
          copy.spec.template.spec.containers[0].args = [...args, `--watch-label-selector=${plan.shardKey}=${shard}`];
          const file = join(home, `${name}.json`);
          writeFileSync(file, JSON.stringify(copy));
          const applied = await kubectlShell(`kubectl apply -f ${file}`, cluster);
          expect({ name, code: applied.code, stderr: applied.stderr }).toEqual({ name, code: 0, stderr: '' });
        }
        if (!container.args.some((a: string) => a.startsWith('--watch-label-selector'))) {
          container.args = [...args, `--watch-label-selector=!${plan.shardKey}`];
          delete main.status;
          const file = join(home, `${component}-main.json`);
          writeFileSync(file, JSON.stringify(main));
          mainPatched.push({ component, code: (await kubectlShell(`kubectl apply -f ${file}`, cluster)).code });
        }
      }
      expect(mainPatched.filter(m => m.code !== 0)).toEqual([]);
      const failed: Array<{ command: string; code: number; stderr: string }> = [];
      for (const command of plan.commands.filter(c => c.startsWith('kubectl '))) {
        // the simulator does not report Available on a Deployment applied at run time (kubectl wait would hang):
        // wait instead until each shard controller runs a pod, which is what Available stands for
        const waitFor = command.startsWith('kubectl wait ') ? command.match(/deployment\/[^\s]+/g) ?? [] : [];
        for (const deployment of waitFor) {
          await fleet.waitFor(`a running pod of ${deployment}`, async () => {
            const pods = await kubectlShell(
              `kubectl get pods -n ${instance} -l app=${deployment.slice('deployment/'.length)} --field-selector=status.phase=Running -o name`,
              cluster,
            );
            return pods.stdout.trim() !== '' ? true : undefined;
          });
        }
        const run = waitFor.length > 0 ? undefined : await kubectlShell(command, cluster);
        if (run && (run.code !== 0 || run.stderr !== '')) failed.push({ command, code: run.code, stderr: run.stderr });
      }
      expect(failed).toEqual([]);
      // Every group's objects share one shard, as the simulator (not the plugin) places them. Generated HelmCharts
      // take their label from their HelmRelease's spec.chart.metadata.labels, which the simulator does not copy onto
      // them: their shard is checked through the HelmRelease. A contested object (the truth's owner `contested`,
      // shard null: a tenant's own kustomize-controller selects it by its tenant label as well as the main one,
      // flux2#4500) stays contested whatever its shard key, since the tenant controller does not select by it: its
      // shard is the shard key the cluster holds on it, read with kubectl. Any other object is named.
      const truthOf = new Map(
        sim
          .truth()
          .objects.filter(o => o.cluster === cluster)
          .map(o => [`${o.namespace}/${o.kind}/${o.name}`, o]),
      );
      const undescribed: string[] = [];
      const shardOfObject = async (group: string, o: { namespace: string; kind: string; name: string }) => {
        const key = `${o.namespace}/${o.kind}/${o.name}`;
        const t = truthOf.get(key);
        if (t?.shard) return t.shard;
        if (t?.owner === 'contested') {
          const got = await kubectlShell(
            `kubectl get ${o.kind.toLowerCase()} -n ${o.namespace} ${o.name} -o jsonpath='{.metadata.labels.${plan.shardKey.replace(/\./g, '\\.')}}'`,
            cluster,
          );
          return got.code === 0 ? got.stdout.trim() || 'main' : `unreadable (${got.stderr.trim()})`;
        }
        undescribed.push(`${key} in the group of ${group}: truth ${t ? `${t.owner}, shard ${t.shard}` : 'does not describe it'}`);
        return undefined;
      };
      const split: Array<{ group: string; shards: string[] }> = [];
      for (const g of plan.groups) {
        const shards = new Set<string>();
        for (const o of g.objects.filter(x => x.kind !== 'HelmChart')) {
          const shard = await shardOfObject(g.name, o);
          if (shard) shards.add(shard);
        }
        split.push({ group: g.name, shards: [...shards] });
      }
      expect(undescribed).toEqual([]);
      expect(split.filter(g => g.shards.length !== 1)).toEqual([]);
      const applied = Date.now();
      let last = '';
      // Utilisation on the new shards follows the labels at once. The main controller keeps the share of its
      // backlog (10 minutes and more at 140 %) that belongs to the objects it still owns, and drains it at its
      // spare capacity c/E[S] − λ with every worker busy, as a real work queue does: its verdict is ok once that
      // backlog is gone and one window of scrapes has seen it gone.
      const after = await fleet
        .waitFor(
          `${cluster}/${instance} ok, every reason ok or a note`,
          async () => {
            const report: CapacityReport = await fleet.get(`/capacity?cluster=${cluster}&instance=${instance}`);
            const i = report.items[0];
            last = `${i.answer}\n${i.controllers
              .map(c => `${c.controller} ${c.verdict} ${c.source} ${c.measuredAt}: ${c.reasons.map(r => r.text).join('; ')}`)
              .join('\n')}`;
            const settled =
              i.verdict === 'ok' &&
              i.controllers.every(
                c =>
                  c.measuredAt &&
                  Date.parse(c.measuredAt) > applied + SCRAPE_SECONDS * 1000 &&
                  c.reasons.every(r => r.effect === 'ok' || r.effect === 'note'),
              );
            return settled ? i : undefined;
          },
          SETTLE_SECONDS * 1000,
        )
        .catch(error => {
          throw new Error(`${error}; last answer: ${last}`);
        });
      // eslint-disable-next-line no-console
      console.info(`${cluster}/${instance} ok ${Math.round((Date.now() - applied) / 1000)} s after the plan was applied`);
      expect(after.source).toBe('metrics');
      expect(after.verdict).toBe('ok');
      // the simulator's own load model agrees: every controller of the instance ok now
      expect(
        sim
          .truth()
          .controllers.filter(t => t.cluster === cluster && t.namespace === instance && t.verdict !== 'ok')
          .map(t => `${t.deployment} ${t.verdict}`),
      ).toEqual([]);
    });
  });
});
