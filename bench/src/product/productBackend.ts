/**
 * The product as `make start` runs it: packages/backend with the app-config files of scripts/stack.sh plus the
 * benchmark's, loaded through Backstage's TypeScript transform in development mode (what `yarn start` runs), but
 * as a plain node process without the CLI's file watcher, which would restart the backend in the middle of a
 * measurement whenever a source file changes. The real backend rather than `startTestBackend`: the figures are
 * what a user's browser gets, through the same plugins, auth, permissions, access log and signals.
 */
import type { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import {
  cpuSecondsOfGroup,
  largestRssInGroup,
  logTail,
  startGroup,
  stopGroup,
  type ProcessGroup,
} from '../processGroup';
import { BackendClient } from './backendClient';
import { benchBackendConfig, type BenchBackendSettings } from './backendConfig';

/** A running backend. */
export interface ProductBackend {
  client: BackendClient;
  /** When the process was started (epoch ms). */
  startedAt: number;
  /** From starting the process to the readiness endpoint answering 200. */
  readyMs: number;
  /** Resident memory of the backend process now. */
  rssBytes(): number;
  /** CPU seconds the backend's processes have used so far. */
  cpuSeconds(): number;
  /** Waits until every cluster is synced; resolves with the milliseconds waited. */
  waitSynced(timeoutMs: number): Promise<number>;
  stop(): Promise<void>;
}

/** Starts the backend and waits until it is ready (not yet synced). */
export async function startProductBackend(options: {
  root: string;
  dir: string;
  settings: BenchBackendSettings;
  /**
   * A larger old generation for fleet L: a million Flux objects and their first analyses outgrow the default
   * limit V8 picks (2-4 GiB); the index's own benchmark runs L with the same limit.
   */
  maxOldSpaceMiB?: number;
  /** More node flags, such as `--inspect` to profile the backend while the benchmark runs. */
  nodeFlags?: string[];
}): Promise<ProductBackend> {
  const configFile = join(options.dir, 'app-config.bench.yaml');
  writeFileSync(configFile, stringify(benchBackendConfig(options.settings)));
  const baseUrl = `http://127.0.0.1:${options.settings.port}`;
  const started = Date.now();
  const backendDir = join(options.root, 'packages/backend');
  const transform = require.resolve(
    '@backstage/cli-node/config/nodeTransform.cjs',
    { paths: [backendDir] },
  );
  const group: ProcessGroup = startGroup(
    'backend',
    process.execPath,
    [
      '--enable-source-maps',
      // the V8 flags the Flux Fleet backend README recommends, as scripts/stack.sh starts the backend with them
      '--max-semi-space-size=16',
      '--external-memory-accounted-in-global-limit',
      ...(options.maxOldSpaceMiB ? [`--max-old-space-size=${options.maxOldSpaceMiB}`] : []),
      ...(options.nodeFlags ?? []),
      '--require',
      transform,
      'src/index',
      '--config',
      join(options.root, 'app-config.yaml'),
      '--config',
      configFile,
    ],
    {
      cwd: backendDir,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        ESBK_TSCONFIG_PATH: join(options.root, 'tsconfig.json'),
        FLUX_FLEET_API_TOKEN: options.settings.apiToken,
      },
      logFile: join(options.dir, 'backend.log'),
    },
  );
  let exited = false;
  group.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + 240_000;
  for (;;) {
    const ready = await fetch(`${baseUrl}/.backstage/health/v1/readiness`)
      .then(r => r.ok)
      .catch(() => false);
    if (ready) break;
    if (exited || Date.now() > deadline) {
      const why = exited ? 'exited' : 'is not ready after 240 s';
      await stopGroup(group);
      throw new Error(
        `the backend ${why}; the end of ${group.logFile}:\n${logTail(group)}`,
      );
    }
    await new Promise(r => setTimeout(r, 250));
  }
  const readyMs = Date.now() - started;
  const client = new BackendClient(baseUrl, options.settings.apiToken);
  return {
    client,
    startedAt: started,
    readyMs,
    rssBytes: () => largestRssInGroup(group.pid),
    cpuSeconds: () => cpuSecondsOfGroup(group.pid),
    async waitSynced(timeoutMs) {
      // Each cluster counts from the first answer that shows it synced: at L on 2 cores, with churn, a synced
      // cluster's watches renew and it shows "lagging" for seconds at a time, so all 100 clusters are rarely
      // synced in the same answer (the run of 2026-12-02 waited 8 minutes for that). How long clusters lag after
      // their sync is the freshness part's figure, not this one.
      const from = Date.now();
      const seen = new Set<string>();
      let lastError: Error | undefined;
      for (;;) {
        let items: ClusterHealth[] | undefined;
        try {
          ({ items } = await client.get<{ items: ClusterHealth[] }>(
            '/api/flux-fleet/clusters',
          ));
        } catch (error) {
          // a busy backend may drop one keep-alive connection; the next poll says whether it is down
          if (exited) throw error;
          lastError = error as Error;
        }
        for (const c of items ?? []) if (c.synced) seen.add(c.name);
        if (items && items.length > 0 && items.every(c => seen.has(c.name)))
          return Date.now() - from;
        if (Date.now() - from > timeoutMs) {
          const waiting = (items ?? [])
            .filter(c => !seen.has(c.name))
            .map(c => `${c.name} (${c.status})`);
          throw new Error(
            `clusters not synced after ${timeoutMs / 1000} s: ${
              items ? waiting.join(', ') : `no answer: ${lastError?.message}`
            }`,
          );
        }
        // 10 ms per cluster between polls: each answer reads every cluster's health, and at L (100 clusters)
        // polling every 100 ms cost the backend 3 % of its CPU during the sync it measures (profile of 2026-12-03)
        await new Promise(r => setTimeout(r, Math.max(100, 10 * (items?.length ?? 0))));
      }
    },
    // a CPU profile is written as the process exits: at L that takes more than the usual grace
    stop: () => stopGroup(group, options.nodeFlags?.includes('--cpu-prof') ? 120_000 : undefined),
  };
}
