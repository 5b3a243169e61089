/**
 * The shapes the actions answer with, as schemas written for a model (each field says what it means in Flux's
 * words), and the functions that cut the REST API's answers down to them. Answers are sized for a model: counts
 * of everything, then the first N items, never the whole fleet.
 */
import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import type { AnyZodObject, z } from 'zod/v3';
import {
  FINDING_TYPES,
  FLUX_KINDS,
  fluxObjectKey,
  OWNER_STATUSES,
  RECONCILE_STATES,
  type FleetObject,
  type Finding,
  type FluxObjectRef,
} from '@flux-fleet/plugin-flux-fleet-common';

/**
 * The zod the actions registry hands to schema callbacks: zod v3's API (the registry's own copy of it, which the
 * schemas here are built with, so that its parsing and JSON schema conversion see their own classes).
 */
export type Zod = typeof z;

/** One Flux Fleet action, as the actions registry takes it, typed with the plugin's zod. */
export interface FleetAction<I extends AnyZodObject, O extends AnyZodObject> {
  name: string;
  title: string;
  description: string;
  attributes: { readOnly: boolean; destructive: boolean; idempotent: boolean };
  schema: { input: (zod: Zod) => I; output: (zod: Zod) => O };
  action(context: { input: z.infer<I>; credentials: BackstageCredentials }): Promise<{ output: z.infer<O> }>;
}

/**
 * Registers an action. The registry's types name its own copy of zod (zod 4's `zod/v3`), the actions here the
 * plugin's (zod 3.25's `zod/v3`): the same API, but TypeScript's structural comparison of the two ran out of memory
 * (4 GB) in `yarn tsc`, so the one cast is here. At run time the registry calls the schema callbacks with its copy.
 */
export function registerAction<I extends AnyZodObject, O extends AnyZodObject>(
  registry: ActionsRegistryService,
  action: FleetAction<I, O>,
): void {
  registry.register(action as unknown as Parameters<ActionsRegistryService['register']>[0]);
}

/** Longest state message an answer carries: kustomize build errors run to kilobytes, the first lines say why. */
export const MESSAGE_LIMIT = 500;

/** A message cut at {@link MESSAGE_LIMIT} characters, marked where it was cut. */
export function cut(message: string | undefined): string | undefined {
  if (message === undefined || message.length <= MESSAGE_LIMIT) return message;
  return `${message.slice(0, MESSAGE_LIMIT - 1)}…`;
}

/** How many items an answer lists when the caller does not say (`limit`), and the most it lists. */
export const DEFAULT_ITEMS = 20;
export const MAX_ITEMS = 100;

/** The `limit` input of a listing action. */
export function limitInput(z: Zod, what: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(MAX_ITEMS)
    .optional()
    .describe(`How many ${what} to list in full (default ${DEFAULT_ITEMS}, at most ${MAX_ITEMS}); counts always cover all.`);
}

/** The input that names one Flux object. */
export function objectRefInput(z: Zod) {
  return {
    cluster: z.string().min(1).describe('The cluster name as Flux Fleet knows it, e.g. prod-eu-1.'),
    namespace: z.string().min(1).describe('The Kubernetes namespace of the Flux object.'),
    kind: z
      .enum(FLUX_KINDS as unknown as [string, ...string[]])
      .describe('The Flux kind, e.g. Kustomization, HelmRelease, GitRepository.'),
    name: z.string().min(1).describe('The name of the Flux object.'),
  };
}

/** The reconcile state enum. */
export function stateSchema(z: Zod) {
  return z
    .enum(RECONCILE_STATES)
    .describe(
      'Reconcile state: ready; progressing; failed (the last reconcile failed, reason and message say why); ' +
        'blocked (waits for a dependsOn dependency that is not ready); stalled (will not retry until changed); ' +
        'suspended; never-reconciled (no controller has handled it yet); terminating; unknown.',
    );
}

/** One Flux object in a list: identity, state and who reconciles it. */
export function objectLineSchema(z: Zod) {
  return z.object({
    key: z.string().describe('cluster/namespace/kind/name; pass the parts to explain-flux-object for the why.'),
    cluster: z.string(),
    namespace: z.string(),
    kind: z.string(),
    name: z.string(),
    state: stateSchema(z),
    reason: z.string().optional().describe("The Ready condition's reason, in Flux's words (e.g. BuildFailed)."),
    message: z.string().optional().describe(`The Ready condition's message, cut at ${MESSAGE_LIMIT} characters.`),
    revision: z.string().optional().describe('The revision applied (reconcilers) or served (sources).'),
    attemptedRevision: z
      .string()
      .optional()
      .describe('The revision last attempted, when it differs from the one applied: a change that did not land.'),
    stale: z.boolean().describe('True while its cluster is unreachable: the state is the last one known.'),
    suspended: z.boolean(),
    service: z.string().nullable().describe('The catalog service it belongs to (backstage.io/kubernetes-id).'),
    ownerStatus: z
      .enum(OWNER_STATUSES)
      .describe('ok: one controller reconciles it; orphan: none does; contested: several do.'),
    instance: z.string().nullable().describe('The Flux instance (namespace of its controllers) reconciling it.'),
    shard: z.string().nullable().describe('The shard of that instance reconciling it.'),
    tenant: z.string().nullable(),
    findings: z.array(z.enum(FINDING_TYPES)).describe('Types of the findings about it (list-flux-findings).'),
  });
}

/** A Flux object of the API as one line of a list. */
export function objectLine(o: FleetObject) {
  return {
    key: o.key,
    ...o.ref,
    state: o.state.state,
    reason: o.state.reason,
    message: cut(o.state.message),
    revision: o.state.revision,
    attemptedRevision: o.state.attemptedRevision,
    stale: o.stale,
    suspended: o.suspended,
    service: o.service,
    ownerStatus: o.owner.status,
    instance: o.owner.instance,
    shard: o.owner.shard,
    tenant: o.boundary.tenant,
    findings: o.findings,
  };
}

/** A finding in a list. */
export function findingLineSchema(z: Zod) {
  return z.object({
    type: z.enum(FINDING_TYPES),
    severity: z.enum(['error', 'warning', 'info']),
    message: z.string().describe('What is wrong, naming the object and cluster.'),
    object: z.string().optional().describe('Key (cluster/namespace/kind/name) of the object it is about.'),
    shard: z.string().optional().describe('cluster/instance/shard, for shard findings.'),
    related: z.array(z.string()).describe('Keys of the other objects involved (a source, a missing dependency).'),
  });
}

/** The key of a reference to a Flux object. */
export function refKey(ref: FluxObjectRef): string {
  return fluxObjectKey(ref.cluster, ref.namespace, ref.kind, ref.name);
}

/** A finding of the API as one line of a list. */
export function findingLine(f: Finding) {
  return {
    type: f.type,
    severity: f.severity,
    message: f.message,
    object: f.object && refKey(f.object),
    shard: f.shard && `${f.shard.cluster}/${f.shard.instance}/${f.shard.shard}`,
    related: f.related.map(refKey),
  };
}

/** How many of each value the items hold. */
export function countBy<T>(items: readonly T[], of: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[of(item)] = (counts[of(item)] ?? 0) + 1;
  return counts;
}

/** A count map schema. */
export function countsSchema(z: Zod, what: string) {
  return z.record(z.number()).describe(what);
}
