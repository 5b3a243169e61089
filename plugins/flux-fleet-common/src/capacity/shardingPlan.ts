/**
 * A sharding plan for one instance (rules §13): its objects grouped so that nothing that references each other is
 * split, the groups placed on shards by load (fewest moves when shards exist), and the changes that carry it out.
 */
import type {
  CapacitySource,
  ControllerCapacity,
  PlannedShard,
  ShardGroup,
  ShardingPlan,
} from '../capacityApi';
import { reconcileShareOf } from '../load';
import { compareShardNames, compareText } from '../order';
import { isSuspended } from '../record';
import type { FluxObjectRecord } from '../record';
import type { FluxController } from '../types';
import {
  ControllerComponent,
  DEFAULT_CONCURRENCY,
  FluxKind,
  KIND_RECONCILED_BY,
  LABELS,
  MAIN_SHARD,
  SOURCE_KINDS,
} from '../vocabulary';
import { SHARDED_COMPONENTS } from './advice';
import { NO_METRICS_REASON } from './assess';
import { formatCount, formatPercent } from './format';
import { oversizeAdvice } from './oversize';
import {
  Concurrency,
  LoadVector,
  Placement,
  PlacementGroup,
  placeGroups,
  utilisationOfLoad,
} from './placement';
import { planChanges } from './planOutput';
import {
  compareObjects,
  generatedHelmChartKey,
  groupObjects,
} from './shardGroups';
import { UTILISATION_NEAR_CAPACITY } from './thresholds';

/** What {@link planSharding} needs about one instance. */
export interface ShardingPlanInput {
  cluster: string;
  /** The instance: its namespace. */
  instance: string;
  operatorManaged: boolean;
  /** The FluxInstance that manages it, for the operator's patch; default `flux`. */
  fluxInstance?: string;
  /** Its controllers. */
  controllers: readonly FluxController[];
  /** The objects it reconciles, any shard, suspended ones included (they move with their group, at no load). */
  objects: readonly FluxObjectRecord[];
  /** Its controllers' capacities: measured busy workers scale the §9 estimate per controller. */
  capacities?: readonly ControllerCapacity[];
  /** Shards wanted besides `main`; default the fewest that keep every shard under 70 %. */
  shards?: number;
}

/** The most shards a plan proposes. */
export const MAX_PLANNED_SHARDS = 32;

/** Kinds a sharding plan places: those of the sharded controllers, and image objects that travel with a source. */
export const PLANNED_KINDS: readonly FluxKind[] = [
  ...SOURCE_KINDS,
  'Kustomization',
  'HelmRelease',
  'ImageRepository',
  'ImagePolicy',
  'ImageUpdateAutomation',
];

function shardOf(record: FluxObjectRecord): string {
  return record.labels[LABELS.shardKey] ?? MAIN_SHARD;
}

function shardNames(existing: string[], n: number): string[] {
  const names = existing.slice(0, n);
  for (let k = 1; names.length < n; k++) {
    const name = `shard${k}`;
    if (!existing.includes(name)) names.push(name);
  }
  return names;
}

