import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import {
  CAPACITY_VERDICTS,
  type CapacityFigure,
  type CapacityReport,
  type ControllerCapacity,
  type InstanceCapacity,
  type ShardingPlan,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FleetApiClient } from './FleetApiClient';
import { cut, type Zod, registerAction } from './shapes';

/** The plan's kubectl commands given in full; the rest are counted (the kustomize patch is on the REST route). */
const PLAN_COMMANDS = 20;

const VERDICTS = CAPACITY_VERDICTS as unknown as [string, ...string[]];

/** The figures a model needs to weigh a verdict, each with where it comes from. */
const FIGURES = [
  'utilisation',
  'busyWorkers',
  'concurrent',
  'queueWaitP95Seconds',
  'queueDepth',
  'reconcileTimeP95Seconds',
  'apiThrottledPerSecond',
  'cpuCores',
  'cpuLimitCores',
  'memoryBytes',
  'memoryLimitBytes',
] as const;

function figureSchema(z: Zod) {
  return z.object({
    value: z.number(),
    source: z
      .enum(['measured', 'configured', 'estimated'])
      .describe('measured: from the controller’s metrics; configured: from its Deployment; estimated: from intervals.'),
  });
}

function controllerSchema(z: Zod) {
  return z.object({
    controller: z.string().describe('The controller Deployment, e.g. kustomize-controller-shard1.'),
    component: z.string(),
    shard: z.string(),
    verdict: z.enum(VERDICTS),
    source: z.enum(['metrics', 'estimate']),
    estimateReason: z.string().optional().describe('Why its metrics could not be used, when estimated.'),
    objectCount: z.number(),
    headroom: z.string().optional().describe('More objects of its mix that fit before 70 % busy ("about 6,000").'),
    figures: z.object(Object.fromEntries(FIGURES.map(f => [f, figureSchema(z).optional()]))),
    reasons: z.array(
      z.object({
        code: z.string(),
        effect: z.string().describe('What it does to the verdict: near-capacity, over-capacity, ok or note.'),
        text: z.string(),
      }),
    ),
  });
}

function planSchema(z: Zod) {
  return z
    .object({
      summary: z.string(),
      source: z.enum(['metrics', 'estimate']),
      shards: z.array(
        z.object({
          name: z.string(),
          existing: z.boolean(),
          objectCount: z.number(),
          predictedUtilisation: z.number().describe('Of its busiest sharded controller; 1 = 100 %.'),
        }),
      ),
      movedGroups: z.number(),
      labelChanges: z.number().describe('Objects whose sharding.fluxcd.io/key label the plan sets or removes.'),
      oversizeGroups: z.array(z.string()).describe('Groups too big for one shard, each with the advice that fits.'),
      commands: z.array(z.string()).describe(`The kubectl commands to run, the first ${PLAN_COMMANDS}.`),
      commandCount: z.number(),
      notes: z.array(z.string()),
    })
    .describe('The sharding plan of the instance (GET /capacity/plan), when asked for.');
}

function controllerLine(c: ControllerCapacity) {
  const figures: Partial<Record<(typeof FIGURES)[number], CapacityFigure>> = {};
  for (const f of FIGURES) {
    const figure = c.figures[f];
    if (figure) figures[f] = { value: figure.value, source: figure.source };
  }
  return {
    controller: c.controller,
    component: c.component,
    shard: c.shard,
    verdict: c.verdict,
    source: c.source,
    ...(c.estimateReason !== undefined ? { estimateReason: cut(c.estimateReason) } : {}),
    objectCount: c.objectCount,
    ...(c.headroomText !== undefined ? { headroom: c.headroomText } : {}),
    figures,
    reasons: c.reasons.map(r => ({ code: r.code, effect: r.effect, text: r.text })),
  };
}

