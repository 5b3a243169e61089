/**
 * Drives the simulator with the real kubectl (`KUBECTL`, default /usr/bin/kubectl), over TLS: client-go never
 * sends credentials over plain HTTP (kubernetes/kubectl#744), so only TLS shows admin and read-only users apart.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './__testUtils__/fleetClients';
import { startFleetSim, type FleetSim } from './fleetSim';

const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const present = existsSync(KUBECTL);

(present ? describe : describe.skip)(
  present
    ? 'kubectl against a simulated fleet'
    : `kubectl against a simulated fleet (skipped: no kubectl at ${KUBECTL}; set KUBECTL to run)`,
  () => {
    let sim: FleetSim;
    let home: string;
    let cluster: string;

    function kubectl(
      args: string[],
      input?: string,
    ): Promise<{ code: number; stdout: string; stderr: string }> {
      return new Promise(resolve => {
        const child = execFile(
          KUBECTL,
          ['--context', cluster, ...args],
          {
            env: {
              ...process.env,
              HOME: home,
              KUBECONFIG: join(home, 'kubeconfig'),
            },
            timeout: 20_000,
          },
          (error, stdout, stderr) => {
            let code = 0;
            if (error) code = typeof error.code === 'number' ? error.code : 1;
            resolve({ code, stdout, stderr });
          },
        );
        if (input !== undefined) child.stdin!.end(input);
      });
    }

    beforeAll(async () => {
      sim = await startFleetSim({
        clusters: 2,
        services: 40,
        seed: 9,
        tls: true,
        reactionDelayMs: [100, 200],
      });
      home = mkdtempSync(join(tmpdir(), 'fleet-sim-kubectl-'));
      sim.writeKubeconfig(join(home, 'kubeconfig'));
      cluster = sim.clusters[0].name;
    });
    afterAll(async () => {
      await sim?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it('gets every Flux kind across namespaces, as many as the truth holds', async () => {
      const truth = sim.truth().objects.filter(o => o.cluster === cluster);
      const kinds: Array<[string, string]> = [
        ['gitrepositories', 'GitRepository'],
        ['ocirepositories', 'OCIRepository'],
        ['helmrepositories', 'HelmRepository'],
        ['helmcharts', 'HelmChart'],
        ['buckets', 'Bucket'],
        ['kustomizations', 'Kustomization'],
        ['helmreleases', 'HelmRelease'],
        ['alerts', 'Alert'],
        ['providers', 'Provider'],
        ['receivers', 'Receiver'],
        ['imagerepositories', 'ImageRepository'],
        ['imagepolicies', 'ImagePolicy'],
        ['imageupdateautomations', 'ImageUpdateAutomation'],
        ['externalartifacts', 'ExternalArtifact'],
        ['artifactgenerators', 'ArtifactGenerator'],
        ['fluxinstances', 'FluxInstance'],
        ['fluxreports', 'FluxReport'],
        ['resourcesets', 'ResourceSet'],
        ['resourcesetinputproviders', 'ResourceSetInputProvider'],
      ];
      for (const [resource, kind] of kinds) {
        const result = await kubectl(['get', resource, '-A', '--no-headers']);
        expect([resource, result.code, result.stderr]).toEqual([
          resource,
          0,
          result.code === 0 && result.stdout === ''
            ? 'No resources found\n'
            : '',
        ]);
        const rows = result.stdout.split('\n').filter(Boolean).length;
        expect([resource, rows]).toEqual([
          resource,
          truth.filter(o => o.kind === kind).length,
        ]);
      }
      const table = await kubectl(['get', 'kustomizations', '-n', 'team-shop']);
      expect(table.stdout.split('\n')[0].split(/\s+/)).toEqual([
        'NAME',
        'AGE',
        'READY',
        'STATUS',
      ]);
      // 19 kubectl runs: on a loaded machine they take longer than Jest's default 5 s.
    }, 60_000);

    it('prints -o json at the preferred version', async () => {
      const result = await kubectl(['get', 'helmreleases', '-A', '-o', 'json']);
      const list = JSON.parse(result.stdout);
      expect(list.items.length).toBe(
        sim
          .truth()
          .objects.filter(
            o => o.cluster === cluster && o.kind === 'HelmRelease',
          ).length,
      );
      expect(new Set(list.items.map((i: any) => i.apiVersion))).toEqual(
        new Set(['helm.toolkit.fluxcd.io/v2']),
      );
    });

    it('sees a change with --watch', async () => {
      const child = spawn(
        KUBECTL,
        [
          '--context',
          cluster,
          'get',
          'kustomization',
          '-n',
          'team-shop',
          'checkout',
          '--watch',
          '-o',
          'name',
        ],
        {
          env: {
            ...process.env,
            HOME: home,
            KUBECONFIG: join(home, 'kubeconfig'),
          },
        },
      );
      let output = '';
      child.stdout.on('data', chunk => {
        output += chunk;
      });
      try {
        await eventually(
          () => (output.includes('checkout') ? true : undefined),
          10_000,
        );
        const lines = output.split('\n').filter(Boolean).length;
        await kubectl([
          'label',
          'kustomization',
          '-n',
          'team-shop',
          'checkout',
          'watched=yes',
        ]);
        await eventually(
          () =>
            output.split('\n').filter(Boolean).length > lines
              ? true
              : undefined,
          10_000,
        );
        expect(output).toContain(
          'kustomization.kustomize.toolkit.fluxcd.io/checkout',
        );
      } finally {
        child.kill();
      }
    });

    it('annotates with a reconcile request that the simulated controller handles', async () => {
      const token = new Date().toISOString().replace('Z', '123456Z');
      const annotated = await kubectl([
        'annotate',
        'kustomization',
        '-n',
        'team-shop',
        'checkout',
        `reconcile.fluxcd.io/requestedAt=${token}`,
        '--overwrite',
      ]);
      expect(annotated.stdout).toContain('annotated');
      await eventually(async () => {
        const handled = await kubectl([
          'get',
          'kustomization',
          '-n',
          'team-shop',
          'checkout',
          '-o',
          'jsonpath={.status.lastHandledReconcileAt}',
        ]);
        return handled.stdout === token ? true : undefined;
      }, 5000);
    });

    it('patches with --type merge and --subresource status', async () => {
      const suspend = await kubectl([
        'patch',
        'kustomization',
        '-n',
        'team-shop',
        'checkout',
        '--type',
        'merge',
        '-p',
        '{"spec":{"suspend":true}}',
      ]);
      expect(suspend.stdout).toContain('patched');
      expect(
        sim
          .truth()
          .objects.find(
            o =>
              o.cluster === cluster &&
              o.kind === 'Kustomization' &&
              o.name === 'checkout',
          )!.state,
      ).toBe('suspended');
      const status = await kubectl([
        'patch',
        'kustomization',
        '-n',
        'team-shop',
        'checkout',
        '--subresource',
        'status',
        '--type',
        'merge',
        '-p',
        '{"status":{"conditions":[{"type":"Ready","status":"False","reason":"HealthCheckFailed","message":"timeout","lastTransitionTime":"2026-11-30T10:00:00Z"}]}}',
      ]);
      expect([status.code, status.stderr]).toEqual([0, '']);
      const ready = await kubectl([
        'get',
        'kustomization',
        '-n',
        'team-shop',
        'checkout',
        '-o',
        'jsonpath={.status.conditions[0].reason}/{.spec.suspend}',
      ]);
      expect(ready.stdout).toBe('HealthCheckFailed/true');
    });

    it('applies a new Kustomization from a file (client-side apply), then finds it unchanged', async () => {
      const file = join(home, 'new.yaml');
      writeFileSync(
        file,
        [
          'apiVersion: kustomize.toolkit.fluxcd.io/v1',
          'kind: Kustomization',
          'metadata:',
          '  name: applied',
          '  namespace: team-shop',
          'spec:',
          '  interval: 10m',
          '  path: ./apps/applied',
          '  prune: true',
          '  sourceRef:',
          '    kind: GitRepository',
          '    name: shop-apps',
          '',
        ].join('\n'),
      );
      const created = await kubectl(['apply', '-f', file]);
      expect([created.code, created.stdout.trim()]).toEqual([
        0,
        'kustomization.kustomize.toolkit.fluxcd.io/applied created',
      ]);
      const again = await kubectl(['apply', '-f', file]);
      expect(again.stdout.trim()).toBe(
        'kustomization.kustomize.toolkit.fluxcd.io/applied unchanged',
      );
      const truth = await eventually(() => {
        const o = sim
          .truth()
          .objects.find(x => x.cluster === cluster && x.name === 'applied');
        return o?.state === 'ready' ? o : undefined;
      }, 5000);
      expect(truth.owner).toBe('ok');
    });

    it('records the API version each write was made at in managedFields, as kube-apiserver does', async () => {
      const file = join(home, 'alert.yaml');
      writeFileSync(
        file,
        [
          'apiVersion: notification.toolkit.fluxcd.io/v1beta2',
          'kind: Alert',
          'metadata:',
          '  name: written-at-v1beta2',
          '  namespace: team-shop',
          'spec:',
          '  eventSeverity: info',
          '  eventSources:',
          '  - kind: Kustomization',
          "    name: '*'",
          '  providerRef:',
          '    name: slack',
          '',
        ].join('\n'),
      );
      const created = await kubectl(['apply', '-f', file]);
      expect(created.code).toBe(0);
      const fields = await kubectl([
        'get',
        'alerts.notification.toolkit.fluxcd.io',
        '-n',
        'team-shop',
        'written-at-v1beta2',
        '-o',
        'jsonpath={.metadata.managedFields[*].manager}/{.metadata.managedFields[*].apiVersion}',
      ]);
      expect(fields.stdout).toBe(
        'kubectl-client-side-apply/notification.toolkit.fluxcd.io/v1beta2',
      );
    });

    it('runs typed commands, whose bodies are protobuf: create namespace, auth can-i', async () => {
      const created = await kubectl(['create', 'namespace', 'team-robots']);
      expect(created.stdout.trim()).toBe('namespace/team-robots created');
      const ns = await kubectl([
        'get',
        'namespace',
        'team-robots',
        '-o',
        'jsonpath={.status.phase}',
      ]);
      expect(ns.stdout).toBe('Active');
      expect(
        (
          await kubectl(['auth', 'can-i', 'patch', 'kustomizations'])
        ).stdout.trim(),
      ).toBe('yes');
      const readonly = await kubectl([
        '--context',
        `${cluster}-readonly`,
        'auth',
        'can-i',
        'patch',
        'kustomizations',
      ]);
      expect(readonly.stdout.trim()).toMatch(/^no\b/);
    });

    it('answers Forbidden to the read-only context and Unauthorized to an unknown token', async () => {
      const readonly = await kubectl([
        '--context',
        `${cluster}-readonly`,
        'annotate',
        'kustomization',
        '-n',
        'team-shop',
        'checkout',
        'x=y',
      ]);
      expect(readonly.code).not.toBe(0);
      expect(readonly.stderr).toContain('Error from server (Forbidden)');
      const reads = await kubectl([
        '--context',
        `${cluster}-readonly`,
        'get',
        'kustomization',
        '-n',
        'team-shop',
        'checkout',
        '-o',
        'name',
      ]);
      expect(reads.stdout.trim()).toBe(
        'kustomization.kustomize.toolkit.fluxcd.io/checkout',
      );
      const unknown = await kubectl([
        '--token',
        'not-a-token',
        'get',
        'kustomizations',
        '-A',
      ]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('You must be logged in to the server');
    });
  },
);
