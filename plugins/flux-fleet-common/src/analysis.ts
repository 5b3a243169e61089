/**
 * The analysis of one cluster: every derived answer about each of its Flux objects (state, owner, boundary,
 * service, findings), the cluster's findings (rules §8), and its instances and shards with their load (rules
 * §9). Linear in the number of objects and references; equal owners and boundaries are shared between objects.
 *
 * What depends on what, for re-deriving only what changed:
 * - the state and the `reconcile-not-handled` finding depend on the object alone: on a status change, call
 *   {@link deriveReconcileState} and {@link reconcileNotHandledFinding};
 * - owner, boundary and service depend on the cluster's controllers, namespaces, workloads and tenant mapping:
 *   {@link deriveObject} answers them for one object with a {@link ClusterContext};
 * - reference findings (cross-shard, cross-tenant, missing, cycles), instances, shards and load depend on every
 *   object of the cluster: call {@link analyseCluster} again when structure changes.
 */
import type { FluxCrdRecord } from './apiVersionFacts';
import { compareControllers } from './controller';
import { deriveInstanceFluxVersion, operatorFluxVersion } from './fluxVersion';
import { deprecatedApiFinding } from './upgradeReadiness';
import { instanceVersionFindings } from './versionFindings';
import { findCycles } from './dependencyCycles';
import {
  boundaryNoneFinding,
  compareFindings,
  contestedFinding,
  crossShardFinding,
  crossTenantFinding,
  dependencyCycleFinding,
  missingDependencyFinding,
  missingSourceFinding,
  orphanFinding,
  reconcileNotHandledFinding,
  refOf,
  shardOverCapacityFinding,
} from './findings';
import { reconcileShareOf, utilisationOf } from './load';
import { compareShardNames, compareText } from './order';
import { createOwnerResolver, OwnerResolver } from './owner';
import { isSuspended } from './record';
import type { FluxObjectRecord, NamespaceRecord } from './record';
import { referenceKey, referencesOf } from './references';
import { deriveService, WorkloadLookup } from './serviceLink';
import { deriveReconcileState, reconcileNotHandledFrom } from './state';
import { boundaryOf, instanceLockdown, tenantOf } from './tenancy';
import type { InstanceSummary, ShardSummary } from './api';
import type {
  ControllerLoad,
  Finding,
  FluxController,
  Owner,
  ReconcileState,
  TenancyBoundary,
  TenantMapping,
} from './types';
import {
  ControllerComponent,
  FluxKind,
  IMPERSONATING_KINDS,
  KIND_RECONCILED_BY,
  ReconcileStateName,
} from './vocabulary';

/** Finds the namespaces of a cluster by name; a `Map` will do. */
export interface NamespaceLookup {
  get(name: string): NamespaceRecord | undefined;
}

/** What the derivations of one cluster need besides its objects. */
export interface ClusterContextInput {
  cluster: string;
  /** Its controllers (`controllerFromDeployment`). */
  controllers: readonly FluxController[];
  /** Its namespaces, for tenant labels. */
  namespaces?: NamespaceLookup;
  /** Its workloads by inventory id, for services. */
  workloads?: WorkloadLookup;
  /** The configured namespace → tenant mapping. */
  tenantMapping?: TenantMapping;
  /** Its Flux CRDs (`normalizeCrd`), for upgrade readiness (rules §10); none known when absent. */
  crds?: readonly FluxCrdRecord[];
}

/** A cluster prepared for deriving many objects: controllers sorted and parsed once, answers shared. */
export interface ClusterContext extends ClusterContextInput {
  owners: OwnerResolver;
  /** Shared boundaries by owner, then by what else they depend on. */
  boundaries: Map<Owner, Map<string, TenancyBoundary>>;
}

/** Everything derived about one Flux object. */
export interface ObjectDerivation {
  state: ReconcileState;
  /** Shared between objects with the same owner: do not change it. */
  owner: Owner;
  /** Shared between objects with the same boundary: do not change it. */
  boundary: TenancyBoundary;
  service: string | null;
  /** Its findings in a stable order; empty when there are none. */
  findings: Finding[];
}

/** The input of {@link analyseCluster}. */
export interface ClusterAnalysisInput extends ClusterContextInput {
  /** Every Flux object of the cluster. */
  objects: Iterable<FluxObjectRecord>;
  now: Date | number;
  /**
   * Measured utilisation of controllers (busy workers ÷ concurrent, rules §12), by `instance/deployment`: the
   * `shard-over-capacity` finding uses it instead of the §9 estimate when a controller has one. Shard summaries
   * keep the estimate.
   */
  measuredUtilisation?: ReadonlyMap<string, number>;
}

