/**
 * What the API accepts, as zod schemas: query and path parameters of every route (docs/api.md). Used to validate
 * requests and to describe the parameters in the OpenAPI document.
 */
import { InputError } from '@backstage/errors';
import {
  FINDING_TYPES,
  FLUX_KINDS,
  FluxKind,
  OWNER_STATUSES,
  RECONCILE_STATES,
} from '@flux-fleet/plugin-flux-fleet-common';
import { z } from 'zod/v4';
import { MAX_LIMIT } from '../derive/objectQuery';

/** Body of `POST …/reconcile`. */
export const reconcileBodySchema = z.strictObject({
  force: z
    .boolean()
    .optional()
    .describe('HelmRelease only: also write reconcile.fluxcd.io/forceAt (a one-off forced upgrade)'),
});

/** Body of `POST …/suspend` and `…/resume`: nothing. */
export const emptyBodySchema = z.strictObject({});

/** A list filter: repeated (`kind=a&kind=b`) or comma-separated (`kind=a,b`). */
function list<T extends z.ZodType<string>>(item: T, description: string) {
  return z
    .preprocess(value => {
      if (value === undefined) return undefined;
      const parts = (Array.isArray(value) ? value : [value])
        .flatMap(v => (typeof v === 'string' ? v.split(',') : [v]))
        .map(v => (typeof v === 'string' ? v.trim() : v))
        .filter(v => v !== '');
      return parts.length > 0 ? parts : undefined;
    }, z.array(item).optional())
    .describe(`${description}; repeat the parameter or separate values with commas`);
}

const fluxKind = z.enum(FLUX_KINDS as unknown as [FluxKind, ...FluxKind[]]);
const name = z.string().min(1).max(253);

/** Query of `GET /objects`. */
export const objectQuerySchema = z.strictObject({
  cluster: list(name, 'clusters'),
  kind: list(fluxKind, 'Flux kinds'),
  state: list(z.enum(RECONCILE_STATES), 'reconcile states'),
  instance: list(name, 'instances (the namespace of their controllers)'),
  shard: list(name, 'shard names'),
  tenant: list(name, 'tenants'),
  namespace: list(name, 'namespaces'),
  service: list(name, 'services (backstage.io/kubernetes-id)'),
  finding: list(z.enum(FINDING_TYPES), 'finding types'),
  owner: list(z.enum(OWNER_STATUSES), 'owner statuses'),
  q: z
    .string()
    .max(200)
    .optional()
    .describe('free text, matched against name, namespace, cluster, service, tenant and state message'),
  sort: z
    .enum(['key', 'name', 'state', 'updatedAt', 'cluster', 'kind'])
    .optional()
    .describe('default key; state sorts worst first'),
  order: z.enum(['asc', 'desc']).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .optional()
    .describe(`page size, default 100, at most ${MAX_LIMIT}`),
  cursor: z.string().max(2048).optional().describe('nextCursor of the previous page'),
});

/** Query of `GET /instances`. */
export const instancesQuerySchema = z.strictObject({
  cluster: name.optional(),
});

/** Query of `GET /shards`. */
export const shardsQuerySchema = z.strictObject({
  cluster: name.optional(),
  instance: name.optional(),
});

/** Query of `GET /findings`. */
export const findingsQuerySchema = z.strictObject({
  cluster: name.optional(),
  type: list(z.enum(FINDING_TYPES), 'finding types'),
});

/** Query of `GET /malformed`. */
export const malformedQuerySchema = z.strictObject({
  cluster: name.optional(),
});

/** Routes without parameters. */
export const noQuerySchema = z.strictObject({});

/** Path of `GET /objects/:cluster/:namespace/:kind/:name`. */
export const objectPathSchema = z.object({
  cluster: name,
  namespace: name,
  kind: fluxKind,
  name,
});

/** Path of `GET /entity/:kind/:namespace/:name`. */
export const entityPathSchema = z.object({
  kind: name,
  namespace: name,
  name,
});

/** Most objects an entity view answers with at once; `totalCount` says how many it links. */
export const MAX_ENTITY_OBJECTS = 5_000;

/** Query of `GET /entity/:kind/:namespace/:name`. */
export const entityQuerySchema = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_ENTITY_OBJECTS)
    .optional()
    .describe(`most objects answered (in key order), default and at most ${MAX_ENTITY_OBJECTS}; totalCount says how many the entity links`),
});

/** Parses request input, or throws an `InputError` (400) that says what is wrong, parameter by parameter. */
export function parseInput<T extends z.ZodType>(
  schema: T,
  input: unknown,
  what: string,
): z.output<T> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const problems = result.error.issues.map(issue => {
    const field = issue.path.length > 0 ? String(issue.path[0]) : what;
    if (issue.code === 'unrecognized_keys') {
      return `unknown ${what} parameter${issue.keys.length > 1 ? 's' : ''} ${issue.keys
        .map(k => `'${k}'`)
        .join(', ')}`;
    }
    if (issue.code === 'invalid_value') {
      const values = issue.values.map(String);
      return `${field}: '${String(issue.input)}' is not one of ${
        values.length > 12 ? `${values.slice(0, 12).join(', ')}…` : values.join(', ')
      }`;
    }
    return `${field}: ${issue.message}`;
  });
  throw new InputError(`Invalid ${what}: ${problems.join('; ')}`);
}

/** Query of `GET /capacity`. */
export const capacityQuerySchema = z.strictObject({
  cluster: name.optional(),
  instance: name.optional().describe('the instance (the namespace of its controllers)'),
});

/** Query of `GET /capacity/plan`. */
export const capacityPlanQuerySchema = z.strictObject({
  cluster: name,
  instance: name.describe('the instance (the namespace of its controllers)'),
  shards: z.coerce
    .number()
    .int()
    .min(0)
    .max(32)
    .optional()
    .describe('shards wanted besides main (0–32); default the fewest that keep every shard under 70 %'),
});

/** Query of `GET /capacity/history`. */
export const capacityHistoryQuerySchema = z.strictObject({
  cluster: name,
  instance: name.describe('the instance (the namespace of its controllers)'),
});
