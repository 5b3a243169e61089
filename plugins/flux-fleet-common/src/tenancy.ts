/**
 * The tenancy boundary of a Flux object (rules §5): its tenant, the service account its apply runs as, whether
 * its instance locks down cross-namespace references, and how well all that holds (`enforced`, `partial`,
 * `none`) with reasons worded for people.
 */
import type { FluxObjectRecord } from './record';
import type {
  FluxController,
  Owner,
  TenancyBoundary,
  TenantMapping,
} from './types';
import {
  Enforcement,
  ENFORCEMENT_LEVELS,
  FLUX_OPERATOR,
  IMPERSONATING_KINDS,
  LABELS,
  LOCKDOWN_COMPONENTS,
} from './vocabulary';

/** The reasons a boundary gives, as shown to people. */
export const BOUNDARY_REASONS = {
  controllerIdentity:
    "runs as the controller's own identity (no spec.serviceAccountName and no --default-service-account)",
  crossNamespaceRefs:
    'cross-namespace references allowed (--no-cross-namespace-refs is off)',
  instanceWithoutLockdown:
    'cross-namespace references allowed in its instance (--no-cross-namespace-refs is off on its controllers)',
  orphan: 'no controller watches it',
  orphanWithoutServiceAccount: 'no spec.serviceAccountName',
  operator:
    'reconciled by the flux-operator, which has no --no-cross-namespace-refs lockdown',
  producer:
    'written by its producer, not reconciled by a Flux controller that could enforce a boundary',
} as const;

type CompiledMapping = Array<{
  tenant: string;
  namespaces: RegExp[];
  clusters?: ReadonlySet<string>;
}>;

const compiledMappings = new WeakMap<TenantMapping, CompiledMapping>();