/**
 * What of measured utilisation an analysis's output depends on (the `shard-over-capacity` finding alone), given the
 * estimated loads of that analysis: a controller's measurement replaces its estimate, and only a utilisation over
 * capacity makes a finding. So a controller counts with its percent when measured over capacity, with "within"
 * when measured within capacity while its estimate is over (the measurement takes the estimate's finding away),
 * and not at all otherwise (measured within and estimated within, not measured, or not a controller the analysis
 * knows: no finding either way). Equal signatures over the same loads, equal analyses: an index brings a
 * cluster's findings up to new measurements (`withMeasuredUtilisation`) only when its signature changes (rules
 * §2a). The first measurements after a start change no signature of a cluster whose controllers are all within
 * capacity: at fleet L every cluster was analysed again once when they came, 9 s of CPU in tasks of 70-200 ms each
 * over the next minute (profile of 2026-12-05).
 */
export function measuredUtilisationSignature(
  measured: ReadonlyMap<string, number> | undefined,
  loads: readonly ControllerLoad[],
): string {
  if (!measured || measured.size === 0) return '';
  const parts: string[] = [];
  for (const load of loads) {
    const id = controllerId(load.instance, load.controller);
    const u = measured.get(id);
    if (u === undefined) continue;
    if (u > 1) parts.push(`${id}=${Math.round(u * 100)}`);
    else if (load.utilisation > 1) parts.push(`${id}=within`);
  }
  return parts.sort().join(',');
}

/** The analysis of one cluster. */
export interface ClusterAnalysis {
  cluster: string;
  /** Per object key, in input order. */
  objects: Map<string, ObjectDerivation>;
  /** Every finding of the cluster (its objects' and its shards'), in a stable order. */
  findings: Finding[];
  instances: InstanceSummary[];
  shards: ShardSummary[];
  /** Estimated load of each controller, in instance, shard, name order. */
  loads: ControllerLoad[];
  /**
   * The earliest time after `now` at which this analysis would come out differently by time alone (a reconcile
   * request becoming "not handled", rules §2a); undefined when none would.
   */
  changesByTimeAt?: number;
}

/** A shard of a cluster as a map key: shard names are per Flux instance. */
function shardKey(instance: string, shard: string): string {
  return `${instance}\n${shard}`;
}

/**
 * The `shard-over-capacity` findings of a cluster (rules §9, §12): per shard, its busiest controller by measured
 * utilisation where measured, else estimated, when over capacity. `loads` are an analysis's (in its order).
 */
export function shardOverCapacityFindings(
  loads: readonly ControllerLoad[],
  measured: ReadonlyMap<string, number> | undefined,
): Finding[] {
  const overloaded = new Map<string, { load: ControllerLoad; utilisation: number; measured: boolean }>();
  for (const load of loads) {
    const m = measured?.get(controllerId(load.instance, load.controller));
    const utilisation = m ?? load.utilisation;
    const key = shardKey(load.instance, load.shard);
    if (utilisation > 1 && utilisation > (overloaded.get(key)?.utilisation ?? 1)) {
      overloaded.set(key, { load, utilisation, measured: m !== undefined });
    }
  }
  return [...overloaded.values()].map(o => shardOverCapacityFinding({ ...o.load, utilisation: o.utilisation }, o.measured));
}

/**
 * A cluster's findings as its analysis would give them with other measurements: the `shard-over-capacity`
 * findings are the only ones measured utilisation enters (rules §2a), so they are made again from the analysis's
 * loads and the rest kept. What an index does when only the measurements changed, instead of analysing again.
 */
export function withMeasuredUtilisation(
  analysis: { findings: readonly Finding[]; loads: readonly ControllerLoad[] },
  measured: ReadonlyMap<string, number> | undefined,
): Finding[] {
  const findings = analysis.findings.filter(f => f.type !== 'shard-over-capacity');
  findings.push(...shardOverCapacityFindings(analysis.loads, measured));
  return findings.sort(compareFindings);
}

const NO_FINDINGS: Finding[] = Object.freeze([]) as unknown as Finding[];

/** `findings` with one more; the shared empty list is never changed. */
function withFinding(findings: Finding[], finding: Finding): Finding[] {
  if (findings === NO_FINDINGS) return [finding];
  findings.push(finding);
  return findings;
}

/** Prepares a cluster for {@link deriveObject}. */
export function createClusterContext(
  input: ClusterContextInput,
): ClusterContext {
  return {
    ...input,
    owners: createOwnerResolver(input.controllers),
    boundaries: new Map(),
  };
}