/** The sharding plan of one instance (rules §13). Deterministic: the same input gives the same plan. */
export function planSharding(input: ShardingPlanInput): ShardingPlan {
  const objects = input.objects
    .filter(o => (PLANNED_KINDS as readonly string[]).includes(o.kind))
    .sort(compareObjects);
  // Only the main controllers and the shards of the shard key take part: a controller selecting by another label
  // (a tenant's own kustomize-controller, `toolkit.fluxcd.io/tenant=payments`) never sees a shard-key label.
  const sharded = input.controllers.filter(
    c =>
      SHARDED_COMPONENTS.includes(c.component) &&
      (c.shard === MAIN_SHARD ||
        c.selector?.replace(/\s+/g, '') === `${LABELS.shardKey}=${c.shard}`),
  );
  const existing = [
    ...new Set(sharded.map(c => c.shard).filter(s => s !== MAIN_SHARD)),
  ].sort(compareShardNames);

  const configured = new Map<string, number>();
  for (const c of sharded)
    configured.set(`${c.shard}\n${c.component}`, c.concurrent);
  const concurrency: Concurrency = (target, component) =>
    configured.get(`${target}\n${component}`) ??
    configured.get(`${MAIN_SHARD}\n${component}`) ??
    DEFAULT_CONCURRENCY[component];

  // Measured busy workers ÷ estimated, per controller: the estimate of each object is scaled by it.
  const scale = new Map<string, number>();
  const why = new Map<string, string>();
  for (const c of input.capacities ?? []) {
    if (!SHARDED_COMPONENTS.includes(c.component)) continue;
    const busy = c.figures.busyWorkers;
    if (c.source === 'metrics' && busy && c.estimatedBusyWorkers > 0) {
      scale.set(
        `${c.shard}\n${c.component}`,
        busy.value / c.estimatedBusyWorkers,
      );
    } else if (c.estimateReason !== undefined) {
      why.set(`${c.shard}\n${c.component}`, c.estimateReason);
    }
  }
  // The controllers (shard and component) whose load is the §9 estimate unscaled: the plan says which and why.
  const unmeasured = new Set<string>();

  const loadOf = (
    o: FluxObjectRecord,
  ): [ControllerComponent, number] | undefined => {
    const component = KIND_RECONCILED_BY[o.kind] as ControllerComponent;
    if (!SHARDED_COMPONENTS.includes(component) || isSuspended(o))
      return undefined;
    const key = `${shardOf(o)}\n${component}`;
    const factor = scale.get(key);
    if (factor === undefined) unmeasured.add(key);
    return [component, reconcileShareOf(o) * (factor ?? 1)];
  };

  const groups = groupObjects(objects);
  const placementGroups: PlacementGroup[] = groups.map(g => {
    const load: LoadVector = {};
    const perShard = new Map<string, number>();
    for (const m of g.members) {
      const o = objects[m];
      const l = loadOf(o);
      const shard = shardOf(o);
      perShard.set(shard, (perShard.get(shard) ?? 0) + (l ? l[1] : 0) + 1e-9);
      if (l) load[l[0]] = (load[l[0]] ?? 0) + l[1];
    }
    // Where the group is now: the shard most of its load is on (ties: the first by name).
    const current = [...perShard.entries()].sort(
      (a, b) => b[1] - a[1] || compareShardNames(a[0], b[0]),
    )[0][0];
    const root = objects[g.root];
    return {
      load,
      current,
      name: `${root.kind} ${root.namespace}/${root.name}`,
    };
  });

  const source: CapacitySource =
    unmeasured.size === 0 && scale.size > 0 ? 'metrics' : 'estimate';
  const keep = existing.length > 0;
  const fits = (p: Placement, targets: string[]) =>
    targets.every(t => {
      const u = utilisationOfLoad(t, p.loads.get(t)!, concurrency);
      return (
        u < UTILISATION_NEAR_CAPACITY || p.to.filter(x => x === t).length <= 1
      );
    });
  const total: LoadVector = {};
  for (const g of placementGroups) {
    for (const [c, v] of Object.entries(g.load) as Array<
      [ControllerComponent, number]
    >) {
      total[c] = (total[c] ?? 0) + v;
    }
  }
  let n: number;
  let targets: string[];
  let placement: Placement;
  if (input.shards !== undefined && Number.isFinite(input.shards)) {
    n = Math.min(MAX_PLANNED_SHARDS, Math.max(0, Math.floor(input.shards)));
    targets = [MAIN_SHARD, ...shardNames(existing, n)];
    placement = placeGroups(placementGroups, targets, concurrency, keep);
  } else {
    const lowerBound =
      Math.ceil(
        utilisationOfLoad(MAIN_SHARD, total, concurrency) /
          UTILISATION_NEAR_CAPACITY,
      ) - 1;
    n = Math.min(MAX_PLANNED_SHARDS, Math.max(existing.length, lowerBound, 0));
    for (;;) {
      targets = [MAIN_SHARD, ...shardNames(existing, n)];
      placement = placeGroups(placementGroups, targets, concurrency, keep);
      if (fits(placement, targets) || n >= MAX_PLANNED_SHARDS) break;
      n++;
    }
  }

  const shardGroups: ShardGroup[] = groups.map((g, i) => {
    const pg = placementGroups[i];
    const to = placement.to[i];
    const moved = g.members.some(m => shardOf(objects[m]) !== to);
    const result: ShardGroup = {
      name: pg.name,
      objects: g.members.map(m => {
        const o = objects[m];
        return {
          cluster: o.cluster,
          namespace: o.namespace,
          kind: o.kind,
          name: o.name,
        };
      }),
      busyWorkers: pg.load,
      from: pg.current ?? MAIN_SHARD,
      to,
      moved,
    };
    const oversize = oversizeAdvice(pg, g.members.length, to, concurrency);
    if (oversize) result.oversize = oversize;
    return result;
  });

  const shards: PlannedShard[] = targets.map(t => {
    const load = placement.loads.get(t)!;
    const onIt = groups.filter((_, i) => placement.to[i] === t);
    return {
      name: t,
      existing: t === MAIN_SHARD || existing.includes(t),
      groupCount: onIt.length,
      objectCount: onIt.reduce((s, g) => s + g.members.length, 0),
      controllers: SHARDED_COMPONENTS.map(component => ({
        component,
        concurrent: concurrency(t, component),
        utilisation:
          (load[component] ?? 0) / Math.max(1, concurrency(t, component)),
      })),
      utilisation: utilisationOfLoad(t, load, concurrency),
    };
  });

  const generated = new Set(
    objects
      .map(generatedHelmChartKey)
      .filter((k): k is string => k !== undefined),
  );
  const changes = planChanges({
    cluster: input.cluster,
    instance: input.instance,
    operatorManaged: input.operatorManaged,
    fluxInstance: input.fluxInstance ?? 'flux',
    objects,
    generatedHelmCharts: generated,
    targetOf: new Map(
      groups.flatMap((g, i) =>
        g.members.map(m => [m, placement.to[i]] as const),
      ),
    ),
    newShards: targets.filter(t => t !== MAIN_SHARD && !existing.includes(t)),
    allShards: targets.filter(t => t !== MAIN_SHARD),
    mainSelectorSet: sharded
      .filter(c => c.shard === MAIN_SHARD)
      .every(c => c.selector !== undefined),
  });

  const movedGroups = shardGroups.filter(g => g.moved).length;
  const plan: ShardingPlan = {
    cluster: input.cluster,
    instance: input.instance,
    operatorManaged: input.operatorManaged,
    shardKey: LABELS.shardKey,
    source,
    summary: summaryOf(
      shards,
      shardGroups,
      movedGroups,
      changes.labelChanges.length,
      source,
    ),
    shards,
    groups: [...shardGroups].sort((a, b) => compareText(a.name, b.name)),
    movedGroups,
    ...changes,
    notes: [...changes.notes],
  };
  if (source === 'estimate') {
    plan.estimateReason = `loads are estimated from intervals (rules §9) for ${[
      ...unmeasured,
    ]
      .sort()
      .map(key => {
        const [shard, component] = key.split('\n');
        return `${component} on ${shard} (${
          why.get(key) ?? NO_METRICS_REASON
        })`;
      })
      .join(', ')}`;
  }
  const oversized = shardGroups.filter(g => g.oversize);
  for (const g of oversized) plan.notes.push(`${g.name}: ${g.oversize}`);
  if (!fits(placement, targets)) {
    const busiest = [...shards].sort(
      (a, b) => b.utilisation - a.utilisation,
    )[0];
    plan.notes.push(
      `Even ${formatCount(shards.length - 1)} shards leave ${
        busiest.name
      } ${formatPercent(
        busiest.utilisation,
      )} busy: raise --concurrent of the shards' controllers too (the plan gives new shards the main controllers' --concurrent).`,
    );
  }
  return plan;
}