function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .split('*')
    .map(part => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${escaped}$`);
}

function compile(mapping: TenantMapping): CompiledMapping {
  let compiled = compiledMappings.get(mapping);
  if (!compiled) {
    compiled = mapping.map(entry => ({
      tenant: entry.tenant,
      namespaces: (entry.namespaces ?? []).map(globToRegExp),
      clusters: entry.clusters ? new Set(entry.clusters) : undefined,
    }));
    compiledMappings.set(mapping, compiled);
  }
  return compiled;
}

/** The tenant the configured mapping gives a namespace of a cluster (first matching entry), or null. */
export function tenantFromMapping(
  mapping: TenantMapping | undefined,
  cluster: string,
  namespace: string,
): string | null {
  if (!mapping || mapping.length === 0) return null;
  for (const entry of compile(mapping)) {
    if (entry.clusters && !entry.clusters.has(cluster)) continue;
    if (entry.namespaces.some(re => re.test(namespace))) return entry.tenant;
  }
  return null;
}

/**
 * The tenant of an object (rules §5): label `toolkit.fluxcd.io/tenant` on the object, else on its namespace,
 * else the configured mapping, else null.
 */
export function tenantOf(
  record: Pick<FluxObjectRecord, 'cluster' | 'namespace' | 'labels'>,
  namespaceLabels: Readonly<Record<string, string>> | undefined,
  tenantMapping: TenantMapping | undefined,
): string | null {
  return (
    record.labels[LABELS.tenant] ??
    namespaceLabels?.[LABELS.tenant] ??
    tenantFromMapping(tenantMapping, record.cluster, record.namespace)
  );
}

/**
 * Whether an instance locks down cross-namespace references: every controller of it that has
 * `--no-cross-namespace-refs` runs with it (and it has at least one).
 */
export function instanceLockdown(
  instance: string,
  controllers: readonly FluxController[],
): boolean {
  const lockable = controllers.filter(
    c => c.instance === instance && LOCKDOWN_COMPONENTS.includes(c.component),
  );
  return lockable.length > 0 && lockable.every(c => c.noCrossNamespaceRefs);
}

/**
 * Whether a controller's objects are locked down: its own `--no-cross-namespace-refs`, or, for controllers that
 * have no such flag (source-controller, source-watcher: their objects cannot reference other namespaces),
 * whether every controller of its instance that has the flag runs with it.
 */
export function lockdownOf(
  controller: FluxController,
  controllers: readonly FluxController[],
): boolean {
  return LOCKDOWN_COMPONENTS.includes(controller.component)
    ? controller.noCrossNamespaceRefs
    : instanceLockdown(controller.instance, controllers);
}

const RANK: Readonly<Record<Enforcement, number>> = Object.fromEntries(
  ENFORCEMENT_LEVELS.map((level, i) => [level, i]),
) as Record<Enforcement, number>;

/** The boundary an object would have under one controller. */
function boundaryUnder(
  record: FluxObjectRecord,
  tenant: string | null,
  instance: string | null,
  controller: FluxController,
  controllers: readonly FluxController[],
): TenancyBoundary {
  const impersonating = IMPERSONATING_KINDS.includes(record.kind);
  const lockdown = lockdownOf(controller, controllers);
  const reasons: string[] = [];
  let serviceAccount: string | null = null;
  let serviceAccountSource: TenancyBoundary['serviceAccountSource'] = null;
  let enforcement: Enforcement;
  if (impersonating) {
    if (record.serviceAccountName) {
      serviceAccount = record.serviceAccountName;
      serviceAccountSource = 'object';
    } else if (controller.defaultServiceAccount) {
      serviceAccount = controller.defaultServiceAccount;
      serviceAccountSource = 'default';
    } else {
      serviceAccountSource = 'controller';
      reasons.push(BOUNDARY_REASONS.controllerIdentity);
    }
    if (!lockdown) reasons.push(BOUNDARY_REASONS.crossNamespaceRefs);
    // Both hold: enforced; one of the two: partial; neither: none.
    const held = (lockdown ? 1 : 0) + (serviceAccount !== null ? 1 : 0);
    enforcement = ENFORCEMENT_LEVELS[held];
  } else {
    if (!lockdown) {
      reasons.push(
        LOCKDOWN_COMPONENTS.includes(controller.component)
          ? BOUNDARY_REASONS.crossNamespaceRefs
          : BOUNDARY_REASONS.instanceWithoutLockdown,
      );
    }
    enforcement = lockdown ? 'enforced' : 'none';
  }
  return {
    cluster: record.cluster,
    instance,
    namespace: record.namespace,
    tenant,
    serviceAccount,
    serviceAccountSource,
    lockdown,
    enforcement,
    reasons,
  };
}

/** The boundary of an object no Flux controller reconciles (orphans, operator kinds, ExternalArtifact). */
function boundaryWithoutController(
  record: FluxObjectRecord,
  tenant: string | null,
  owner: Owner,
): TenancyBoundary {
  const impersonating = IMPERSONATING_KINDS.includes(record.kind);
  const reasons: string[] = [];
  let serviceAccount: string | null = null;
  let serviceAccountSource: TenancyBoundary['serviceAccountSource'] = null;
  if (owner.status === 'orphan') {
    reasons.push(BOUNDARY_REASONS.orphan);
  } else if (owner.controller === FLUX_OPERATOR) {
    reasons.push(BOUNDARY_REASONS.operator);
  } else {
    reasons.push(BOUNDARY_REASONS.producer);
  }
  let enforcement: Enforcement = 'none';
  if (impersonating) {
    // An orphan Kustomization or HelmRelease: lockdown counts as off, no default service account (rules §5).
    if (record.serviceAccountName) {
      serviceAccount = record.serviceAccountName;
      serviceAccountSource = 'object';
      enforcement = 'partial';
    } else {
      serviceAccountSource = 'controller';
      reasons.push(BOUNDARY_REASONS.orphanWithoutServiceAccount);
    }
  }
  return {
    cluster: record.cluster,
    instance: owner.instance,
    namespace: record.namespace,
    tenant,
    serviceAccount,
    serviceAccountSource,
    lockdown: false,
    enforcement,
    reasons,
  };
}

/**
 * The boundary of an object given its owner and tenant, with the controllers of its cluster. Contested objects
 * get the weakest boundary over their candidates (the first in instance, shard order when several are equally
 * weak), with a reason saying so.
 */
export function boundaryOf(
  record: FluxObjectRecord,
  owner: Owner,
  tenant: string | null,
  controllers: readonly FluxController[],
): TenancyBoundary {
  const find = (instance: string | null, name: string | null) =>
    instance === null || name === null
      ? undefined
      : controllers.find(c => c.instance === instance && c.name === name);

  if (owner.status === 'contested' && owner.candidates?.length) {
    let weakest: TenancyBoundary | undefined;
    for (const candidate of owner.candidates) {
      const controller = find(candidate.instance, candidate.controller);
      if (!controller) continue;
      const boundary = boundaryUnder(
        record,
        tenant,
        candidate.instance,
        controller,
        controllers,
      );
      if (!weakest || RANK[boundary.enforcement] < RANK[weakest.enforcement]) {
        weakest = boundary;
      }
    }
    if (weakest) {
      weakest.reasons.unshift(
        `reconciled by ${owner.candidates.length} controllers; the weakest boundary among them is shown (instance ${weakest.instance})`,
      );
      return weakest;
    }
  }
  const controller =
    owner.status === 'ok' ? find(owner.instance, owner.controller) : undefined;
  return controller
    ? boundaryUnder(record, tenant, owner.instance, controller, controllers)
    : boundaryWithoutController(record, tenant, owner);
}

/**
 * The tenancy boundary of an object (rules §5), from its owner, the controllers of its cluster, the labels of its
 * namespace and the configured tenant mapping.
 */
export function deriveTenancyBoundary(
  record: FluxObjectRecord,
  owner: Owner,
  controllers: readonly FluxController[],
  namespaceLabels: Readonly<Record<string, string>> | undefined,
  tenantMapping: TenantMapping | undefined,
): TenancyBoundary {
  return boundaryOf(
    record,
    owner,
    tenantOf(record, namespaceLabels, tenantMapping),
    controllers,
  );
}
