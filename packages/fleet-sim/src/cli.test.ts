import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { parseArgs } from './cli';

describe('fleet-sim command line', () => {
  it('parses every flag, and refuses bad ones with a message naming them', () => {
    const parsed = parseArgs([
      '--size',
      'm',
      '--seed',
      '7',
      '--port',
      '0',
      '--kubeconfig',
      'k.yaml',
      '--truth=t.json',
      '--tls',
      '--empty',
      '--churn',
      '3',
      '--fault',
      'prod-eu-west-1:down',
      '--fault=prod-eu-west-1:latencyMs=200',
      '--clusters',
      '4',
      '--services',
      '50',
    ]);
    expect(parsed.options).toMatchObject({
      size: 'M',
      seed: 7,
      port: 0,
      tls: true,
      empty: true,
      churnPerSecond: 3,
      clusters: 4,
      services: 50,
    });
    expect([parsed.kubeconfig, parsed.truth]).toEqual(['k.yaml', 't.json']);
    expect(parsed.faults).toEqual([
      { cluster: 'prod-eu-west-1', faults: { down: true } },
      { cluster: 'prod-eu-west-1', faults: { latencyMs: 200 } },
    ]);
    expect(parseArgs([]).options.churnPerSecond).toBe(1);
    expect(() => parseArgs(['--size', 'XL'])).toThrow(
      '--size must be S, M or L, got XL',
    );
    expect(() => parseArgs(['--seed'])).toThrow('--seed needs a value');
    expect(() => parseArgs(['--fault', 'down'])).toThrow(
      /expected <cluster>:<fault>/,
    );
    expect(() => parseArgs(['--fault', 'c:sideways'])).toThrow(
      /unknown fault sideways/,
    );
    expect(() => parseArgs(['--frobnicate'])).toThrow(
      'unknown option --frobnicate; see --help',
    );
  });

  it('starts, prints one ready line, writes the kubeconfig and the truth, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-sim-cli-'));
    const bin = resolve(__dirname, '../bin/fleet-sim');
    const child = spawn(
      process.execPath,
      [
        bin,
        '--clusters',
        '2',
        '--services',
        '20',
        '--seed',
        '7',
        '--port',
        '0',
        '--kubeconfig',
        join(dir, 'kubeconfig'),
        '--truth',
        join(dir, 'truth.json'),
        '--churn',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', chunk => {
        stderr += chunk;
      });
      const ready = await new Promise<string>((done, fail) => {
        child.stdout.on('data', chunk => {
          stdout += chunk;
          if (stdout.includes('\n')) done(stdout);
        });
        child.on('exit', code =>
          fail(new Error(`exited with ${code}: ${stderr}`)),
        );
      });
      const truth = JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8'));
      expect(ready).toMatch(
        new RegExp(
          `^fleet-sim ready: 2 clusters, ${truth.objects.length} objects, admin http://127\\.0\\.0\\.1:\\d+\\n$`,
        ),
      );
      const kubeconfig = parse(readFileSync(join(dir, 'kubeconfig'), 'utf8'));
      const names = truth.clusters.map((c: any) => c.name);
      expect(kubeconfig.contexts.map((c: any) => c.name)).toEqual(
        names.flatMap((n: string) => [n, `${n}-readonly`]),
      );
      const admin = ready.trim().split(' ').pop();
      const clusters = await (await fetch(`${admin}/clusters`)).json();
      expect(clusters.items.map((c: any) => c.server)).toEqual(
        truth.clusters.map((c: any) => c.server),
      );
      const exited = new Promise<number | null>(done => child.on('exit', done));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
