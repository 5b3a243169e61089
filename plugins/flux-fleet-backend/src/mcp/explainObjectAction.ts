import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import {
  fluxCliCommands,
  type FleetObjectDetail,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FleetApiClient, objectPath } from './FleetApiClient';
import {
  cut,
  findingLine,
  findingLineSchema,
  objectRefInput,
  refKey,
  stateSchema,
  registerAction,
} from './shapes';

/** Events an explanation carries: the latest few say what the controller last did. */
const EVENTS = 5;
/** Steps of the dependsOn chain an explanation lists. */
const DEPENDENCIES = 20;

/** `explain-flux-object`: the why of one Flux object. */
export function registerExplainObjectAction(registry: ActionsRegistryService, api: FleetApiClient) {
  registerAction(registry, {
    name: 'explain-flux-object',
    title: 'Explain one Flux object',
    description:
      'Explains one Flux object (a Kustomization, HelmRelease, GitRepository, …) on one cluster: its reconcile ' +
      "state with Flux's reason and message, the root cause through its dependsOn chain when it is blocked, which " +
      'Flux instance and shard reconcile it (or that none does: an orphan), its tenancy boundary (tenant, service ' +
      'account, whether the instance enforces it), the findings about it, its latest events, and the `flux` ' +
      'commands a person runs to look further or act. Read from the fleet index, no cluster is called.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z => z.object(objectRefInput(z)),
      output: z =>
        z.object({
          key: z.string(),
          summary: z.string().describe('The answer in a few sentences.'),
          state: z.object({
            state: stateSchema(z),
            reason: z.string().optional(),
            message: z.string().optional(),
            revision: z.string().optional(),
            attemptedRevision: z.string().optional(),
            since: z.string().optional().describe('When the Ready condition last changed.'),
            suspended: z.boolean(),
            stale: z.boolean().describe('True while its cluster is unreachable: the state is the last one known.'),
            reconcileRequestedAt: z.string().optional(),
            lastHandledReconcileAt: z.string().optional(),
            reconcileNotHandled: z
              .boolean()
              .optional()
              .describe('A reconcile was requested and no controller has handled it for over 5 minutes.'),
          }),
          rootCause: z
            .object({
              key: z.string(),
              depth: z.number(),
              state: stateSchema(z).nullable().describe('Null when the dependency does not exist.'),
              reason: z.string().optional(),
              message: z.string().optional(),
            })
            .optional()
            .describe('For a blocked object: the deepest dependency that is not ready.'),
          dependencies: z
            .array(z.object({ key: z.string(), depth: z.number(), state: stateSchema(z).nullable() }))
            .describe(`Its dependsOn chain, depth first (the first ${DEPENDENCIES} steps).`),
          owner: z.object({
            status: z.enum(['ok', 'orphan', 'contested']),
            instance: z.string().nullable(),
            shard: z.string().nullable(),
            controller: z.string().nullable().describe('The controller Deployment, or flux-operator.'),
            candidates: z
              .array(z.string())
              .optional()
              .describe('For a contested object: instance/shard/controller of every controller watching it.'),
          }),
          boundary: z.object({
            tenant: z.string().nullable(),
            namespace: z.string(),
            serviceAccount: z.string().nullable().describe("Null: it runs as the controller's own identity."),
            serviceAccountSource: z.enum(['object', 'default', 'controller']).nullable(),
            lockdown: z.boolean().describe('Whether --no-cross-namespace-refs is set on its controller.'),
            enforcement: z.enum(['none', 'partial', 'enforced']),
            reasons: z.array(z.string()).describe('Why the boundary is not fully enforced.'),
          }),
          service: z.string().nullable(),
          source: z.string().optional().describe('kind/namespace/name of its source, and its URL when known.'),
          findings: z.array(findingLineSchema(z)),
          events: z.array(
            z.object({
              type: z.string(),
              reason: z.string(),
              message: z.string(),
              count: z.number(),
              lastTimestamp: z.string().optional(),
            }),
          ),
          commands: z
            .array(z.object({ label: z.string(), command: z.string() }))
            .describe('`flux` (and kubectl) commands for it, with its namespace and the cluster as --context.'),
        }),
    },
    action: async ({ input, credentials }) => {
      const d = await api.get<FleetObjectDetail>(objectPath(input), {}, credentials);
      const rootCause = d.rootCause && {
        key: refKey(d.rootCause.ref),
        depth: d.rootCause.depth,
        state: d.rootCause.state,
        reason: d.rootCause.reason,
        message: cut(d.rootCause.message),
      };
      const owner = {
        status: d.owner.status,
        instance: d.owner.instance,
        shard: d.owner.shard,
        controller: d.owner.controller,
        candidates: d.owner.candidates?.map(c => `${c.instance}/${c.shard}/${c.controller}`),
      };
      const source = d.sourceRef
        ? `${d.sourceRef.kind}/${d.sourceRef.namespace}/${d.sourceRef.name}${d.sourceUrl ? ` (${d.sourceUrl})` : ''}`
        : undefined;
      return {
        output: {
          key: d.key,
          summary: summary(d, rootCause),
          state: {
            state: d.state.state,
            reason: d.state.reason,
            message: cut(d.state.message),
            revision: d.state.revision,
            attemptedRevision: d.state.attemptedRevision,
            since: d.state.since,
            suspended: d.suspended,
            stale: d.stale,
            reconcileRequestedAt: d.state.reconcileRequestedAt,
            lastHandledReconcileAt: d.state.lastHandledReconcileAt,
            reconcileNotHandled: d.state.reconcileNotHandled,
          },
          rootCause,
          dependencies: d.dependencies
            .slice(0, DEPENDENCIES)
            .map(s => ({ key: refKey(s.ref), depth: s.depth, state: s.state })),
          owner,
          boundary: {
            tenant: d.boundary.tenant,
            namespace: d.boundary.namespace,
            serviceAccount: d.boundary.serviceAccount,
            serviceAccountSource: d.boundary.serviceAccountSource,
            lockdown: d.boundary.lockdown,
            enforcement: d.boundary.enforcement,
            reasons: d.boundary.reasons,
          },
          service: d.service,
          source,
          findings: d.findingDetails.map(findingLine),
          events: d.events.slice(0, EVENTS).map(e => ({
            type: e.type,
            reason: e.reason,
            message: cut(e.message)!,
            count: e.count,
            lastTimestamp: e.lastTimestamp,
          })),
          commands: fluxCliCommands(d.ref, { apiVersion: d.apiVersion, instance: d.owner.instance }).map(c => ({
            label: c.label,
            command: c.command,
          })),
        },
      };
    },
  });
}