function sharedBoundary(
  record: FluxObjectRecord,
  owner: Owner,
  tenant: string | null,
  context: ClusterContext,
): TenancyBoundary {
  let byOwner = context.boundaries.get(owner);
  if (!byOwner) {
    byOwner = new Map();
    context.boundaries.set(owner, byOwner);
  }
  // What a boundary depends on besides the owner: whether the kind impersonates, its service account, its
  // namespace and tenant.
  const impersonating = IMPERSONATING_KINDS.includes(record.kind);
  const key = `${impersonating ? record.serviceAccountName ?? '' : '-'}\n${
    record.namespace
  }\n${tenant ?? ''}`;
  let boundary = byOwner.get(key);
  if (!boundary) {
    boundary = boundaryOf(record, owner, tenant, context.controllers);
    Object.freeze(boundary.reasons);
    boundary = Object.freeze(boundary);
    byOwner.set(key, boundary);
  }
  return boundary;
}

/**
 * The state, owner, boundary and service of one object, with the findings about it alone (orphan, contested,
 * boundary-none, reconcile-not-handled). Reference findings need the whole cluster: see {@link analyseCluster}.
 */
export function deriveObject(
  record: FluxObjectRecord,
  context: ClusterContext,
  now: Date | number,
): ObjectDerivation {
  const state = deriveReconcileState(record, now);
  const owner = context.owners.ownerOf(record);
  const tenant = tenantOf(
    record,
    context.namespaces?.get(record.namespace)?.labels,
    context.tenantMapping,
  );
  const boundary = sharedBoundary(record, owner, tenant, context);
  const service = deriveService(record, context.workloads);

  let findings = NO_FINDINGS;
  if (owner.status === 'orphan') {
    findings = [orphanFinding(record, context.owners.whyOrphan(record))];
  } else if (owner.status === 'contested') {
    findings = [contestedFinding(record, owner)];
  }
  if (
    boundary.tenant !== null &&
    boundary.enforcement === 'none' &&
    IMPERSONATING_KINDS.includes(record.kind)
  ) {
    findings = withFinding(findings, boundaryNoneFinding(record, boundary));
  }
  if (state.reconcileNotHandled) {
    const notHandled = reconcileNotHandledFinding(record, state, now);
    if (notHandled) findings = withFinding(findings, notHandled);
  }
  if (record.writtenApiVersion !== undefined) {
    const deprecated = deprecatedApiFinding(
      refOf(record),
      record.writtenApiVersion,
    );
    if (deprecated) findings = withFinding(findings, deprecated);
  }
  return { state, owner, boundary, service, findings };
}

/** Whether the kind of an object is reconciled by a Flux controller (not the operator, not its producer). */
function reconciledByController(kind: FluxKind): boolean {
  const by = KIND_RECONCILED_BY[kind];
  return by !== 'flux-operator' && by !== 'none';
}

interface LoadAccumulator {
  controller: FluxController;
  shareSum: number;
  objectCount: number;
}

function controllerId(instance: string, name: string): string {
  return `${instance}/${name}`;
}

