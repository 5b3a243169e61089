import { TenantSummary } from '@flux-fleet/plugin-flux-fleet-common';
import { namedUpTo, plural } from './words';

/** How many tenants the sentence names before "and N more". */
const NAMED = 3;

/**
 * The Tenants tab's answer in one sentence: how many tenants own how many objects, which run objects outside an
 * enforced boundary (none first, then partial: rules §5), and whether the tenants have owning groups ("14 tenants
 * own 2,031 Flux objects; 3 have objects with no enforced boundary: content, data, growth. 2 have no owning group.";
 * "all 14 have…" without names when every tenant does).
 */
export function tenantsHeadline(tenants: readonly TenantSummary[]): string {
  if (tenants.length === 0) {
    return 'No tenants: label namespaces with toolkit.fluxcd.io/tenant, or map them to tenants in fluxFleet.tenants.';
  }
  const objects = tenants.reduce((sum, t) => sum + t.objectCount, 0);
  const own = `${plural(tenants.length, 'tenant')} ${tenants.length === 1 ? 'owns' : 'own'} ${plural(objects, 'Flux object')}`;
  const names = (level: TenantSummary['weakestEnforcement']) =>
    tenants
      .filter(t => t.weakestEnforcement === level)
      .map(t => t.name)
      .sort();
  const none = names('none');
  const partial = names('partial');
  const have = (n: number) => (n === 1 ? 'has' : 'have');
  // every tenant: their names are the table below, and listing some of them would only lengthen the sentence
  const thoseWith = (named: string[], what: string) =>
    named.length === tenants.length && named.length > 1
      ? `${named.length === 2 ? 'both' : `all ${named.length}`} have ${what}`
      : `${named.length} ${have(named.length)} ${what}: ${namedUpTo(named, NAMED)}`;
  let boundary: string;
  if (none.length > 0) {
    boundary = thoseWith(none, 'objects with no enforced boundary');
  } else if (partial.length > 0) {
    boundary = thoseWith(partial, 'a boundary only partly enforced');
  } else {
    boundary = tenants.length === 1 ? 'its boundary is enforced' : 'every boundary is enforced';
  }
  const ungrouped = tenants.filter(t => !t.group).length;
  let groups = '';
  if (ungrouped === tenants.length) {
    groups = ' No tenant has an owning group: set one with fluxFleet.tenants[].group.';
  } else if (ungrouped > 0) {
    groups = ` ${ungrouped} ${have(ungrouped)} no owning group.`;
  }
  return `${own}; ${boundary}.${groups}`;
}
