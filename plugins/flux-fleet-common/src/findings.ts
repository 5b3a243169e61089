/**
 * The findings of the fleet analysis (rules §8), one builder per type, each with a message that names the
 * cluster and every object involved.
 */
import { formatDuration } from './duration';
import { compareShardNames, compareText } from './order';
import type { FluxObjectRecord } from './record';
import { parseRfc3339 } from './state';
import type {
  ControllerLoad,
  Finding,
  FluxObjectRef,
  ObjectReference,
  Owner,
  ReconcileState,
  TenancyBoundary,
} from './types';
import {
  FINDING_SEVERITY,
  FINDING_TYPES,
  FindingType,
  isFluxKind,
} from './vocabulary';

/** `Kustomization team-payments/payments`. */
export function describeObject(ref: {
  kind: string;
  namespace: string;
  name: string;
}): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}

/** The ref of a record. */
export function refOf(record: FluxObjectRecord): FluxObjectRef {
  return {
    cluster: record.cluster,
    namespace: record.namespace,
    kind: record.kind,
    name: record.name,
  };
}

function related(
  cluster: string,
  refs: readonly ObjectReference[],
): FluxObjectRef[] {
  const result: FluxObjectRef[] = [];
  for (const ref of refs) {
    // A reference to a kind that is not a Flux kind (a typo) is named in the message only.
    if (isFluxKind(ref.kind)) {
      result.push({
        cluster,
        namespace: ref.namespace,
        kind: ref.kind,
        name: ref.name,
      });
    }
  }
  return result;
}

function finding(
  type: FindingType,
  object: FluxObjectRef,
  message: string,
  relatedRefs: FluxObjectRef[] = [],
): Finding {
  return {
    type,
    severity: FINDING_SEVERITY[type],
    object,
    message,
    related: relatedRefs,
  };
}

function where(record: FluxObjectRecord): string {
  return `${describeObject(record)} in cluster ${record.cluster}`;
}

function ownerText(owner: Owner): string {
  return `shard ${owner.shard} of instance ${owner.instance}`;
}

/** `orphan`: no controller watches the object. */
export function orphanFinding(record: FluxObjectRecord, why: string): Finding {
  return finding(
    'orphan',
    refOf(record),
    `${where(
      record,
    )} is reconciled by no controller, so nothing applies its changes: ${why}`,
  );
}

/** `contested`: several controllers reconcile the object (double reconcile). */
export function contestedFinding(
  record: FluxObjectRecord,
  owner: Owner,
): Finding {
  const candidates = (owner.candidates ?? [])
    .map(c => `${c.instance}/${c.controller} (shard ${c.shard})`)
    .join(', ');
  return finding(
    'contested',
    refOf(record),
    `${where(record)} is reconciled by ${
      owner.candidates?.length ?? 0
    } controllers at once, which fight over it: ${candidates}`,
  );
}

/** `cross-shard-reference`: the object's source is reconciled by another instance or shard. */
export function crossShardFinding(
  record: FluxObjectRecord,
  owner: Owner,
  source: FluxObjectRecord,
  sourceOwner: Owner,
): Finding {
  return finding(
    'cross-shard-reference',
    refOf(record),
    `${where(record)} (${ownerText(owner)}) uses ${describeObject(
      source,
    )}, which is reconciled by ${ownerText(
      sourceOwner,
    )}; a source and its consumers belong on the same shard`,
    [refOf(source)],
  );
}

/** `cross-tenant-reference`: the object references an object of another tenant. */
export function crossTenantFinding(
  record: FluxObjectRecord,
  tenant: string,
  target: FluxObjectRecord,
  targetTenant: string,
  role: 'source' | 'dependency',
): Finding {
  const verb = role === 'source' ? 'uses' : 'depends on';
  return finding(
    'cross-tenant-reference',
    refOf(record),
    `${where(record)} of tenant ${tenant} ${verb} ${describeObject(
      target,
    )} of tenant ${targetTenant}`,
    [refOf(target)],
  );
}

/** `boundary-none`: a tenant's Kustomization or HelmRelease runs with no boundary enforced. */
export function boundaryNoneFinding(
  record: FluxObjectRecord,
  boundary: TenancyBoundary,
): Finding {
  return finding(
    'boundary-none',
    refOf(record),
    `${where(record)} of tenant ${
      boundary.tenant
    } runs with no tenancy boundary: ${boundary.reasons.join('; ')}`,
  );
}

