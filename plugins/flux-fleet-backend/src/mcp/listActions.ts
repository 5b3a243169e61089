import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import {
  FINDING_TYPES,
  FLUX_KINDS,
  OWNER_STATUSES,
  RECONCILE_STATES,
  type Finding,
  type FleetObject,
  type Page,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FleetApiClient } from './FleetApiClient';
import {
  countBy,
  countsSchema,
  DEFAULT_ITEMS,
  findingLine,
  findingLineSchema,
  limitInput,
  objectLine,
  objectLineSchema,
  type Zod,
  registerAction,
} from './shapes';

const SEVERITIES = ['error', 'warning', 'info'] as const;

/** `list-flux-findings` and `list-flux-objects`: the fleet's problems and objects, counted, then the first N. */
export function registerListActions(registry: ActionsRegistryService, api: FleetApiClient) {
  registerAction(registry, {
    name: 'list-flux-findings',
    title: 'List Flux findings',
    description:
      "Lists the problems Flux Fleet's analysis found across the fleet, with counts by type and severity: " +
      'orphans (no controller reconciles them), contested objects (several do), cross-shard and cross-tenant ' +
      'references, boundaries not enforced, reconcile requests not handled, dependency cycles, missing ' +
      'dependencies and sources, shards over capacity. Filter by cluster, type and severity. Read from the ' +
      'fleet index, no cluster is called.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          cluster: z.string().min(1).optional().describe('Only this cluster.'),
          type: z.array(z.enum(FINDING_TYPES)).optional().describe('Only these finding types.'),
          severity: z.array(z.enum(SEVERITIES)).optional().describe('Only these severities.'),
          limit: limitInput(z, 'findings'),
        }),
      output: z =>
        z.object({
          summary: z.string().describe('The answer in one sentence.'),
          totalCount: z.number().describe('Findings matching the filters, all of them.'),
          countsByType: countsSchema(z, 'Matching findings per type.'),
          countsBySeverity: countsSchema(z, 'Matching findings per severity.'),
          items: z.array(findingLineSchema(z)).describe('The first findings, errors first.'),
        }),
    },
    action: async ({ input, credentials }) => {
      const { items } = await api.get<{ items: Finding[] }>(
        '/findings',
        { cluster: input.cluster, type: input.type },
        credentials,
      );
      // the REST API filters by cluster and type; severity is a fixed function of the type (rules §8)
      const matching = items.filter(f => !input.severity || input.severity.includes(f.severity));
      const rank = (f: Finding) => SEVERITIES.indexOf(f.severity);
      const shown = [...matching].sort((a, b) => rank(a) - rank(b)).slice(0, input.limit ?? DEFAULT_ITEMS);
      const countsByType = countBy(matching, f => f.type);
      const countsBySeverity = countBy(matching, f => f.severity);
      const where = input.cluster ? ` on ${input.cluster}` : ' across the fleet';
      const summary =
        matching.length === 0
          ? `No findings${where} match.`
          : `${matching.length} findings${where} (${SEVERITIES.filter(s => countsBySeverity[s])
              .map(s => `${countsBySeverity[s]} ${s}`)
              .join(', ')}); by type: ${Object.entries(countsByType)
              .sort((a, b) => b[1] - a[1])
              .map(([t, n]) => `${t} ${n}`)
              .join(', ')}.`;
      return {
        output: { summary, totalCount: matching.length, countsByType, countsBySeverity, items: shown.map(findingLine) },
      };
    },
  });

  registerAction(registry, {
    name: 'list-flux-objects',
    title: 'List Flux objects',
    description:
      'Lists Flux objects across the fleet with the filters of the Flux Fleet API: cluster, kind, reconcile ' +
      'state, instance, shard, tenant, namespace, service, finding type, owner status and free text; sorted, ' +
      'with the total count and a cursor for the next page. E.g. the failing HelmReleases of a team: ' +
      'kind=[HelmRelease], state=[failed], tenant=[team]. Read from the fleet index, no cluster is called.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          cluster: names(z, 'clusters'),
          kind: z.array(z.enum(FLUX_KINDS as unknown as [string, ...string[]])).optional().describe('Flux kinds.'),
          state: z.array(z.enum(RECONCILE_STATES)).optional().describe('Reconcile states, e.g. [failed, stalled].'),
          instance: names(z, 'Flux instances (the namespace of their controllers, e.g. flux-system)'),
          shard: names(z, 'shard names (main for controllers without a shard selector)'),
          tenant: names(z, 'tenants'),
          namespace: names(z, 'Kubernetes namespaces'),
          service: names(z, 'catalog services (backstage.io/kubernetes-id)'),
          finding: z.array(z.enum(FINDING_TYPES)).optional().describe('Objects with a finding of these types.'),
          owner: z.array(z.enum(OWNER_STATUSES)).optional().describe('ok, orphan (no controller), contested.'),
          q: z.string().max(200).optional().describe('Free text: name, namespace, cluster, service, tenant, message.'),
          sort: z
            .enum(['key', 'name', 'state', 'updatedAt', 'cluster', 'kind'])
            .optional()
            .describe('Default key; state sorts worst first.'),
          order: z.enum(['asc', 'desc']).optional(),
          limit: limitInput(z, 'objects'),
          cursor: z.string().max(2048).optional().describe('nextCursor of the previous answer, for the next page.'),
        }),
      output: z =>
        z.object({
          summary: z.string().describe('The answer in one sentence.'),
          totalCount: z.number().describe('Objects matching the filters, all of them.'),
          countsByState: countsSchema(z, 'The listed objects per reconcile state (this page only).'),
          items: z.array(objectLineSchema(z)),
          nextCursor: z.string().optional().describe('Pass as cursor for the next page; absent on the last one.'),
        }),
    },
    action: async ({ input, credentials }) => {
      const page = await api.get<Page<FleetObject>>(
        '/objects',
        { ...input, limit: input.limit ?? DEFAULT_ITEMS },
        credentials,
      );
      const summary =
        page.totalCount === 0
          ? 'No Flux objects match.'
          : `${page.totalCount} Flux objects match; ${page.items.length} listed` +
            `${page.nextCursor ? ' (more with nextCursor)' : ''}.`;
      return {
        output: {
          summary,
          totalCount: page.totalCount,
          countsByState: countBy(page.items, o => o.state.state),
          items: page.items.map(objectLine),
          nextCursor: page.nextCursor,
        },
      };
    },
  });
}

function names(z: Zod, what: string) {
  return z.array(z.string().min(1)).optional().describe(`Only these ${what}.`);
}
