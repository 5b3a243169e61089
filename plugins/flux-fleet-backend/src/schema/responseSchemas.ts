/**
 * The shapes the API answers with, as zod schemas: the source of the OpenAPI document's components, and checked
 * against the TypeScript types of `-common`'s `api.ts` at compile time (each is declared as a `z.ZodType` of its
 * type), so the schema cannot drift from what the code serves.
 */
import {
  ActionResult,
  ClusterHealth,
  ENFORCEMENT_LEVELS,
  EntityClusterHealth,
  EntityView,
  MalformedObject,
  Finding,
  FINDING_TYPES,
  FLUX_KINDS,
  FleetObject,
  FleetObjectDetail,
  FleetSummary,
  FluxKind,
  InstanceSummary,
  OWNER_STATUSES,
  RECONCILE_STATES,
  ShardSummary,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { z } from 'zod/v4';

/** Every named schema of the API: the OpenAPI document's components. */
export const apiSchemas = z.registry<{ id: string }>();

const fluxKind = z
  .enum(FLUX_KINDS as unknown as [FluxKind, ...FluxKind[]])
  .register(apiSchemas, { id: 'FluxKind' });
const stateName = z.enum(RECONCILE_STATES).register(apiSchemas, { id: 'ReconcileStateName' });
const findingType = z.enum(FINDING_TYPES).register(apiSchemas, { id: 'FindingType' });
const enforcement = z.enum(ENFORCEMENT_LEVELS).register(apiSchemas, { id: 'Enforcement' });
const time = z.string().describe('RFC 3339 time');

function countsBy<K extends z.ZodEnum<any>>(keys: K) {
  return z.partialRecord(keys, z.number().int());
}

export const objectRef = z
  .object({
    cluster: z.string(),
    namespace: z.string(),
    kind: fluxKind,
    name: z.string(),
  })
  .register(apiSchemas, { id: 'FluxObjectRef' });

const reference = z
  .object({ kind: z.string(), namespace: z.string(), name: z.string() })
  .register(apiSchemas, { id: 'ObjectReference' });

export const clusterHealthSchema = z
  .object({
    name: z.string(),
    status: z.enum(['synced', 'syncing', 'lagging', 'restored', 'unreachable', 'unauthorized']),
    synced: z.boolean(),
    objectCount: z.number().int(),
    countsByKind: countsBy(fluxKind),
    lastEventAt: time.optional(),
    lagMs: z.number().optional(),
    behind: z
      .array(
        z.object({
          watch: z.string(),
          reason: z.enum(['listing', 'relisting', 'backoff', 'throttled', 'reconnecting', 'replaying', 'analysing']),
          lagMs: z.number(),
        }),
      )
      .optional()
      .describe('the watches behind and why, longest first (rules §15)'),
    unreachableSince: time.optional(),
    lastError: z.string().optional(),
    fluxVersions: z.array(z.string()),
    servedVersions: z.record(z.string(), z.string()),
    readOnly: z.boolean().optional(),
    malformedCount: z.number().int().optional().describe('objects malformed as read (GET /malformed?cluster= lists them)'),
    environment: z
      .string()
      .optional()
      .describe('as configured, else the label flux-fleet.io/environment on kube-system or a Flux instance namespace (rules §11)'),
    environmentSource: z
      .discriminatedUnion('from', [
        z.object({ from: z.literal('config') }),
        z.object({ from: z.literal('label'), namespace: z.string() }),
      ])
      .optional(),
  })
  .register(apiSchemas, { id: 'ClusterHealth' }) satisfies z.ZodType<ClusterHealth>;

export const entityClusterHealthSchema = clusterHealthSchema
  .omit({ objectCount: true, countsByKind: true, fluxVersions: true, servedVersions: true, malformedCount: true })
  .describe("a cluster's health as GET /clusters answers it, without its fleet-wide counts and versions")
  .register(apiSchemas, { id: 'EntityClusterHealth' }) satisfies z.ZodType<EntityClusterHealth>;

const reconcileState = z
  .object({
    state: stateName,
    reason: z.string().optional(),
    message: z.string().optional(),
    revision: z.string().optional(),
    attemptedRevision: z.string().optional(),
    since: time.optional(),
    blockedBy: reference.optional(),
    reconcileRequestedAt: z.string().optional(),
    lastHandledReconcileAt: z.string().optional(),
    reconcileNotHandled: z.boolean().optional(),
  })
  .register(apiSchemas, { id: 'ReconcileState' });

const owner = z
  .object({
    status: z.enum(OWNER_STATUSES),
    instance: z.string().nullable(),
    shard: z.string().nullable(),
    controller: z.string().nullable(),
    candidates: z
      .array(z.object({ instance: z.string(), shard: z.string(), controller: z.string() }))
      .optional(),
  })
  .register(apiSchemas, { id: 'Owner' });

const boundary = z
  .object({
    cluster: z.string(),
    instance: z.string().nullable(),
    namespace: z.string(),
    tenant: z.string().nullable(),
    serviceAccount: z.string().nullable(),
    serviceAccountSource: z.enum(['object', 'default', 'controller']).nullable(),
    lockdown: z.boolean(),
    enforcement,
    reasons: z.array(z.string()),
  })
  .register(apiSchemas, { id: 'TenancyBoundary' });

export const fleetObjectSchema = z
  .object({
    key: z.string().describe('cluster/namespace/kind/name'),
    ref: objectRef,
    apiVersion: z.string(),
    labels: z.record(z.string(), z.string()),
    state: reconcileState,
    stale: z.boolean(),
    staleSince: time.optional(),
    owner,
    boundary,
    service: z.string().nullable(),
    suspended: z.boolean(),
    interval: z.string().optional(),
    sourceRef: reference.optional(),
    sourceUrl: z.string().optional(),
    url: z.string().optional(),
    dependsOn: z.array(reference),
    findings: z.array(findingType),
    updatedAt: time,
    problems: z
      .array(z.string())
      .optional()
      .describe('what was malformed in the object as served (fields ignored, messages cut)'),
  })
  .register(apiSchemas, { id: 'FleetObject' }) satisfies z.ZodType<FleetObject>;

export const findingSchema = z
  .object({
    type: findingType,
    severity: z.enum(['error', 'warning', 'info']),
    object: objectRef.optional(),
    shard: z
      .object({ cluster: z.string(), instance: z.string(), shard: z.string() })
      .optional(),
    instance: z
      .object({ cluster: z.string(), instance: z.string() })
      .optional()
      .describe('for findings about a whole instance (mixed-versions, upgrade-blocked)'),
    message: z.string(),
    related: z.array(objectRef),
  })
  .register(apiSchemas, { id: 'Finding' }) satisfies z.ZodType<Finding>;

const dependencyStep = z
  .object({
    ref: objectRef,
    depth: z.number().int(),
    state: stateName.nullable(),
    reason: z.string().optional(),
    message: z.string().optional(),
  })
  .register(apiSchemas, { id: 'DependencyStep' });

export const fleetObjectDetailSchema = fleetObjectSchema
  .extend({
    dependencies: z.array(dependencyStep),
    rootCause: dependencyStep.optional(),
    inventory: z.array(
      z.object({
        id: z.string(),
        namespace: z.string(),
        name: z.string(),
        group: z.string(),
        kind: z.string(),
        version: z.string(),
      }),
    ),
    events: z.array(
      z.object({
        type: z.string(),
        reason: z.string(),
        message: z.string(),
        count: z.number().int(),
        lastTimestamp: time.optional(),
        source: z.string().optional(),
      }),
    ),
    findingDetails: z.array(findingSchema),
  })
  .register(apiSchemas, { id: 'FleetObjectDetail' }) satisfies z.ZodType<FleetObjectDetail>;

const controller = z
  .object({
    cluster: z.string(),
    instance: z.string(),
    name: z.string(),
    component: z.enum([
      'source-controller',
      'kustomize-controller',
      'helm-controller',
      'notification-controller',
      'image-reflector-controller',
      'image-automation-controller',
      'source-watcher',
    ]),
    shard: z.string(),
    selector: z.string().optional(),
    selectorError: z.string().optional(),
    watchAllNamespaces: z.boolean(),
    concurrent: z.number().int(),
    defaultServiceAccount: z.string().optional(),
    noCrossNamespaceRefs: z.boolean(),
    noRemoteBases: z.boolean(),
    version: z.string().optional(),
    imageVersion: z.string().optional().describe("the controller's own version (its image tag)"),
    operatorManaged: z.boolean(),
    replicas: z.number().int().optional(),
    readyReplicas: z.number().int().optional(),
    problems: z.array(z.string()).optional(),
  })
  .register(apiSchemas, { id: 'FluxController' });

export const instanceSummarySchema = z
  .object({
    cluster: z.string(),
    name: z.string(),
    version: z.string().optional(),
    versionSource: z
      .enum(['flux-operator', 'version-label', 'controller-images'])
      .optional()
      .describe("where the version comes from: the Flux Operator's FluxInstance or FluxReport, the Deployments' version label, or the controllers' images (rules §10)"),
    operatorManaged: z.boolean(),
    fluxInstance: z.string().optional(),
    watchAllNamespaces: z.boolean(),
    lockdown: z.boolean(),
    defaultServiceAccount: z.string().optional(),
    shards: z.array(z.string()),
    controllers: z.array(controller),
    objectCount: z.number().int(),
  })
  .register(apiSchemas, { id: 'InstanceSummary' }) satisfies z.ZodType<InstanceSummary>;

export const shardSummarySchema = z
  .object({
    cluster: z.string(),
    instance: z.string(),
    name: z.string(),
    selector: z.string().optional(),
    controllers: z.array(z.string()),
    objectCount: z.number().int(),
    countsByKind: countsBy(fluxKind),
    countsByState: countsBy(stateName),
    utilisation: z.number().describe('estimated utilisation of its busiest controller, 1 = 100 %'),
  })
  .register(apiSchemas, { id: 'ShardSummary' }) satisfies z.ZodType<ShardSummary>;

export const tenantSummarySchema = z
  .object({
    name: z.string(),
    group: z.string().optional(),
    namespaces: z.array(z.object({ cluster: z.string(), namespace: z.string() })),
    shards: z.array(
      z.object({ cluster: z.string(), instance: z.string(), shard: z.string() }),
    ),
    objectCount: z.number().int(),
    countsByEnforcement: countsBy(enforcement),
    weakestEnforcement: enforcement,
  })
  .register(apiSchemas, { id: 'TenantSummary' }) satisfies z.ZodType<TenantSummary>;

export const fleetSummarySchema = z
  .object({
    clusters: z.number().int(),
    clustersUnreachable: z.number().int(),
    instances: z.number().int(),
    shards: z.number().int(),
    objects: z.number().int(),
    tenants: z.number().int(),
    countsByKind: countsBy(fluxKind),
    countsByState: countsBy(stateName),
    findingsByType: countsBy(findingType),
    generatedAt: time,
  })
  .register(apiSchemas, { id: 'FleetSummary' }) satisfies z.ZodType<FleetSummary>;

export const malformedObjectSchema = z
  .object({
    cluster: z.string(),
    kind: z.string(),
    namespace: z.string(),
    name: z.string(),
    disposition: z.enum(['skipped', 'read']).describe('skipped: could not be read at all; read: served with problems'),
    problems: z.array(z.string()),
    key: z.string().optional(),
  })
  .register(apiSchemas, { id: 'MalformedObject' }) satisfies z.ZodType<MalformedObject>;

export const entityViewSchema = z
  .object({
    entityRef: z.string(),
    link: z.object({
      kubernetesId: z.string().optional(),
      labelSelector: z.string().optional(),
    }),
    objects: z.array(fleetObjectSchema),
    totalCount: z
      .number()
      .int()
      .optional()
      .describe('how many objects the entity links; more than objects holds when the answer was cut at limit'),
    clusters: z.array(entityClusterHealthSchema),
    instances: z.array(instanceSummarySchema).optional(),
  })
  .register(apiSchemas, { id: 'EntityView' }) satisfies z.ZodType<EntityView>;

/** `{ items: T[] }`. */
export function itemsOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item) });
}

/** `Page<FleetObject>`. */
export const objectPageSchema = z
  .object({
    items: z.array(fleetObjectSchema),
    totalCount: z.number().int(),
    nextCursor: z.string().optional(),
  })
  .register(apiSchemas, { id: 'FleetObjectPage' });

/** `ActionResult`: what reconcile, suspend and resume answer. */
export const actionResultSchema = z
  .object({
    key: z.string(),
    action: z.enum(['reconcile', 'suspend', 'resume']),
    requestedAt: time
      .optional()
      .describe('the token written to reconcile.fluxcd.io/requestedAt (reconcile)'),
    handled: z
      .enum(['yes', 'pending', 'never'])
      .describe(
        'whether the controller has handled it; pending: a signal on flux-fleet:object:<key> follows when it does; never: no controller watches the object',
      ),
    message: z.string(),
  })
  .register(apiSchemas, { id: 'ActionResult' }) satisfies z.ZodType<ActionResult>;