function summary(
  d: FleetObjectDetail,
  rootCause: { key: string; state: string | null; reason?: string } | undefined,
): string {
  const what = `${d.ref.kind} ${d.ref.namespace}/${d.ref.name} on ${d.ref.cluster}`;
  const why = [d.state.reason, cut(d.state.message)].filter(Boolean).join(': ');
  const parts = [`${what} is ${d.state.state}${why ? ` (${why})` : ''}${d.stale ? ', as last known: its cluster is unreachable' : ''}.`];
  if (rootCause) {
    parts.push(
      rootCause.state === null
        ? `Root cause through dependsOn: ${rootCause.key} does not exist.`
        : `Root cause through dependsOn: ${rootCause.key} is ${rootCause.state}${rootCause.reason ? ` (${rootCause.reason})` : ''}.`,
    );
  }
  if (d.owner.status === 'ok') {
    parts.push(`Reconciled by instance ${d.owner.instance}, shard ${d.owner.shard} (${d.owner.controller}).`);
  } else if (d.owner.status === 'orphan') {
    parts.push('No controller watches it (orphan): nothing will reconcile it.');
  } else {
    parts.push(`Contested: ${d.owner.candidates?.length ?? 'several'} controllers watch it.`);
  }
  if (d.findingDetails.length > 0) {
    parts.push(`Findings: ${d.findingDetails.map(f => f.type).join(', ')}.`);
  }
  return parts.join(' ');
}
