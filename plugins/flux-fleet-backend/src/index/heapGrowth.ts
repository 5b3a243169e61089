import type { LoggerService } from '@backstage/backend-plugin-api';
import { setFlagsFromString } from 'node:v8';

const FLAG = '--heap-growing-percent';

/**
 * Sets V8's heap growing (how much the old generation may grow between two full collections) once the fleet's
 * first sync is done (`ready`), to `percent`; 0 leaves V8's own growing in place.
 *
 * Why not a node flag from the start: the first sync builds the whole index at once, and with the heap growing by
 * 50 % the collector marked the growing heap every few seconds. The product's first sync at fleet L (100 clusters,
 * 1.06M objects, `make bench --size L` stopped once synced, one run each, 2026-12-06) took 168 s and 178 s of the
 * backend's CPU with `--heap-growing-percent=50` from the start, 132 s and 130 s of CPU with V8's own growing. At
 * rest the 50 % is what keeps the sync's peak from staying resident (backend README, "Memory, and the node flags
 * to run with"). V8 reads the flag whenever it sets the next collection's limit, so setting it later takes effect
 * at the next full collection.
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
}): void {
  const { percent, ready, logger, execArgv = process.execArgv, setFlags = setFlagsFromString } = options;
  if (percent === 0) return;
  const given = execArgv.find(arg => arg === FLAG || arg.startsWith(`${FLAG}=`));
  if (given) {
    logger.info(
      `Flux Fleet leaves V8's heap growing as node's command line sets it (${given}); without it, V8 grows the heap as it sees fit during the first sync and Flux Fleet sets ${FLAG}=${percent} once it is done (fluxFleet.heapGrowingPercentOnceSynced)`,
    );
    return;
  }
  ready.then(
    () => {
      setFlags(`${FLAG}=${percent}`);
      logger.info(
        `Flux Fleet: first sync done; the heap now grows by ${percent} % between full collections (fluxFleet.heapGrowingPercentOnceSynced)`,
      );
    },
    () => {
      // ready never rejects; a failure there is reported where it happens
    },
  );
}
