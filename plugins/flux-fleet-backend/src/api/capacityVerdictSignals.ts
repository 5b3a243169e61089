import type { CapacityReport } from '@flux-fleet/plugin-flux-fleet-common';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Each instance's verdict and its controllers' verdicts, as one comparable string per `cluster/instance`. */
function verdictsOf(report: CapacityReport): Map<string, string> {
  return new Map(
    report.items.map(i => [
      `${i.cluster}/${i.instance}`,
      [i.verdict, ...i.controllers.map(c => `${c.controller}=${c.verdict}`)].join(' '),
    ]),
  );
}

/**
 * Watches capacity verdicts: each call of the returned function (after a collection round) compares every
 * instance's verdict and its controllers' with the last call's, and hands the `cluster/instance` keys whose
 * verdicts changed to `publish` (the coalesced `flux-fleet:capacity` signal). The first call only remembers.
 *
 * One cluster at a time, letting other work run between clusters (and, with a `reportOf` that builds its records
 * in turns, within one): a cluster's capacity reads every object of it, and the whole fleet's in one go held the
 * backend for 1.7 s at fleet M, which every request and signal waited out. A call while one runs makes that one compare once more when it is done.
 */
export function createVerdictWatch(
  fleet: { clusterNames(): string[]; reportOf(cluster: string): CapacityReport | Promise<CapacityReport> },
  publish: (changed: string[]) => void,
): () => Promise<void> {
  let last: Map<string, string> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const compare = async () => {
    const now = new Map<string, string>();
    for (const cluster of fleet.clusterNames()) {
      for (const [key, verdict] of verdictsOf(await fleet.reportOf(cluster))) now.set(key, verdict);
      await nextTurn();
    }
    if (last) {
      const previous = last;
      const changed = [...new Set([...now.keys(), ...previous.keys()])].filter(
        key => now.get(key) !== previous.get(key),
      );
      if (changed.length > 0) publish(changed.sort());
    }
    last = now;
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await compare();
        } while (again);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
}
