import type { FleetIndexChange } from '@flux-fleet/plugin-flux-fleet-node';
import { slotTextMatcher } from '../derive/slotText';
import type { ClusterEntry } from './ClusterEntry';
import type { FleetClusters } from './FleetClusters';

/** Free texts whose matches are kept; the least recently asked goes first. */
const KEPT_TEXTS = 16;

interface ClusterMatches {
  /** The cluster's version these matches are of. */
  version: number;
  /** Every object of the cluster matches (its name does). */
  all: boolean;
  /** 1 for each slot whose object matches. */
  bits: Uint8Array;
}

interface KeptText {
  pattern: RegExp;
  clusters: Map<string, ClusterMatches>;
}

/**
 * Which objects match a free text `q`, per cluster, kept for the texts asked recently and kept up to date as
 * objects change: the index hands over the keys each pass changed and only those are tested again, so a text
 * asked again costs one byte read per object, not six pattern tests (a fleet-wide `q=api` at fleet M: see the
 * backend README). A cluster whose version moved without a change being handed over is tested again whole.
 * Costs one byte per object and kept text.
 */
export class TextMatches {
  private readonly texts = new Map<string, KeptText>();

  constructor(fleet: Pick<FleetClusters, 'subscribe' | 'find'>) {
    fleet.subscribe(changes => this.changed(changes, fleet));
  }

  /** Whether the object of a slot matches `pattern` (made from `q`); undefined when all of the cluster do. */
  matcher(entry: ClusterEntry, q: string, pattern: RegExp): ((slot: number) => boolean) | undefined {
    let text = this.texts.get(q);
    if (text) {
      // most recently asked last
      this.texts.delete(q);
    } else {
      text = { pattern, clusters: new Map() };
      if (this.texts.size >= KEPT_TEXTS) this.texts.delete(this.texts.keys().next().value!);
    }
    this.texts.set(q, text);
    let matches = text.clusters.get(entry.name);
    if (!matches || matches.version !== entry.version) {
      matches = testAll(entry, text.pattern);
      text.clusters.set(entry.name, matches);
    }
    if (matches.all) return undefined;
    const bits = matches.bits;
    return slot => bits[slot] === 1;
  }

  private changed(changes: FleetIndexChange[], fleet: Pick<FleetClusters, 'find'>) {
    for (const change of changes) {
      const entry = fleet.find(change.cluster);
      if (!entry) continue;
      for (const text of this.texts.values()) {
        const matches = text.clusters.get(change.cluster);
        if (!matches) continue;
        retest(entry, text.pattern, matches, change.keys);
      }
    }
  }
}

function testAll(entry: ClusterEntry, pattern: RegExp): ClusterMatches {
  const { view } = entry;
  const test = slotTextMatcher(view, pattern);
  const bits = new Uint8Array(view.table.slotLimit);
  if (test) for (const slot of view.slots()) bits[slot] = test(slot) ? 1 : 0;
  return { version: entry.version, all: test === undefined, bits };
}

/** Tests the changed objects again; the others' fields (name, namespace, tenant, service, message) are as they were. */
function retest(entry: ClusterEntry, pattern: RegExp, matches: ClusterMatches, keys: readonly string[]) {
  const { view } = entry;
  // a fresh matcher: the boundaries and services it decides per value are the view's of now
  const test = slotTextMatcher(view, pattern);
  if (!test) {
    matches.all = true;
  } else if (!matches.all) {
    for (const key of keys) {
      const slot = view.table.slotOf(key);
      if (slot === undefined) continue;
      if (slot >= matches.bits.length) {
        const grown = new Uint8Array(Math.max(view.table.slotLimit, slot + 1));
        grown.set(matches.bits);
        matches.bits = grown;
      }
      matches.bits[slot] = view.isShown(slot) && test(slot) ? 1 : 0;
    }
  }
  matches.version = entry.version;
}
