import { InstanceSummary } from '@flux-fleet/plugin-flux-fleet-common';
import { namedUpTo, plural } from './words';

/** How many instances the sentence names before "and N more". */
const NAMED = 3;

/** Controllers of the instance that cannot work as deployed: a selector that does not parse, or a problem found. */
function troubled(instance: InstanceSummary): boolean {
  return instance.controllers.some(c => c.selectorError || (c.problems ?? []).length > 0);
}

/**
 * The Instances & shards tab's answer in one sentence: how many Flux instances run how many shards on how many
 * clusters, and which instances' controllers have problems (named, up to three) or that none has.
 */
export function instancesHeadline(instances: readonly InstanceSummary[], shardCount: number): string {
  const clusters = new Set(instances.map(i => i.cluster)).size;
  const fleet = `${plural(instances.length, 'Flux instance')} on ${plural(clusters, 'cluster')} ${
    instances.length === 1 ? 'runs' : 'run'
  } ${plural(
    shardCount,
    'shard',
  )}`;
  const named = instances.filter(troubled).map(i => `${i.cluster}/${i.name}`);
  if (named.length === 0) return `${fleet}; no controller reports a problem.`;
  return `${fleet}; controllers of ${namedUpTo(named, NAMED)} have problems (below).`;
}
