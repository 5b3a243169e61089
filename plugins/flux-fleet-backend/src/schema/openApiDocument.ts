import { z } from 'zod/v4';
import {
  capacityHistoryQuerySchema,
  capacityPlanQuerySchema,
  capacityQuerySchema,
  emptyBodySchema,
  entityQuerySchema,
  findingsQuerySchema,
  instancesQuerySchema,
  malformedQuerySchema,
  objectQuerySchema,
  reconcileBodySchema,
  shardsQuerySchema,
} from './requestSchemas';
import {
  actionResultSchema,
  apiSchemas,
  clusterHealthSchema,
  entityViewSchema,
  findingSchema,
  fleetObjectDetailSchema,
  fleetSummarySchema,
  instanceSummarySchema,
  malformedObjectSchema,
  itemsOf,
  objectPageSchema,
  shardSummarySchema,
  tenantSummarySchema,
} from './responseSchemas';
import { fleetVersionViewSchema } from './versionSchemas';
import { capacityHistorySchema, capacityReportSchema, shardingPlanSchema } from './capacitySchemas';

type JsonSchema = Record<string, unknown>;

const REF = (id: string) => `#/components/schemas/${id}`;

/** A JSON schema for OpenAPI: refs to the named components, no `$schema`, extra fields allowed. */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $defs: _definedInComponents, ...rest } = z.toJSONSchema(schema, {
    metadata: apiSchemas,
    io: 'output',
    unrepresentable: 'any',
  }) as JsonSchema;
  return clean(rest);
}

/** Removes what OpenAPI readers trip over, and lets responses grow optional fields without breaking clients. */
function clean(value: unknown): any {
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === 'object') {
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$schema' || k === '$id') continue;
      if (k === 'additionalProperties' && v === false) continue;
      // single-schema conversion refers to named schemas as local $defs: they are the document's components
      out[k] =
        k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
          ? REF(v.slice('#/$defs/'.length))
          : clean(v);
    }
    return out;
  }
  return value;
}

function queryParameters(schema: z.ZodObject) {
  return Object.entries(schema.shape).map(([name, field]) => {
    const described = jsonSchema(field as z.ZodType);
    const { description, ...rest } = described;
    return {
      name,
      in: 'query',
      required: !(field as z.ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      ...(rest.type === 'array' ? { style: 'form', explode: false } : {}),
      schema: rest,
    };
  });
}

function pathParameters(names: string[]) {
  return names.map(name => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'kind' ? { $ref: REF('FluxKind') } : { type: 'string' },
  }));
}

function ok(schema: z.ZodType, description: string) {
  return {
    200: {
      description,
      content: { 'application/json': { schema: jsonSchema(schema) } },
    },
    400: { $ref: '#/components/responses/Error' },
    401: { $ref: '#/components/responses/Error' },
  };
}

function get(summary: string, responses: object, parameters: object[] = []) {
  return { get: { summary, parameters, responses } };
}

const error = { $ref: '#/components/responses/Error' };

/** An action route: its body, and the refusals a caller meets. */
function action(summary: string, body: z.ZodType, permission: string) {
  return {
    post: {
      summary,
      description: `Needs the permission ${permission} on the object (resource ref: its key). Audited.`,
      parameters: pathParameters(['cluster', 'namespace', 'kind', 'name']),
      requestBody: {
        required: false,
        content: { 'application/json': { schema: jsonSchema(body) } },
      },
      responses: {
        ...ok(actionResultSchema, 'the request was written; whether the controller handled it yet'),
        403: {
          ...error,
          description:
            'without the permission, or when the credentials for the cluster are read-only',
        },
        404: error,
        409: { ...error, description: 'reconcile of a suspended object' },
        503: { ...error, description: 'the cluster cannot be reached' },
      },
    },
  };
}