/** `reconcile-not-handled`, when the state says so (rules §2); depends on the object alone. */
export function reconcileNotHandledFinding(
  record: FluxObjectRecord,
  state: ReconcileState,
  now: Date | number,
): Finding | undefined {
  if (!state.reconcileNotHandled || state.reconcileRequestedAt === undefined) {
    return undefined;
  }
  const at = parseRfc3339(state.reconcileRequestedAt);
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const age =
    at === undefined
      ? `with '${state.reconcileRequestedAt}' (not a time)`
      : `at ${state.reconcileRequestedAt}, ${formatDuration(nowMs - at)} ago`;
  const handled = state.lastHandledReconcileAt
    ? `the last request handled was ${state.lastHandledReconcileAt}`
    : 'no request was ever handled';
  return finding(
    'reconcile-not-handled',
    refOf(record),
    `${where(
      record,
    )}: a reconcile was requested ${age} and its controller has not handled it; ${handled}`,
  );
}

/** `dependency-cycle`: the object is on a `dependsOn` cycle. */
export function dependencyCycleFinding(
  record: FluxObjectRecord,
  cycle: readonly FluxObjectRecord[],
): Finding {
  const others = cycle.filter(r => r !== record);
  const path = [...cycle, cycle[0]]
    .map(r => `${r.namespace}/${r.name}`)
    .join(' → ');
  return finding(
    'dependency-cycle',
    refOf(record),
    others.length === 0
      ? `${where(record)} depends on itself, so it can never become ready`
      : `${where(
          record,
        )} is on a dependsOn cycle, so none of it can become ready: ${path}`,
    others.map(refOf),
  );
}

/** `missing-dependency`: a `dependsOn` target does not exist. */
export function missingDependencyFinding(
  record: FluxObjectRecord,
  target: ObjectReference,
): Finding {
  return finding(
    'missing-dependency',
    refOf(record),
    `${where(record)} depends on ${describeObject(
      target,
    )}, which does not exist in the cluster`,
    related(record.cluster, [target]),
  );
}

/** `missing-source`: the object's source (or image repository, or provider) does not exist. */
export function missingSourceFinding(
  record: FluxObjectRecord,
  target: ObjectReference,
  field: string,
): Finding {
  const kindNote = isFluxKind(target.kind)
    ? ''
    : ` (${target.kind} is not a Flux kind)`;
  return finding(
    'missing-source',
    refOf(record),
    `${where(record)} uses ${describeObject(
      target,
    )} (${field}), which does not exist in the cluster${kindNote}`,
    related(record.cluster, [target]),
  );
}

/**
 * `shard-over-capacity`: a shard's busiest controller is above 100 %, measured from its metrics when `measured`
 * (rules §12), else estimated (rules §9).
 */
export function shardOverCapacityFinding(busiest: ControllerLoad, measured = false): Finding {
  const percent = Math.round(busiest.utilisation * 100);
  const how = measured
    ? 'measured: busy workers ÷ concurrent from its metrics'
    : 'estimate: Σ reconcile duration ÷ interval ÷ concurrent';
  return {
    type: 'shard-over-capacity',
    severity: FINDING_SEVERITY['shard-over-capacity'],
    shard: {
      cluster: busiest.cluster,
      instance: busiest.instance,
      shard: busiest.shard,
    },
    message:
      `Shard ${busiest.shard} of instance ${busiest.instance} in cluster ${busiest.cluster} is at ${
        measured ? 'a measured' : 'an estimated'
      } ` +
      `${percent} % of capacity: ${busiest.controller} reconciles ${busiest.objectCount} objects with ` +
      `--concurrent=${busiest.concurrent} (${how})`,
    related: [],
  };
}

const TYPE_ORDER: ReadonlyMap<FindingType, number> = new Map(
  FINDING_TYPES.map((type, i) => [type, i]),
);

/** Findings in a stable order: by object (cluster, namespace, kind, name), then type; shard findings last. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.object && b.object) {
    return (
      compareText(a.object.cluster, b.object.cluster) ||
      compareText(a.object.namespace, b.object.namespace) ||
      compareText(a.object.kind, b.object.kind) ||
      compareText(a.object.name, b.object.name) ||
      TYPE_ORDER.get(a.type)! - TYPE_ORDER.get(b.type)! ||
      compareText(a.message, b.message)
    );
  }
  if (a.object) return -1;
  if (b.object) return 1;
  return (
    compareText(a.shard?.cluster ?? '', b.shard?.cluster ?? '') ||
    compareText(a.shard?.instance ?? '', b.shard?.instance ?? '') ||
    compareShardNames(a.shard?.shard ?? '', b.shard?.shard ?? '') ||
    TYPE_ORDER.get(a.type)! - TYPE_ORDER.get(b.type)!
  );
}