function planLine(plan: ShardingPlan) {
  return {
    summary: plan.summary,
    source: plan.source,
    shards: plan.shards.map(s => ({
      name: s.name,
      existing: s.existing,
      objectCount: s.objectCount,
      predictedUtilisation: s.utilisation,
    })),
    movedGroups: plan.movedGroups,
    labelChanges: plan.labelChanges.length,
    oversizeGroups: plan.groups.flatMap(g => (g.oversize ? [`${g.name}: ${g.oversize}`] : [])),
    commands: plan.commands.slice(0, PLAN_COMMANDS),
    commandCount: plan.commands.length,
    notes: plan.notes,
  };
}

/** `get-capacity-verdict`: is one Flux installation near its limit, should it be sharded (rules §12, §13). */
export function registerCapacityVerdictAction(registry: ActionsRegistryService, api: FleetApiClient) {
  registerAction(registry, {
    name: 'get-capacity-verdict',
    title: 'Capacity verdict of a Flux installation',
    description:
      'Answers "is this Flux installation near its limit, and should I shard it?" for the instances of one ' +
      'cluster (or one instance): the answer in one sentence, the verdict ok / near-capacity / over-capacity ' +
      'with every reason it rests on, and per controller its utilisation, queue wait, CPU and memory, each ' +
      'figure saying whether it was measured from the controller’s metrics or estimated from intervals. With ' +
      'plan: true, also the sharding plan (shards, predicted utilisation, kubectl commands). Same answer as ' +
      'GET /api/flux-fleet/capacity and /capacity/plan.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          cluster: z.string().min(1).describe('The cluster name as Flux Fleet knows it, e.g. prod-eu-1.'),
          instance: z
            .string()
            .min(1)
            .optional()
            .describe('The Flux instance: the namespace its controllers run in, e.g. flux-system (all when left out).'),
          plan: z.boolean().optional().describe('Also give the sharding plan of each instance that is not ok.'),
          shards: z
            .number()
            .int()
            .min(1)
            .max(16)
            .optional()
            .describe('With plan: the shards wanted besides main (default: the fewest that bring every one under 70 %).'),
        }),
      output: z =>
        z.object({
          cluster: z.string(),
          summary: z.string().describe('The answer: one sentence per instance.'),
          instances: z.array(
            z.object({
              instance: z.string(),
              verdict: z.enum(VERDICTS),
              answer: z.string().describe('The answer in one sentence with its figures.'),
              advice: z.string().describe('none, raise-concurrency, raise-limits, check-api-throttling or shard.'),
              concurrencyTarget: z.number().optional(),
              source: z.enum(['metrics', 'estimate']),
              shards: z.array(z.object({ shard: z.string(), verdict: z.enum(VERDICTS) })),
              controllers: z.array(controllerSchema(z)),
              plan: planSchema(z).optional(),
            }),
          ),
          generatedAt: z.string(),
        }),
    },
    action: async ({ input, credentials }) => {
      const report = await api.get<CapacityReport>(
        '/capacity',
        { cluster: input.cluster, instance: input.instance },
        credentials,
      );
      const instances = [];
      for (const i of report.items) {
        const wantPlan = input.plan === true && i.verdict !== 'ok';
        const plan = wantPlan
          ? await api.get<ShardingPlan>(
              '/capacity/plan',
              { cluster: i.cluster, instance: i.instance, shards: input.shards },
              credentials,
            )
          : undefined;
        instances.push(instanceLine(i, plan));
      }
      const summary =
        instances.length > 0
          ? instances.map(i => `${i.instance}: ${i.answer}`).join(' ')
          : `No Flux instance${input.instance ? ` named ${input.instance}` : ''} runs on ${input.cluster}.`;
      return {
        output: { cluster: input.cluster, summary, instances, generatedAt: report.generatedAt },
      };
    },
  });
}

function instanceLine(i: InstanceCapacity, plan: ShardingPlan | undefined) {
  return {
    instance: i.instance,
    verdict: i.verdict,
    answer: i.answer,
    advice: i.advice,
    ...(i.concurrencyTarget !== undefined ? { concurrencyTarget: i.concurrencyTarget } : {}),
    source: i.source,
    shards: i.shards.map(s => ({ shard: s.shard, verdict: s.verdict })),
    controllers: i.controllers.map(controllerLine),
    ...(plan ? { plan: planLine(plan) } : {}),
  };
}
