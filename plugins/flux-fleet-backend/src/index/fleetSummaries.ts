import {
  ClusterHealth,
  Enforcement,
  ENFORCEMENT_LEVELS,
  FindingType,
  FleetSummary,
  FluxKind,
  Owner,
  ReconcileStateName,
  ShardSummary,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { TenantRule } from '../config/FleetConfig';
import { resolveTenantMapping } from '../derive/resolveTenantMapping';
import type { ClusterEntry } from './ClusterEntry';

/** Objects of one shard, per kind and state. */
interface ShardCounts {
  objectCount: number;
  countsByKind: Partial<Record<FluxKind, number>>;
  countsByState: Partial<Record<ReconcileStateName, number>>;
}

/** The shards of a cluster's last analysis, with their objects counted from the view (current between analyses). */
export function shardsOf({ view }: ClusterEntry): ShardSummary[] {
  const byShard = new Map<string, ShardCounts>();
  // owners are shared values: counted per owner first, then added up per shard
  const byOwner = new Map<Owner, ShardCounts>();
  for (const s of view.slots()) {
    const owner = view.ownerOf(s);
    if (owner.status !== 'ok' || owner.instance === null) continue;
    let counts = byOwner.get(owner);
    if (!counts) {
      const key = `${owner.instance}/${owner.shard ?? ''}`;
      counts = byShard.get(key);
      if (!counts) {
        counts = { objectCount: 0, countsByKind: {}, countsByState: {} };
        byShard.set(key, counts);
      }
      byOwner.set(owner, counts);
    }
    const kind = view.kindOf(s);
    const state = view.stateNameOf(s);
    counts.objectCount++;
    counts.countsByKind[kind] = (counts.countsByKind[kind] ?? 0) + 1;
    counts.countsByState[state] = (counts.countsByState[state] ?? 0) + 1;
  }
  return view.shards.map(shard => {
    const counts = byShard.get(`${shard.instance}/${shard.name}`);
    return {
      ...shard,
      objectCount: counts?.objectCount ?? 0,
      countsByKind: counts?.countsByKind ?? {},
      countsByState: counts?.countsByState ?? {},
    };
  });
}

/** Every tenant of the fleet (rules §5) with its namespaces, shards and objects per enforcement level. */
export function tenantsOf(entries: ClusterEntry[], rules: TenantRule[]): TenantSummary[] {
  const tenants = new Map<
    string,
    {
      namespaces: Map<string, { cluster: string; namespace: string }>;
      shards: Map<string, { cluster: string; instance: string; shard: string }>;
      objectCount: number;
      counts: Partial<Record<Enforcement, number>>;
    }
  >();
  for (const entry of entries) {
    const cluster = entry.name;
    // counted per distinct boundary and owner, which every object of a tenant shares with many others
    for (const { boundary, owner, count } of entry.view.countsByBoundaryAndOwner()) {
      const name = boundary.tenant;
      if (name === null) continue;
      let t = tenants.get(name);
      if (!t) {
        t = { namespaces: new Map(), shards: new Map(), objectCount: 0, counts: {} };
        tenants.set(name, t);
      }
      t.objectCount += count;
      const e = boundary.enforcement;
      t.counts[e] = (t.counts[e] ?? 0) + count;
      // the boundary's namespace is the object's (rules §5)
      const namespace = boundary.namespace;
      t.namespaces.set(`${cluster}/${namespace}`, { cluster, namespace });
      if (owner.status === 'ok' && owner.instance && owner.shard) {
        t.shards.set(`${cluster}/${owner.instance}/${owner.shard}`, {
          cluster,
          instance: owner.instance,
          shard: owner.shard,
        });
      }
    }
  }
  return [...tenants.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, t]): TenantSummary => {
      const group = tenantGroup(entries, rules, name);
      return {
        name,
        ...(group && { group }),
        namespaces: sortBy([...t.namespaces.values()], n => `${n.cluster}/${n.namespace}`),
        shards: sortBy([...t.shards.values()], s => `${s.cluster}/${s.instance}/${s.shard}`),
        objectCount: t.objectCount,
        countsByEnforcement: t.counts,
        weakestEnforcement:
          ENFORCEMENT_LEVELS.find(level => (t.counts[level] ?? 0) > 0) ?? 'enforced',
      };
    });
}

/** The fleet in numbers: clusters, instances, shards, objects per kind and state, findings per type. */
export function summaryOf(
  entries: ClusterEntry[],
  healthOf: (entry: ClusterEntry) => ClusterHealth,
  tenantCount: number,
  now: number,
): FleetSummary {
  const countsByKind: Partial<Record<FluxKind, number>> = {};
  const countsByState: Partial<Record<ReconcileStateName, number>> = {};
  const findingsByType: Partial<Record<FindingType, number>> = {};
  let objects = 0;
  let instances = 0;
  let shards = 0;
  let unreachable = 0;
  for (const entry of entries) {
    const { view } = entry;
    objects += view.size;
    for (const [kind, n] of Object.entries(view.countsByKind())) {
      countsByKind[kind as FluxKind] = (countsByKind[kind as FluxKind] ?? 0) + n;
    }
    for (const [state, n] of Object.entries(view.countsByState())) {
      const s = state as ReconcileStateName;
      countsByState[s] = (countsByState[s] ?? 0) + n;
    }
    for (const finding of view.findings) {
      findingsByType[finding.type] = (findingsByType[finding.type] ?? 0) + 1;
    }
    instances += view.instances.length;
    shards += view.shards.length;
    const status = healthOf(entry).status;
    if (status === 'unreachable' || status === 'unauthorized') unreachable++;
  }
  return {
    clusters: entries.length,
    clustersUnreachable: unreachable,
    instances,
    shards,
    objects,
    tenants: tenantCount,
    countsByKind,
    countsByState,
    findingsByType,
    generatedAt: new Date(now).toISOString(),
  };
}

/** The group a tenant rule gives a tenant, on the first cluster where one does. */
function tenantGroup(entries: ClusterEntry[], rules: TenantRule[], tenant: string): string | undefined {
  const grouping = rules.filter(r => r.group);
  for (const entry of entries) {
    const mapping = resolveTenantMapping(grouping, entry.name, entry.store.namespaces.keys());
    const found = mapping.find(e => e.tenant === tenant && e.group);
    if (found?.group) return found.group;
  }
  return undefined;
}

function sortBy<T>(items: T[], key: (item: T) => string): T[] {
  return items.sort((a, b) => key(a).localeCompare(key(b)));
}
