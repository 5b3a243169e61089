import type { TenantMapping, TenantMappingEntry } from '@flux-fleet/plugin-flux-fleet-common';
import type { TenantRule } from '../config/FleetConfig';

function globPattern(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map(part => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('(.*)')}$`,
  );
}

/**
 * The configured tenant rules as the mapping `-common` reads, for one cluster. Rules with a fixed tenant pass
 * through; a rule whose tenant uses what a `*` matched (`tenant: '{1}'`) becomes one entry per namespace of the
 * cluster it matches, since the tenant's name (and group, which may use the same placeholders) differs per
 * namespace.
 */
export function resolveTenantMapping(
  rules: readonly TenantRule[],
  cluster: string,
  namespaces: Iterable<string>,
): TenantMapping {
  if (rules.length === 0) return [];
  const names = [...namespaces];
  const mapping: TenantMappingEntry[] = [];
  for (const rule of rules) {
    if (rule.clusters && !rule.clusters.includes(cluster)) continue;
    if (!/\{\d+\}/.test(rule.tenant)) {
      mapping.push({
        tenant: rule.tenant,
        namespaces: rule.namespaces,
        ...(rule.group && { group: rule.group }),
      });
      continue;
    }
    const patterns = rule.namespaces.map(globPattern);
    for (const namespace of names) {
      for (const pattern of patterns) {
        const match = pattern.exec(namespace);
        if (!match) continue;
        const fill = (text: string) =>
          text.replace(/\{(\d+)\}/g, (_, n) => match[Number(n)] ?? '');
        const tenant = fill(rule.tenant);
        if (tenant) {
          mapping.push({
            tenant,
            namespaces: [namespace],
            ...(rule.group && { group: fill(rule.group) }),
          });
        }
        break;
      }
    }
  }
  return mapping;
}
