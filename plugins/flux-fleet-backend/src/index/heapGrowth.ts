import type { LoggerService } from '@backstage/backend-plugin-api';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const FLAG = '--heap-growing-percent';

/**
 * Once the fleet's first sync is done (`ready`) and the event loop is quiet: gives back the memory the sync peaked
 * at, with one memory-reducing collection, and sets V8's heap growing (how much the old generation may grow between
 * two full collections) to `percent`. 0 leaves V8 alone throughout.
 *
 * Why not a node flag from the start: the first sync builds the whole index at once, and with the heap growing by
 * 50 % the collector marked the growing heap every few seconds. The product's first sync at fleet L (100 clusters,
 * 1.06M objects, `make bench --size L` stopped once synced, one run each, 2026-12-06) took 168 s and 178 s of the
 * backend's CPU with `--heap-growing-percent=50` from the start, 132 s and 130 s with V8's own growing. V8 reads
 * the flag whenever it sets the next collection's limit, so setting it later takes effect at the next full
 * collection; at rest the 50 % keeps the heap near what stays live (backend README, "Memory, and the node flags to
 * run with").
 *
 * Why the collection: V8 keeps the pages of the old generation's highest point until a memory-reducing collection,
 * which it starts only when the allocation rate is low, which a fleet that changes all the time never gives it.
 * With V8's own growing that highest point is higher: at fleet M the index benchmark's process held 397 MiB after
 * the sync against 357 MiB with 50 % from the start, and 298 and 286 MiB after a memory-reducing collection
 * (`bench/syncProfile.ts --last-resort 1`, one run each, 2026-12-06).
 *
 * Why the collection waits for a quiet event loop ({@link eventLoopQuiet}): it pauses the backend (0.45 s of full
 * collections at fleet M in the index benchmark, `--trace-gc`, 2026-12-07), and what waits for the fleet to be
 * ready (the API's readers, the snapshots held back during the sync, the first capacity round) would wait behind
 * it. Run after them, it also gives back what they allocated.
 *
 * A `--heap-growing-percent` on node's command line is the operator's choice: it is left as it is.
 */
export function growHeapOnceSynced(options: {
  percent: number;
  ready: Promise<void>;
  logger: LoggerService;
  /** node's flags (`process.execArgv`). */
  execArgv?: readonly string[];
  /** `v8.setFlagsFromString`; a test passes its own. */
  setFlags?: (flags: string) => void;
  /** A memory-reducing collection; a test passes its own. */
  collect?: () => void;
  /** Resolves when the collection may run (the event loop is quiet); a test passes its own. */
  quiet?: (signal: AbortSignal) => Promise<void>;
}): { stop(): void } {
  const {
    percent,
    ready,
    logger,
    execArgv = process.execArgv,
    setFlags = setFlagsFromString,
    collect = memoryReducingCollection,
    quiet = signal => eventLoopQuiet({ signal }),
  } = options;
  // a backend that stops before the collection ran does not start it (nor a test's backend, in a later test)
  const stopped = new AbortController();
  const handle = { stop: () => stopped.abort() };
  if (percent === 0) return handle;
  const given = execArgv.find(arg => arg === FLAG || arg.startsWith(`${FLAG}=`));
  if (given) {
    logger.info(
      `Flux Fleet leaves V8's heap growing as node's command line sets it (${given}); without it, V8 grows the heap as it sees fit during the first sync and Flux Fleet sets ${FLAG}=${percent} once it is done (fluxFleet.heapGrowingPercentOnceSynced)`,
    );
  }
  ready.then(() => quiet(stopped.signal)).then(
    () => {
      if (stopped.signal.aborted) return;
      if (!given) setFlags(`${FLAG}=${percent}`);
      const rssBefore = process.memoryUsage.rss();
      const started = performance.now();
      try {
        collect();
      } catch (error) {
        // a later node without V8's gc extension: the memory stays as it is, nothing else changes
        logger.warn(`Flux Fleet could not give back the memory of its first sync: ${error}`);
        return;
      }
      const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
      logger.info(
        `Flux Fleet: first sync done; a memory-reducing collection took ${Math.round(performance.now() - started)} ms (resident memory ${mib(rssBefore)} → ${mib(process.memoryUsage.rss())} MiB)${
          given ? '' : `, and the heap now grows by ${percent} % between full collections (fluxFleet.heapGrowingPercentOnceSynced)`
        }`,
      );
    },
    () => {
      // ready never rejects, and quiet only when stopped: there is nothing to report
    },
  );
  return handle;
}

/**
 * Resolves once the event loop has been busy at most `busy` (a fraction) over one window of `windowMs`, or after
 * `capMs` at most: a fleet that is busy for long still gets its memory back. The timers are unreferenced, so a
 * process that is shutting down does not wait for them; `signal` ends the wait with a rejection.
 */
export async function eventLoopQuiet(
  options: { busy?: number; windowMs?: number; capMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const { busy = 0.5, windowMs = 1000, capMs = 30_000, signal } = options;
  const started = performance.now();
  let previous = performance.eventLoopUtilization();
  for (;;) {
    await sleep(windowMs, undefined, { ref: false, signal });
    const now = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(now, previous).utilization;
    previous = now;
    if (utilization <= busy || performance.now() - started >= capMs) return;
  }
}

/**
 * What V8 does when the memory reducer runs or memory is short (`CollectAllAvailableGarbage`): full collections
 * until nothing more is freed, and the freed pages given back. Node has no call for it but V8's gc extension, which
 * a context created after `--expose-gc` carries; the flag adds `gc` to new contexts only, not to the running one,
 * and is turned off again at once so that no later context (a sandbox of another plugin) gets `gc` from it.
 */
function memoryReducingCollection(): void {
  let gc: (options: object) => void;
  setFlagsFromString('--expose-gc');
  try {
    gc = runInNewContext('gc') as (options: object) => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