/** Analyses one cluster (see the module comment for what depends on what). Never throws on odd records. */
export function analyseCluster(input: ClusterAnalysisInput): ClusterAnalysis {
  const context = createClusterContext(input);
  const { cluster, now } = input;
  const records: FluxObjectRecord[] = Array.from(input.objects);
  const index = new Map<string, number>();
  for (let i = 0; i < records.length; i++) index.set(records[i].key, i);

  const loads = new Map<string, LoadAccumulator>();
  for (const controller of input.controllers) {
    loads.set(controllerId(controller.instance, controller.name), {
      controller,
      shareSum: 0,
      objectCount: 0,
    });
  }
  // Owners are shared, so the controllers an owner loads are looked up once per owner.
  const loadedBy = new Map<Owner, LoadAccumulator[]>();
  const loadsOf = (owner: Owner): LoadAccumulator[] => {
    let list = loadedBy.get(owner);
    if (!list) {
      const owners =
        owner.status === 'ok' &&
        owner.instance !== null &&
        owner.controller !== null
          ? [{ instance: owner.instance, controller: owner.controller }]
          : owner.candidates ?? [];
      list = owners
        .map(o => loads.get(controllerId(o.instance, o.controller)))
        .filter((l): l is LoadAccumulator => l !== undefined);
      loadedBy.set(owner, list);
    }
    return list;
  };

  // Pass 1: each object on its own, and the load it puts on its controllers.
  const derivations: ObjectDerivation[] = new Array(records.length);
  const nowMs = typeof now === 'number' ? now : now.getTime();
  let changesByTimeAt: number | undefined;
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    const d = deriveObject(record, context, now);
    derivations[i] = d;
    const from = reconcileNotHandledFrom(record);
    if (from !== undefined && from > nowMs && from < (changesByTimeAt ?? Infinity)) changesByTimeAt = from;
    if (isSuspended(record) || !reconciledByController(record.kind)) continue;
    const targets = loadsOf(d.owner);
    if (targets.length === 0) continue;
    const share = reconcileShareOf(record);
    for (const load of targets) {
      load.shareSum += share;
      load.objectCount++;
    }
  }

  // Pass 2: references between objects (rules §7, §8).
  const withDependencies: number[] = [];
  const dependencyTargets = new Map<number, number[]>();
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    if (record.sourceRef === undefined && record.dependsOn === undefined)
      continue;
    const own = derivations[i];
    for (const ref of referencesOf(record)) {
      const t = index.get(referenceKey(cluster, ref));
      if (t === undefined) {
        own.findings = withFinding(
          own.findings,
          ref.role === 'source'
            ? missingSourceFinding(record, ref, ref.field)
            : missingDependencyFinding(record, ref),
        );
        continue;
      }
      const target = records[t];
      const other = derivations[t];
      if (ref.role === 'dependency') {
        const list = dependencyTargets.get(i);
        if (list) list.push(t);
        else {
          dependencyTargets.set(i, [t]);
          withDependencies.push(i);
        }
      } else if (
        own.owner.status === 'ok' &&
        other.owner.status === 'ok' &&
        (own.owner.instance !== other.owner.instance ||
          own.owner.shard !== other.owner.shard) &&
        reconciledByController(record.kind) &&
        reconciledByController(target.kind)
      ) {
        own.findings = withFinding(
          own.findings,
          crossShardFinding(record, own.owner, target, other.owner),
        );
      }
      const tenant = own.boundary.tenant;
      const targetTenant = other.boundary.tenant;
      if (tenant !== null && targetTenant !== null && tenant !== targetTenant) {
        own.findings = withFinding(
          own.findings,
          crossTenantFinding(record, tenant, target, targetTenant, ref.role),
        );
      }
    }
  }
  for (const cycle of findCycles(
    withDependencies,
    i => dependencyTargets.get(i) ?? [],
  )) {
    const members = cycle.map(i => records[i]);
    for (const i of cycle) {
      derivations[i].findings = withFinding(
        derivations[i].findings,
        dependencyCycleFinding(records[i], members),
      );
    }
  }

  // Instances, shards and load.
  const controllerLoads = [...loads.values()]
    .sort((a, b) => compareControllers(a.controller, b.controller))
    .map(
      ({ controller, shareSum, objectCount }): ControllerLoad => ({
        cluster,
        instance: controller.instance,
        shard: controller.shard,
        controller: controller.name,
        objectCount,
        concurrent: controller.concurrent,
        utilisation: utilisationOf(shareSum, controller.concurrent),
      }),
    );
  const { instances, shards, shardFindings } = summarise(
    cluster,
    input.controllers,
    records,
    derivations,
    controllerLoads,
    input.measuredUtilisation,
  );
  shardFindings.push(...instanceVersionFindings(instances, input.crds));

  const objects = new Map<string, ObjectDerivation>();
  const findings: Finding[] = [];
  for (let i = 0; i < records.length; i++) {
    const d = derivations[i];
    objects.set(records[i].key, d);
    if (d.findings.length > 1) d.findings.sort(compareFindings);
    for (const f of d.findings) findings.push(f);
  }
  findings.push(...shardFindings);
  findings.sort(compareFindings);

  return {
    cluster,
    objects,
    findings,
    instances,
    shards,
    loads: controllerLoads,
    ...(changesByTimeAt !== undefined && { changesByTimeAt }),
  };
}

/** The default service account an instance gives: the one its kustomize- and helm-controllers agree on. */
function instanceDefaultServiceAccount(
  controllers: FluxController[],
): string | undefined {
  const applying = controllers.filter(
    c =>
      c.component === 'kustomize-controller' ||
      c.component === 'helm-controller',
  );
  const values = new Set(applying.map(c => c.defaultServiceAccount));
  return values.size === 1 ? [...values][0] : undefined;
}

