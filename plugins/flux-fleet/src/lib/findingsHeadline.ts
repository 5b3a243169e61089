import { FindingSeverity, FindingType } from '@flux-fleet/plugin-flux-fleet-common';
import { namedUpTo, plural } from './words';

/** What one finding of each type is about, counted in the sentence ("4 objects no controller watches"). */
const COUNTED: Readonly<Record<FindingType, [one: string, many: string]>> = {
  orphan: ['object no controller watches', 'objects no controller watches'],
  contested: ['object several controllers reconcile', 'objects several controllers reconcile'],
  'cross-shard-reference': ['source on another shard', 'sources on another shard'],
  'cross-tenant-reference': ['reference to another tenant', 'references to another tenant'],
  'boundary-none': ['object of a tenant without an enforced boundary', 'objects of tenants without an enforced boundary'],
  'reconcile-not-handled': ['reconcile request no controller handled', 'reconcile requests no controller handled'],
  'dependency-cycle': ['object on a dependency cycle', 'objects on dependency cycles'],
  'missing-dependency': ['missing dependency', 'missing dependencies'],
  'missing-source': ['missing source', 'missing sources'],
  'shard-over-capacity': ['shard over capacity', 'shards over capacity'],
  'mixed-versions': ['instance running controllers of different Flux releases', 'instances running controllers of different Flux releases'],
  'upgrade-blocked': ['instance whose upgrade is blocked', 'instances whose upgrade is blocked'],
  'deprecated-api': ['object written at a removed or deprecated API version', 'objects written at a removed or deprecated API version'],
};

/** One group of the Findings tab: the findings of one type, all of one severity (rules §8). */
export interface FindingGroup {
  type: FindingType;
  severity: FindingSeverity;
  count: number;
}

/** How many groups the sentence names before "and N more". */
const NAMED = 3;

const counted = (group: FindingGroup) => {
  const [one, many] = COUNTED[group.type];
  return `${group.count.toLocaleString('en-US')} ${group.count === 1 ? one : many}`;
};

/**
 * The Findings tab's answer in one sentence: how many errors and warnings, and what to fix first, the most severe
 * groups by their size ("4 errors and 150 warnings; fix first: 3 missing sources, 1 object no controller watches.").
 * `groups` come worst first, as the tab lists them.
 */
export function findingsHeadline(groups: readonly FindingGroup[]): string {
  const total = (severity: FindingSeverity) =>
    groups.filter(g => g.severity === severity).reduce((sum, g) => sum + g.count, 0);
  const parts = [
    total('error') > 0 ? plural(total('error'), 'error') : '',
    total('warning') > 0 ? plural(total('warning'), 'warning') : '',
    total('info') > 0 ? plural(total('info'), 'note') : '',
  ].filter(Boolean);
  if (parts.length === 0) return 'No findings.';
  const counts = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  const worst = groups[0].severity;
  const named = namedUpTo(groups.filter(g => g.severity === worst).map(counted), NAMED);
  return worst === 'error'
    ? `${counts}; fix first: ${named}.`
    : `No errors; ${counts}: ${named}.`;
}
