/**
 * Runs the backend's own index benchmark (`plugins/flux-fleet-backend/bench/indexBenchmark.ts`, `yarn bench` in
 * that package) for one fleet size and reads its figures: the index's owner keeps that file, this harness only
 * depends on its command line and the JSON it prints.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FleetSize } from '../options';
import { logTail, startGroup, stopGroup } from '../processGroup';

/** The figures of the index benchmark this harness uses (it prints more; all of it is kept as `raw`). */
export interface IndexBenchmarkFigures {
  clusters: number;
  /** From starting the watches to every cluster synced, with no lag. */
  syncMs: number;
  fluxObjects: number;
  /** RSS growth of the index's process over the objects indexed, after a garbage collection. */
  rssBytesPerObject: number;
  heapBytesPerObject: number;
  /** Lists in flight at once fleet-wide, and items per page, as the index listed. */
  concurrentLists: number;
  pageSize: number;
  raw: Record<string, unknown>;
}

/** The last JSON document a process printed (the index benchmark ends its output with one). */
export function lastJsonDocument(output: string): unknown {
  const lines = output.split('\n');
  const end = lines.lastIndexOf('}');
  const start = end < 0 ? -1 : lines.lastIndexOf('{', end);
  if (start < 0) throw new Error('no JSON document in the output');
  return JSON.parse(lines.slice(start, end + 1).join('\n'));
}

/** Reads the figures from the index benchmark's JSON, naming what is missing. */
export function readIndexFigures(doc: unknown): IndexBenchmarkFigures {
  const raw = doc as Record<string, any>;
  const figures = {
    clusters: raw?.clusters,
    syncMs: raw?.syncMs,
    fluxObjects: raw?.memory?.objects,
    rssBytesPerObject: raw?.memory?.rssBytesPerObject,
    heapBytesPerObject: raw?.memory?.heapBytesPerObject,
    concurrentLists: raw?.lists?.concurrentLists,
    pageSize: raw?.lists?.pageSize,
  };
  const missing = Object.entries(figures)
    .filter(([, value]) => typeof value !== 'number')
    .map(([key]) => key);
  if (missing.length > 0) {
    throw new Error(`the index benchmark's output lacks ${missing.join(', ')}`);
  }
  return { ...(figures as Omit<IndexBenchmarkFigures, 'raw'>), raw };
}

/**
 * Runs the index benchmark at `size` on the simulated fleet of `kubeconfigPath` (seed 1, started with
 * `churn`) and returns its figures. Its own `JSON.parse` baseline is left out (`--baseline 0`): this harness
 * measures the parse baseline on the same fleet afterwards (parseBaseline.ts), and at L the index benchmark's
 * took 91 s of a run that must stay under 30 minutes.
 */
export async function runIndexBenchmark(options: {
  root: string;
  dir: string;
  size: FleetSize;
  kubeconfigPath: string;
  churn: number;
  /** Seconds of its entity-view load (its own figure; this harness measures the API through the product). */
  loadSeconds: number;
}): Promise<IndexBenchmarkFigures> {
  const logFile = join(options.dir, `index-benchmark-${options.size}.log`);
  const group = startGroup(
    `index benchmark ${options.size}`,
    'yarn',
    [
      'bench',
      '--size',
      options.size,
      '--seconds',
      String(options.loadSeconds),
      '--churn',
      String(options.churn),
      '--baseline',
      '0',
      '--kubeconfig',
      options.kubeconfigPath,
    ],
    {
      cwd: join(options.root, 'plugins/flux-fleet-backend'),
      // at L the index and its simulator (which inherits NODE_OPTIONS) outgrow Node's default heap limit
      env:
        options.size === 'L'
          ? {
              ...process.env,
              NODE_OPTIONS: `${
                process.env.NODE_OPTIONS ?? ''
              } --max-old-space-size=16384`.trim(),
            }
          : process.env,
      logFile,
    },
  );
  const limitMs = options.size === 'L' ? 60 * 60_000 : 15 * 60_000;
  const timer = setTimeout(() => stopGroup(group), limitMs);
  const code = await group.exited;
  clearTimeout(timer);
  await stopGroup(group);
  if (code !== 0) {
    throw new Error(
      `the index benchmark at ${
        options.size
      } failed (exit ${code}); its log ${logFile}:\n${logTail(group)}`,
    );
  }
  return readIndexFigures(lastJsonDocument(readFileSync(logFile, 'utf8')));
}