function summarise(
  cluster: string,
  controllers: readonly FluxController[],
  records: FluxObjectRecord[],
  derivations: ObjectDerivation[],
  loads: ControllerLoad[],
  measuredUtilisation: ReadonlyMap<string, number> | undefined,
): {
  instances: InstanceSummary[];
  shards: ShardSummary[];
  shardFindings: Finding[];
} {
  const sorted = [...controllers].sort(compareControllers);
  const byInstance = new Map<string, FluxController[]>();
  for (const c of sorted) {
    const list = byInstance.get(c.instance) ?? [];
    list.push(c);
    byInstance.set(c.instance, list);
  }

  const shards = new Map<string, ShardSummary>();
  for (const c of sorted) {
    const key = shardKey(c.instance, c.shard);
    let shard = shards.get(key);
    if (!shard) {
      shard = {
        cluster,
        instance: c.instance,
        name: c.shard,
        ...(c.selector !== undefined ? { selector: c.selector } : {}),
        controllers: [],
        objectCount: 0,
        countsByKind: {},
        countsByState: {},
        utilisation: 0,
      };
      shards.set(key, shard);
    }
    shard.controllers.push(c.name);
  }

  const instanceCounts = new Map<string, number>();
  const fluxInstances = new Map<string, FluxObjectRecord>();
  /** The operator's FluxReport of each instance namespace: its version when the FluxInstance states none yet. */
  const fluxReports = new Map<string, FluxObjectRecord>();
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    const { owner, state } = derivations[i];
    if (record.kind === 'FluxInstance' || record.kind === 'FluxReport') {
      const byNamespace = record.kind === 'FluxInstance' ? fluxInstances : fluxReports;
      const known = byNamespace.get(record.namespace);
      if (known === undefined || compareText(record.name, known.name) < 0) {
        byNamespace.set(record.namespace, record);
      }
    }
    if (owner.status !== 'ok' || owner.instance === null) continue;
    instanceCounts.set(
      owner.instance,
      (instanceCounts.get(owner.instance) ?? 0) + 1,
    );
    if (owner.shard === null) continue;
    const shard = shards.get(shardKey(owner.instance, owner.shard));
    if (!shard) continue;
    shard.objectCount++;
    const kind = record.kind as FluxKind;
    shard.countsByKind[kind] = (shard.countsByKind[kind] ?? 0) + 1;
    const name = state.state as ReconcileStateName;
    shard.countsByState[name] = (shard.countsByState[name] ?? 0) + 1;
  }

  const shardFindings: Finding[] = [];
  const busiest = new Map<string, ControllerLoad>();
  for (const load of loads) {
    const key = shardKey(load.instance, load.shard);
    const best = busiest.get(key);
    if (!best || load.utilisation > best.utilisation) busiest.set(key, load);
  }
  for (const [key, load] of busiest) {
    const shard = shards.get(key);
    if (shard) shard.utilisation = load.utilisation;
  }
  shardFindings.push(...shardOverCapacityFindings(loads, measuredUtilisation));

  const shardList = [...shards.values()].sort(
    (a, b) =>
      compareText(a.instance, b.instance) || compareShardNames(a.name, b.name),
  );
  for (const shard of shardList) shard.controllers.sort(compareText);

  const instances: InstanceSummary[] = [...byInstance.entries()].map(
    ([name, list]) => {
      const components = new Set<ControllerComponent>(
        list.map(c => c.component),
      );
      const summary: InstanceSummary = {
        cluster,
        name,
        operatorManaged: list.some(c => c.operatorManaged),
        watchAllNamespaces: list.every(c => c.watchAllNamespaces),
        lockdown: instanceLockdown(name, list),
        shards: [...new Set(list.map(c => c.shard))].sort(compareShardNames),
        controllers: list,
        objectCount: instanceCounts.get(name) ?? 0,
      };
      const fluxInstance = fluxInstances.get(name);
      if (fluxInstance !== undefined) summary.fluxInstance = fluxInstance.name;
      const { version, source } = deriveInstanceFluxVersion(
        list,
        operatorFluxVersion(fluxInstance?.revision) ??
          operatorFluxVersion(fluxReports.get(name)?.revision),
      );
      if (version !== undefined) summary.version = version;
      if (source !== undefined) summary.versionSource = source;
      if (
        components.has('kustomize-controller') ||
        components.has('helm-controller')
      ) {
        const sa = instanceDefaultServiceAccount(list);
        if (sa !== undefined) summary.defaultServiceAccount = sa;
      }
      return summary;
    },
  );
  instances.sort((a, b) => compareText(a.name, b.name));

  return { instances, shards: shardList, shardFindings };
}
