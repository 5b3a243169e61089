/**
 * The shapes of the capacity routes (`/capacity`, `/capacity/plan`, `/capacity/history`; rules §12, §13) as zod
 * schemas, each checked against its `-common` type (`capacityApi.ts`) at compile time like those of
 * `responseSchemas.ts`.
 */
import {
  CAPACITY_VERDICTS,
  CapacityHistory,
  CapacityReport,
  CONTROLLER_COMPONENTS,
  ControllerComponent,
  ControllerFigures,
  ShardingPlan,
} from '@flux-fleet/plugin-flux-fleet-common';
import { z } from 'zod/v4';
import { apiSchemas, objectRef } from './responseSchemas';

const component = z
  .enum(CONTROLLER_COMPONENTS as unknown as [ControllerComponent, ...ControllerComponent[]])
  .register(apiSchemas, { id: 'ControllerComponent' });
const verdict = z.enum(CAPACITY_VERDICTS).register(apiSchemas, { id: 'CapacityVerdict' });
const capacitySource = z
  .enum(['metrics', 'estimate'])
  .describe("where a controller's utilisation comes from: its metrics, or the interval estimate of rules §9")
  .register(apiSchemas, { id: 'CapacitySource' });
const figureSource = z.enum(['measured', 'configured', 'estimated']);
const time = z.string().describe('RFC 3339 time');

const figure = z
  .object({ value: z.number(), source: figureSource })
  .describe('one figure and where it comes from')
  .register(apiSchemas, { id: 'CapacityFigure' });

const FIGURE_NAMES = [
  'busyWorkers', 'utilisation', 'reconcilesPerSecond', 'reconcileErrorsPerSecond', 'reconcileTimeMeanSeconds',
  'reconcileTimeP95Seconds', 'queueDepth', 'queueDepthTrendPerMinute', 'queueWaitP95Seconds',
  'apiRequestsPerSecond', 'apiThrottledPerSecond', 'cpuCores', 'cpuLimitCores', 'cpuOfLimit', 'memoryBytes',
  'memoryLimitBytes', 'memoryOfLimit', 'shortestIntervalSeconds',
] as const satisfies ReadonlyArray<keyof ControllerFigures>;

const figures = z
  .object({
    concurrent: figure,
    ...Object.fromEntries(FIGURE_NAMES.map(n => [n, figure.optional()])),
  } as { concurrent: typeof figure } & Record<(typeof FIGURE_NAMES)[number], z.ZodOptional<typeof figure>>)
  .register(apiSchemas, { id: 'ControllerFigures' });

const reason = z
  .object({
    code: z.enum([
      'utilisation-low', 'utilisation-near', 'utilisation-over', 'queue-growing', 'queue-wait-over-interval',
      'reconcile-time-over-interval', 'cpu-near-limit', 'memory-near-limit', 'api-throttled', 'no-workers',
      'no-objects',
    ]),
    effect: z.enum([...CAPACITY_VERDICTS, 'note']),
    text: z.string().describe('the reason as a sentence with its figures'),
    value: z.number().optional(),
    threshold: z.number().optional(),
    source: figureSource,
  })
  .register(apiSchemas, { id: 'CapacityReason' });

const controllerCapacity = z
  .object({
    cluster: z.string(),
    instance: z.string(),
    shard: z.string(),
    controller: z.string().describe("the controller Deployment's name"),
    component,
    source: capacitySource,
    estimateReason: z.string().optional().describe('when estimated: why the metrics could not be used'),
    objectCount: z.number().int(),
    countsByKind: z.record(z.string(), z.number().int()),
    figures,
    estimatedBusyWorkers: z.number(),
    verdict,
    reasons: z.array(reason).describe('every reason the verdict rests on, the worst first'),
    headroomObjects: z.number().optional(),
    headroomText: z.string().optional(),
    problems: z.array(z.string()),
    measuredAt: time.optional(),
    windowSeconds: z.number().optional(),
  })
  .register(apiSchemas, { id: 'ControllerCapacity' });

