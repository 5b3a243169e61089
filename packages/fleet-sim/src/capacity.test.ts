/**
 * The simulated controllers' metrics as a user reads them: pods and the pod proxy with the real kubectl
 * (`KUBECTL`, default /usr/bin/kubectl; over TLS so that the admin and read-only users differ), the local scrape
 * ports with their faults (capacityPrometheus.test.ts: a real Prometheus scraping them).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  parseExposition,
  value,
  type Sample,
} from './__testUtils__/exposition';
import { eventually } from './__testUtils__/fleetClients';
import { startFleetSim, type FleetSim } from './fleetSim';

const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const hasKubectl = existsSync(KUBECTL);

const FAMILIES = [
  'controller_runtime_reconcile_total',
  'controller_runtime_reconcile_errors_total',
  'controller_runtime_reconcile_time_seconds_bucket',
  'controller_runtime_reconcile_time_seconds_sum',
  'controller_runtime_reconcile_time_seconds_count',
  'controller_runtime_max_concurrent_reconciles',
  'controller_runtime_active_workers',
  'workqueue_depth',
  'workqueue_adds_total',
  'workqueue_queue_duration_seconds_bucket',
  'workqueue_queue_duration_seconds_sum',
  'workqueue_queue_duration_seconds_count',
  'workqueue_work_duration_seconds_bucket',
  'workqueue_unfinished_work_seconds',
  'workqueue_longest_running_processor_seconds',
  'rest_client_requests_total',
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'gotk_reconcile_duration_seconds_bucket',
  'gotk_reconcile_duration_seconds_sum',
  'gotk_reconcile_duration_seconds_count',
];

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

jest.setTimeout(120_000);

(hasKubectl ? describe : describe.skip)(
  hasKubectl
    ? 'simulated controller metrics'
    : `simulated controller metrics (skipped: no kubectl at ${KUBECTL}; set KUBECTL to run)`,
  () => {
    let sim: FleetSim;
    let home: string;
    // The second archetype: its kustomize-controller is over capacity, its helm-controller near it.
    let cluster: string;

    function kubectl(
      args: string[],
      context = cluster,
    ): Promise<{ code: number; stdout: string; stderr: string }> {
      return new Promise(resolve => {
        execFile(
          KUBECTL,
          ['--context', context, ...args],
          {
            env: {
              ...process.env,
              HOME: home,
              KUBECONFIG: join(home, 'kubeconfig'),
            },
            timeout: 20_000,
            maxBuffer: 64 * 2 ** 20,
          },
          (error, stdout, stderr) => {
            let code = 0;
            if (error) code = typeof error.code === 'number' ? error.code : 1;
            resolve({ code, stdout, stderr });
          },
        );
      });
    }

    async function podOf(deployment: string): Promise<string> {
      const { stdout } = await kubectl([
        'get',
        'pods',
        '-n',
        'flux-system',
        '-l',
        `app=${deployment}`,
        '-o',
        'jsonpath={.items[*].metadata.name}',
      ]);
      return stdout.trim();
    }

    async function scrape(pod: string, port = '8080'): Promise<Sample[]> {
      const { code, stdout, stderr } = await kubectl([
        'get',
        '--raw',
        `/api/v1/namespaces/flux-system/pods/${pod}:${port}/proxy/metrics`,
      ]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      return parseExposition(stdout);
    }

    function target(deployment: string): string {
      const group = sim
        .scrapeTargets()
        .find(
          g =>
            g.labels.cluster === cluster &&
            g.labels.namespace === 'flux-system' &&
            g.labels.deployment === deployment,
        );
      if (!group) throw new Error(`no scrape target for ${deployment}`);
      return `http://${group.targets[0]}/metrics`;
    }

    function truthOf(deployment: string) {
      return sim
        .truth()
        .controllers.find(
          c =>
            c.cluster === cluster &&
            c.namespace === 'flux-system' &&
            c.deployment === deployment,
        )!;
    }

    beforeAll(async () => {
      home = mkdtempSync(join(tmpdir(), 'fleet-sim-capacity-'));
      sim = await startFleetSim({
        clusters: 2,
        services: 40,
        seed: 1,
        tls: true,
        reactionDelayMs: [50, 100],
        prometheusTargets: join(home, 'targets.json'),
      });
      sim.writeKubeconfig(join(home, 'kubeconfig'));
      cluster = sim.clusters[1].name;
    });
    afterAll(async () => {
      await sim?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it('lists a running pod of every controller Deployment, owned by its ReplicaSet', async () => {
      const { stdout } = await kubectl([
        'get',
        'pods',
        '-n',
        'flux-system',
        '-o',
        'json',
      ]);
      const pods = JSON.parse(stdout).items;
      const controllers = sim
        .truth()
        .controllers.filter(
          c => c.cluster === cluster && c.namespace === 'flux-system',
        );
      expect(pods).toHaveLength(controllers.length);
      for (const c of controllers) {
        const pod = pods.find(
          (p: any) => p.metadata.labels.app === c.deployment,
        );
        expect(pod.metadata.name).toMatch(
          new RegExp(`^${c.deployment}-[0-9a-f]{10}-[a-z0-9]{5}$`),
        );
        expect(pod.metadata.ownerReferences[0]).toMatchObject({
          kind: 'ReplicaSet',
          name: `${c.deployment}-${pod.metadata.labels['pod-template-hash']}`,
        });
        expect(pod.spec.containers[0].name).toBe('manager');
        expect(pod.spec.containers[0].ports[0]).toMatchObject({
          name: 'http-prom',
          containerPort: 8080,
        });
        expect(pod.status.phase).toBe('Running');
      }
      const running = await kubectl([
        'get',
        'pods',
        '-n',
        'flux-system',
        '--field-selector',
        'status.phase=Running',
        '-o',
        'name',
      ]);
      expect(running.stdout.trim().split('\n')).toHaveLength(
        controllers.length,
      );
      const table = await kubectl(['get', 'pods', '-A']);
      expect(table.stdout).toMatch(/kustomize-controller-\S+\s+1\/1\s+Running/);
    });

    it('serves every metric family through the pod proxy, and counters grow', async () => {
      const pod = await podOf('kustomize-controller');
      const first = await scrape(pod);
      const names = new Set(first.map(s => s.name));
      expect(FAMILIES.filter(f => !names.has(f))).toEqual([]);
      expect(
        value(first, 'controller_runtime_max_concurrent_reconciles', {
          controller: 'kustomization',
        }),
      ).toBe(4);
      // One histogram per object the controller reconciles, each once: the answer is streamed a few dozen
      // objects at a time, and no object is lost or repeated at the seams.
      const perObject = first.filter(
        s => s.name === 'gotk_reconcile_duration_seconds_count',
      );
      const objects = new Set(
        perObject.map(
          s => `${s.labels.namespace}/${s.labels.kind}/${s.labels.name}`,
        ),
      );
      expect(objects.size).toBe(perObject.length);
      expect(perObject.length).toBe(truthOf('kustomize-controller').objectCount);
      expect(perObject.length).toBeGreaterThan(40); // more than one chunk
      // The same answer by port name and by the default port.
      expect((await scrape(pod, 'http-prom')).length).toBeGreaterThan(100);
      await sleep(1500);
      const second = await scrape(pod);
      for (const name of [
        'controller_runtime_reconcile_time_seconds_sum',
        'process_cpu_seconds_total',
        'workqueue_queue_duration_seconds_sum',
      ])
        expect(value(second, name)).toBeGreaterThan(value(first, name));
      expect(
        value(second, 'controller_runtime_reconcile_total'),
      ).toBeGreaterThanOrEqual(
        value(first, 'controller_runtime_reconcile_total'),
      );
      // Over capacity: the queue grows between reads, every worker is busy.
      expect(value(second, 'workqueue_depth')).toBeGreaterThan(
        value(first, 'workqueue_depth'),
      );
      expect(value(second, 'controller_runtime_active_workers')).toBe(4);
    });

    it('answers 403 on pods/proxy to the read-only user when the cluster forbids it', async () => {
      const pod = await podOf('helm-controller');
      const path = `/api/v1/namespaces/flux-system/pods/${pod}/proxy/metrics`;
      const readOnly = `${cluster}-readonly`;
      expect((await kubectl(['get', '--raw', path], readOnly)).code).toBe(0);
      await sim.setFault(cluster, { podsProxyForbidden: true });
      const denied = await kubectl(['get', '--raw', path], readOnly);
      expect(denied.stderr).toMatch(/Forbidden|forbidden/);
      expect(denied.stderr).toContain('pods/proxy');
      // What a client asks before it tries (`auth can-i` names a subresource with --subresource).
      const canI = await kubectl(
        [
          'auth',
          'can-i',
          'get',
          'pods',
          '--subresource=proxy',
          '-n',
          'flux-system',
        ],
        readOnly,
      );
      expect(canI.stdout.trim()).toMatch(/^no\b/);

      expect((await kubectl(['get', '--raw', path])).code).toBe(0);
      await sim.setFault(cluster, { podsProxyForbidden: false });
    });

    it('serves the injected metrics faults on the local scrape port', async () => {
      const pod = (name: string) =>
        sim
          .scrapeTargets()
          .find(
            g => g.labels.cluster === cluster && g.labels.deployment === name,
          )!.labels.pod;
      const source = target('source-controller');
      const helm = target('helm-controller');
      const notification = target('notification-controller');
      await sim.setFault(cluster, {
        metricsDelayMs: 400,
        podMetrics: {
          [pod('source-controller')]: 'garbage',
          [pod('helm-controller')]: 'nan',
          [pod('notification-controller')]: 'missing',
        },
      });
      const garbage = await (await fetch(source)).text();
      expect(() => parseExposition(garbage)).toThrow(/not a sample/);
      const nan = await (await fetch(helm)).text();
      expect(nan).toMatch(/^process_resident_memory_bytes NaN$/m);
      expect(nan).toMatch(/^workqueue_depth\{.*\} \+Inf$/m);
      const missing = parseExposition(await (await fetch(notification)).text());
      expect(
        missing.some(
          s => s.name === 'controller_runtime_max_concurrent_reconciles',
        ),
      ).toBe(false);
      expect(
        missing.some(s => s.name === 'controller_runtime_reconcile_total'),
      ).toBe(true);

      await sim.setFault(cluster, {
        podMetrics: {
          [pod('source-controller')]: 'hang',
          [pod('helm-controller')]: 'slow',
          [pod('notification-controller')]: 'huge',
        },
      });
      await expect(
        fetch(source, { signal: AbortSignal.timeout(300) }),
      ).rejects.toThrow();
      await expect(
        fetch(helm, { signal: AbortSignal.timeout(50) }),
      ).rejects.toThrow();
      expect((await fetch(helm)).status).toBe(200);
      const huge = await (await fetch(notification)).arrayBuffer();
      expect(huge.byteLength).toBeGreaterThanOrEqual(64 * 2 ** 20);

      // A counter reset: the process's counters start again from zero.
      const kustomize = target('kustomize-controller');
      const before = parseExposition(await (await fetch(kustomize)).text());
      await sim.setFault(cluster, {
        podMetrics: {
          [pod('kustomize-controller')]: 'reset',
          [pod('source-controller')]: null,
          [pod('helm-controller')]: null,
          [pod('notification-controller')]: null,
        },
      });
      const after = parseExposition(await (await fetch(kustomize)).text());
      expect(value(after, 'workqueue_adds_total')).toBeLessThan(
        value(before, 'workqueue_adds_total'),
      );
      expect(
        parseExposition(await (await fetch(source)).text()).length,
      ).toBeGreaterThan(100);
    });

    it("counts the API throttling of the cluster in the controllers' rest_client_requests_total", async () => {
      const urls = sim
        .scrapeTargets()
        .filter(g => g.labels.cluster === cluster)
        .map(g => `http://${g.targets[0]}/metrics`);
      const throttled = async () => {
        let sum = 0;
        for (const url of urls)
          sum += value(
            parseExposition(await (await fetch(url)).text()),
            'rest_client_requests_total',
            { code: '429' },
          );
        return sum;
      };
      expect(await throttled()).toBe(0);
      await sim.setFault(cluster, { throttleRatio: 0.5 });
      await sleep(3000);
      await sim.setFault(cluster, { throttleRatio: 0 });
      expect(await throttled()).toBeGreaterThan(0);
    });

    it('lowers the modelled utilisation when --concurrent is raised with kubectl patch, at the next read', async () => {
      expect(truthOf('kustomize-controller')).toMatchObject({
        concurrent: 4,
        verdict: 'over-capacity',
      });
      expect(truthOf('kustomize-controller').utilisation).toBeCloseTo(1.4, 5);
      const patched = await kubectl([
        '-n',
        'flux-system',
        'patch',
        'deployment',
        'kustomize-controller',
        '--type=json',
        '-p',
        '[{"op":"add","path":"/spec/template/spec/containers/0/args/-","value":"--concurrent=16"}]',
      ]);
      expect(patched.stderr).toBe('');
      expect(truthOf('kustomize-controller')).toMatchObject({
        concurrent: 16,
        verdict: 'ok',
      });
      expect(truthOf('kustomize-controller').utilisation).toBeCloseTo(0.35, 5);
      // The Deployment rolled: a new pod, whose metrics say so.
      const pod = await podOf('kustomize-controller');
      const samples = await scrape(pod);
      const c = value(samples, 'controller_runtime_max_concurrent_reconciles');
      const busy = value(samples, 'controller_runtime_active_workers');
      expect(c).toBe(16);
      expect(busy / c).toBeCloseTo(0.35, 5);
      await eventually(() =>
        sim.scrapeTargets().some(g => g.labels.pod === pod) ? true : undefined,
      );
    });

    it('moves load to a new shard applied with kubectl: labels plus the shard controller', async () => {
      const before = truthOf('helm-controller');
      const { stdout } = await kubectl([
        'get',
        'deployment',
        '-n',
        'flux-system',
        'helm-controller',
        '-o',
        'json',
      ]);
      const shard = JSON.parse(stdout);
      const name = 'helm-controller-shard9';
      shard.metadata = {
        name,
        namespace: 'flux-system',
        labels: shard.metadata.labels,
        annotations: { 'sharding.fluxcd.io/role': 'shard' },
      };
      delete shard.status;
      shard.spec.selector.matchLabels = { app: name };
      shard.spec.template.metadata.labels = { app: name };
      const container = shard.spec.template.spec.containers[0];
      container.args = [
        ...container.args.filter(
          (a: string) => !a.startsWith('--watch-label-selector'),
        ),
        '--watch-label-selector=sharding.fluxcd.io/key=shard9',
      ];
      writeFileSync(join(home, 'shard9.json'), JSON.stringify(shard));
      const applied = await kubectl(['apply', '-f', join(home, 'shard9.json')]);
      expect(applied.stderr).toBe('');
      // The HelmReleases of one team namespace move to the new shard.
      const moved = sim
        .truth()
        .objects.filter(
          o =>
            o.cluster === cluster &&
            o.kind === 'HelmRelease' &&
            o.instance === 'flux-system' &&
            o.shard === 'main',
        );
      const namespace = moved[0].namespace;
      const count = moved.filter(o => o.namespace === namespace).length;
      const labelled = await kubectl([
        'label',
        'helmreleases',
        '-n',
        namespace,
        '--all',
        'sharding.fluxcd.io/key=shard9',
      ]);
      expect(labelled.code).toBe(0);
      const after = truthOf('helm-controller');
      const added = truthOf(name);
      expect(after.objectCount).toBe(before.objectCount - count);
      expect(added.objectCount).toBe(count);
      expect(after.utilisation).toBeLessThan(before.utilisation);
      // The shard's pod serves its objects' series at once.
      const samples = await scrape(await podOf(name));
      expect(
        samples.filter(
          s =>
            s.name === 'gotk_reconcile_duration_seconds_count' &&
            s.labels.namespace === namespace,
        ),
      ).toHaveLength(count);
      expect(
        value(samples, 'controller_runtime_active_workers'),
      ).toBeGreaterThan(0);
    });
  },
);