/** The OpenAPI 3.1 document of the Flux Fleet API, built from the same schemas that validate it. */
export function buildOpenApiDocument(): object {
  const { schemas } = z.toJSONSchema(apiSchemas, {
    uri: REF,
    io: 'output',
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> };
  const notFound = { 404: { $ref: '#/components/responses/Error' } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Flux Fleet',
      version: '1',
      description:
        'Flux objects of every watched cluster with owner (instance, shard), reconcile state and tenancy boundary. Every read comes from the fleet index in memory; only the actions (reconcile, suspend, resume) call a cluster. Every route requires Backstage credentials.',
    },
    servers: [{ url: '/api/flux-fleet' }],
    security: [{ backstage: [] }],
    paths: {
      '/clusters': get(
        'Every configured cluster with how well it is followed',
        ok(itemsOf(clusterHealthSchema), 'the clusters'),
      ),
      '/summary': get('The fleet at a glance', ok(fleetSummarySchema, 'the summary')),
      '/instances': get(
        'Flux instances',
        ok(itemsOf(instanceSummarySchema), 'the instances'),
        queryParameters(instancesQuerySchema),
      ),
      '/shards': get(
        'Shards with their load',
        ok(itemsOf(shardSummarySchema), 'the shards'),
        queryParameters(shardsQuerySchema),
      ),
      '/tenants': get('Tenants across the fleet', ok(itemsOf(tenantSummarySchema), 'the tenants')),
      '/objects': get(
        'Flux objects, filtered, sorted and paged',
        ok(objectPageSchema, 'one page'),
        queryParameters(objectQuerySchema),
      ),
      '/objects/{cluster}/{namespace}/{kind}/{name}': get(
        'One Flux object with its dependency chain, inventory, events and findings',
        { ...ok(fleetObjectDetailSchema, 'the object'), ...notFound },
        pathParameters(['cluster', 'namespace', 'kind', 'name']),
      ),
      '/entity/{kind}/{namespace}/{name}': get(
        "A catalog entity's Flux objects across clusters",
        {
          ...ok(entityViewSchema, 'the entity view'),
          400: { $ref: '#/components/responses/Error' },
          ...notFound,
        },
        [...pathParameters(['kind', 'namespace', 'name']), ...queryParameters(entityQuerySchema)],
      ),
      '/malformed': get(
        'Objects malformed as read: skipped, or served with the problems named',
        { ...ok(itemsOf(malformedObjectSchema), 'the malformed objects'), ...notFound },
        queryParameters(malformedQuerySchema),
      ),
      '/findings': get(
        'Findings of the fleet analysis',
        ok(itemsOf(findingSchema), 'the findings'),
        queryParameters(findingsQuerySchema),
      ),
      '/versions': get(
        'Which clusters run which Flux release, how far behind the latest, and what blocks each upgrade',
        ok(fleetVersionViewSchema, 'the fleet version view'),
      ),
      '/capacity': get(
        'Per instance, shard and controller: is it near its limit (verdict, reasons, figures measured or estimated, headroom)',
        { ...ok(capacityReportSchema, 'the capacity of every instance'), ...notFound },
        queryParameters(capacityQuerySchema),
      ),
      '/capacity/plan': get(
        "A sharding plan of one instance: its shards' predicted load, the groups moved, kubectl commands and a kustomize patch",
        { ...ok(shardingPlanSchema, 'the plan'), ...notFound },
        queryParameters(capacityPlanQuerySchema),
      ),
      '/capacity/history': get(
        "Measured utilisation and queue wait of one instance's controllers over recent hours",
        { ...ok(capacityHistorySchema, 'one point per collection round'), ...notFound },
        queryParameters(capacityHistoryQuerySchema),
      ),
      '/objects/{cluster}/{namespace}/{kind}/{name}/reconcile': action(
        'Ask Flux to reconcile the object now (reconcile.fluxcd.io/requestedAt); refused while it is suspended',
        reconcileBodySchema,
        'flux-fleet.object.reconcile',
      ),
      '/objects/{cluster}/{namespace}/{kind}/{name}/suspend': action(
        'Suspend the object (spec.suspend; Flux Operator kinds: fluxcd.controlplane.io/reconcile: disabled)',
        emptyBodySchema,
        'flux-fleet.object.suspend',
      ),
      '/objects/{cluster}/{namespace}/{kind}/{name}/resume': action(
        'Resume the object',
        emptyBodySchema,
        'flux-fleet.object.suspend',
      ),
    },
    components: {
      securitySchemes: {
        backstage: { type: 'http', scheme: 'bearer', description: 'a Backstage token' },
      },
      responses: {
        Error: {
          description: "Backstage's error body, naming the cluster and object",
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  error: {
                    type: 'object',
                    properties: { name: { type: 'string' }, message: { type: 'string' } },
                  },
                  response: {
                    type: 'object',
                    properties: { statusCode: { type: 'integer' } },
                  },
                },
              },
            },
          },
        },
      },
      schemas: clean(schemas),
    },
  };
}