const shardCapacity = z
  .object({
    cluster: z.string(),
    instance: z.string(),
    shard: z.string(),
    verdict,
    busiestController: z.string().optional(),
    utilisation: figure.optional(),
    controllers: z.array(z.string()),
  })
  .register(apiSchemas, { id: 'ShardCapacity' });

const instanceCapacity = z
  .object({
    cluster: z.string(),
    instance: z.string(),
    operatorManaged: z.boolean(),
    verdict,
    answer: z.string().describe('the answer in one sentence with its figures'),
    advice: z.enum(['none', 'raise-limits', 'raise-concurrency', 'check-api-throttling', 'shard']),
    controller: z.string().optional(),
    concurrencyTarget: z.number().int().optional(),
    source: capacitySource,
    shards: z.array(shardCapacity),
    controllers: z.array(controllerCapacity),
  })
  .register(apiSchemas, { id: 'InstanceCapacity' });

/** `CapacityReport`: the answer of `GET /capacity`. */
export const capacityReportSchema = z
  .object({ items: z.array(instanceCapacity), generatedAt: time })
  .register(apiSchemas, { id: 'CapacityReport' }) satisfies z.ZodType<CapacityReport>;

const plannedShard = z
  .object({
    name: z.string(),
    existing: z.boolean(),
    groupCount: z.number().int(),
    objectCount: z.number().int(),
    controllers: z.array(
      z.object({ component, concurrent: z.number().int(), utilisation: z.number() }),
    ),
    utilisation: z.number().describe('predicted utilisation of its busiest controller, 1 = 100 %'),
  })
  .register(apiSchemas, { id: 'PlannedShard' });

const shardGroup = z
  .object({
    name: z.string(),
    objects: z.array(objectRef),
    busyWorkers: z.partialRecord(component, z.number()),
    from: z.string(),
    to: z.string(),
    moved: z.boolean(),
    oversize: z.string().optional(),
  })
  .register(apiSchemas, { id: 'ShardGroup' });

const shardControllers = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('flux-instance'), patch: z.string() }),
    z.object({
      kind: z.literal('bootstrap'),
      files: z.array(z.object({ path: z.string(), content: z.string() })),
    }),
  ])
  .register(apiSchemas, { id: 'ShardControllers' });

/** `ShardingPlan`: the answer of `GET /capacity/plan`. */
export const shardingPlanSchema = z
  .object({
    cluster: z.string(),
    instance: z.string(),
    operatorManaged: z.boolean(),
    shardKey: z.string(),
    source: capacitySource,
    estimateReason: z.string().optional(),
    summary: z.string().describe('the plan in one sentence with its figures'),
    shards: z.array(plannedShard),
    groups: z.array(shardGroup),
    movedGroups: z.number().int(),
    labelChanges: z.array(z.object({ object: objectRef, from: z.string(), to: z.string() })),
    controllers: shardControllers.optional(),
    commands: z.array(z.string()).describe('the changes as kubectl commands, in order'),
    kustomizePatch: z.string().describe('the label changes as a kustomize patches file'),
    notes: z.array(z.string()),
  })
  .register(apiSchemas, { id: 'ShardingPlan' }) satisfies z.ZodType<ShardingPlan>;

/** `CapacityHistory`: the answer of `GET /capacity/history`. */
export const capacityHistorySchema = z
  .object({
    cluster: z.string(),
    instance: z.string(),
    controllers: z.array(
      z.object({
        controller: z.string(),
        component,
        shard: z.string(),
        points: z.array(
          z.object({
            at: time,
            utilisation: z.number().optional(),
            queueWaitP95Seconds: z.number().optional(),
            queueDepth: z.number().optional(),
          }),
        ),
      }),
    ),
  })
  .describe('measured figures only: one point per collection round, recent hours')
  .register(apiSchemas, { id: 'CapacityHistory' }) satisfies z.ZodType<CapacityHistory>;
