import {
  EntityLink,
  EntityLinkTarget,
  inventoryWorkloadLabels,
  matchesEntityLink,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterEntry } from './ClusterEntry';

/** Selectors whose answers are kept at most; beyond, the cache starts anew. */
const MAX_CACHED_SELECTORS = 1_000;

/**
 * The objects a label selector links (rules §6): those whose own labels match, and those whose inventory holds
 * a workload whose labels match. A scan reads the columns of every cluster's view and records, and its answer is
 * kept until the fleet changes.
 */
export class SelectorScan {
  private readonly cache = new Map<string, { version: string; keys: string[] }>();

  /** The keys of the objects `selector` links, as of fleet version `version`. */
  matches(selector: string, entries: Iterable<ClusterEntry>, version: string): string[] {
    const cached = this.cache.get(selector);
    if (cached?.version === version) return cached.keys;
    const matches: string[] = [];
    const link: EntityLink = { labelSelector: selector };
    for (const { view, store } of entries) {
      const { workloads } = store;
      for (const s of view.slots()) {
        // read from the columns: building every record of the fleet for one selector would cost ten times more
        const { inventory, namespace, remote } = view.table.inventoryOf(s);
        const target: EntityLinkTarget = {
          labels: view.table.labelsAt(s),
          service: view.serviceOf(s),
          workloadLabels: inventoryWorkloadLabels({ inventory, namespace, remote }, workloads),
        };
        if (matchesEntityLink(target, link)) matches.push(view.keyOf(s));
      }
    }
    if (this.cache.size > MAX_CACHED_SELECTORS) this.cache.clear();
    this.cache.set(selector, { version, keys: matches });
    return matches;
  }
}
