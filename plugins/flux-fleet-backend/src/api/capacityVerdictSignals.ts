import type { CapacityReport } from '@flux-fleet/plugin-flux-fleet-common';

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
 */
export function createVerdictWatch(
  report: () => CapacityReport,
  publish: (changed: string[]) => void,
): () => void {
  let last: Map<string, string> | undefined;
  return () => {
    const now = verdictsOf(report());
    if (last) {
      const changed = [...new Set([...now.keys(), ...last.keys()])].filter(
        key => now.get(key) !== last!.get(key),
      );
      if (changed.length > 0) publish(changed.sort());
    }
    last = now;
  };
}