function summaryOf(
  shards: PlannedShard[],
  groups: ShardGroup[],
  moved: number,
  labels: number,
  source: CapacitySource,
): string {
  const busiest = [...shards].sort((a, b) => b.utilisation - a.utilisation)[0];
  const how = source === 'estimate' ? ' (estimated)' : '';
  const oversize = groups.filter(g => g.oversize).length;
  const tail =
    oversize > 0
      ? `; ${
          oversize === 1 ? '1 group is' : `${formatCount(oversize)} groups are`
        } bigger than one shard can hold`
      : '';
  if (shards.length === 1) {
    return `No sharding needed: main would be ${formatPercent(
      busiest.utilisation,
    )} busy${how} at its busiest controller${tail}.`;
  }
  const objects = groups
    .filter(g => g.moved)
    .reduce((s, g) => s + g.objects.length, 0);
  const names =
    shards.length <= 5
      ? shards.map(s => s.name).join(', ')
      : `${shards
          .slice(0, 3)
          .map(s => s.name)
          .join(', ')}, …, ${shards[shards.length - 1].name} (${
          shards.length
        } in all)`;
  return `Shard into ${names}: move ${formatCount(moved)} of ${formatCount(
    groups.length,
  )} groups (${formatCount(objects)} objects, ${formatCount(
    labels,
  )} labels to change); the busiest shard, ${
    busiest.name
  }, would be ${formatPercent(busiest.utilisation)} busy${how}${tail}.`;
}
