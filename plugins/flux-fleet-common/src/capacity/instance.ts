/**
 * The capacity of one instance (rules §12): its shards' and controllers' verdicts, the advice for the controller
 * that decides, and the answer in one sentence with its figures.
 */
import type {
  CapacityHistoryPoint,
  CapacityVerdict,
  ControllerCapacity,
  InstanceCapacity,
  ShardCapacity,
} from '../capacityApi';
import { compareShardNames, compareText } from '../order';
import { adviseController, ControllerAdvice } from './advice';
import { formatHeldFor, heldVerdict } from './verdictDuration';
import {
  formatBytes,
  formatCores,
  formatCount,
  formatMix,
  formatPercent,
  formatRate,
  formatSeconds,
} from './format';

/** What {@link assessInstance} needs. */
export interface InstanceCapacityInput {
  cluster: string;
  instance: string;
  operatorManaged: boolean;
  /** Its controllers' capacities (`assessController`). */
  controllers: readonly ControllerCapacity[];
  /** The measured history of its controllers by controller name, oldest point first (for "for 40 minutes"). */
  history?: ReadonlyMap<string, readonly CapacityHistoryPoint[]>;
}

const VERDICT_RANK: Record<CapacityVerdict, number> = {
  ok: 0,
  'near-capacity': 1,
  'over-capacity': 2,
};

/** Worst verdict first, then the highest utilisation, then the name. */
function compareWorstFirst(a: ControllerCapacity, b: ControllerCapacity) {
  return (
    VERDICT_RANK[b.verdict] - VERDICT_RANK[a.verdict] ||
    (b.figures.utilisation?.value ?? 0) - (a.figures.utilisation?.value ?? 0) ||
    compareText(a.controller, b.controller)
  );
}

function worstVerdict(list: readonly ControllerCapacity[]): CapacityVerdict {
  return list.reduce<CapacityVerdict>(
    (worst, c) =>
      VERDICT_RANK[c.verdict] > VERDICT_RANK[worst] ? c.verdict : worst,
    'ok',
  );
}

function shardsOf(input: InstanceCapacityInput): ShardCapacity[] {
  const byShard = new Map<string, ControllerCapacity[]>();
  for (const c of input.controllers) {
    const list = byShard.get(c.shard) ?? [];
    list.push(c);
    byShard.set(c.shard, list);
  }
  return [...byShard.entries()]
    .sort(([a], [b]) => compareShardNames(a, b))
    .map(([shard, list]) => {
      const busiest = [...list].sort(compareWorstFirst)[0];
      const result: ShardCapacity = {
        cluster: input.cluster,
        instance: input.instance,
        shard,
        verdict: worstVerdict(list),
        busiestController: busiest.controller,
        controllers: list.map(c => c.controller).sort(compareText),
      };
      if (busiest.figures.utilisation) {
        result.utilisation = busiest.figures.utilisation;
      }
      return result;
    });
}

/** " (estimated: <why>)" for an estimated controller, else "". */
function estimated(c: ControllerCapacity): string {
  return c.source === 'estimate'
    ? ` (estimated from intervals: ${c.estimateReason})`
    : '';
}

function busy(c: ControllerCapacity): string {
  const u = c.figures.utilisation;
  return u ? `${formatPercent(u.value)} busy` : 'without workers';
}

function okAnswer(c: ControllerCapacity): string {
  if (c.objectCount === 0) {
    return `No: ${c.controller} reconciles no objects${estimated(c)}.`;
  }
  let room = '';
  if (c.headroomText === 'none') room = ', with no room for more at this mix';
  else if (c.headroomText !== undefined) {
    room = `, room for ${c.headroomText} more at this mix`;
  }
  return `No: ${c.controller} is ${busy(c)}${estimated(c)} with ${formatMix(
    c.objectCount,
    c.countsByKind,
  )}${room}.`;
}

function cpuClause(c: ControllerCapacity, a: ControllerAdvice): string {
  const limit = c.figures.cpuLimitCores?.value;
  if (a.cpuAtTargetCores === undefined) {
    return 'CPU was not measured, so watch it after the change';
  }
  const cores = formatCores(a.cpuAtTargetCores);
  // "under 1 millicore" is already a bound: no "about" before it
  const need = `${cores.startsWith('under') ? cores : `about ${cores}`} at ${
    a.concurrencyTarget
  } workers`;
  return limit === undefined
    ? `CPU allows it (${need}, no CPU limit)`
    : `CPU allows it (${need}, limit ${formatCores(limit)})`;
}

/** The figures that show the trouble: queue wait when measured, then utilisation and workers. */
function troubleFigures(c: ControllerCapacity): string {
  const parts: string[] = [];
  const wait = c.figures.queueWaitP95Seconds?.value;
  if (wait !== undefined) parts.push(`queue wait p95 ${formatSeconds(wait)}`);
  parts.push(
    `${busy(c)} at ${formatCount(c.figures.concurrent.value)} workers`,
  );
  return parts.join(', ');
}

function overPhrase(
  c: ControllerCapacity,
  history: readonly CapacityHistoryPoint[] | undefined,
): string {
  const state = c.verdict === 'over-capacity' ? 'over' : 'near';
  if (c.source === 'estimate') {
    return `is ${state} capacity by the interval estimate (${c.estimateReason})`;
  }
  const heldFor =
    c.verdict === 'ok'
      ? undefined
      : formatHeldFor(heldVerdict(history ?? [], c.verdict));
  if (heldFor) return `has been ${state} capacity ${heldFor}`;
  return c.windowSeconds !== undefined && c.windowSeconds > 0
    ? `has been ${state} capacity for the last ${formatSeconds(
        c.windowSeconds,
      )}`
    : `is ${state} capacity`;
}

function shardAnswer(
  c: ControllerCapacity,
  a: ControllerAdvice,
  history: readonly CapacityHistoryPoint[] | undefined,
): string {
  let why: string;
  if (a.blockedBy === 'cpu' && a.cpuAtTargetCores !== undefined) {
    why = `more workers would not fit: ${
      a.concurrencyTarget
    } workers would need about ${formatCores(
      a.cpuAtTargetCores,
    )}, limit ${formatCores(c.figures.cpuLimitCores?.value ?? 0)}`;
  } else if (a.blockedBy === 'memory') {
    why = `more workers would not fit: memory is at ${formatPercent(
      c.figures.memoryOfLimit?.value ?? 0,
    )} of its limit`;
  } else {
    why = `even 20 workers would be ${formatPercent(
      a.demandWorkers / 20,
    )} busy`;
  }
  return `Shard: ${c.controller} ${overPhrase(c, history)} (${troubleFigures(
    c,
  )}); ${why}.`;
}

function limitsAnswer(c: ControllerCapacity): string {
  const cpu = c.figures.cpuOfLimit;
  const memory = c.figures.memoryOfLimit;
  const parts: string[] = [];
  if (cpu && c.reasons.some(r => r.code === 'cpu-near-limit')) {
    parts.push(
      `CPU is at ${formatPercent(cpu.value)} of its ${formatCores(
        c.figures.cpuLimitCores?.value ?? 0,
      )} limit`,
    );
  }
  if (memory && c.reasons.some(r => r.code === 'memory-near-limit')) {
    parts.push(
      `memory is at ${formatPercent(memory.value)} of its ${formatBytes(
        c.figures.memoryLimitBytes?.value ?? 0,
      )} limit`,
    );
  }
  const what = parts.length > 0 ? parts.join(' and ') : 'it runs out of room';
  return `Raise the limits of ${
    c.controller
  } first: ${what}, while it is ${busy(c)} at ${formatCount(
    c.figures.concurrent.value,
  )} workers.`;
}

function answerFor(
  c: ControllerCapacity,
  a: ControllerAdvice,
  history: readonly CapacityHistoryPoint[] | undefined,
): string {
  switch (a.advice) {
    case 'none':
      return okAnswer(c);
    case 'raise-concurrency':
      return `Raise --concurrent of ${c.controller} to ${
        a.concurrencyTarget
      } first: it is ${busy(c)}${estimated(c)} at ${formatCount(
        c.figures.concurrent.value,
      )} workers with ${formatMix(c.objectCount, c.countsByKind)}; ${cpuClause(
        c,
        a,
      )}.`;
    case 'raise-limits':
      return limitsAnswer(c);
    case 'check-api-throttling':
      return `Not by sharding: the Kubernetes API throttles ${
        c.controller
      } (${formatRate(
        c.figures.apiThrottledPerSecond?.value ?? 0,
      )} requests a second answered 429) while it is ${busy(
        c,
      )}; more workers or shards would only add requests, so look at the API server's priority and fairness first.`;
    case 'shard':
      return shardAnswer(c, a, history);
    default:
      return okAnswer(c);
  }
}

/** The capacity of one instance with its one-sentence answer (rules §12). */
export function assessInstance(input: InstanceCapacityInput): InstanceCapacity {
  const controllers = [...input.controllers].sort(
    (a, b) =>
      compareShardNames(a.shard, b.shard) ||
      compareText(a.component, b.component) ||
      compareText(a.controller, b.controller),
  );
  const base = {
    cluster: input.cluster,
    instance: input.instance,
    operatorManaged: input.operatorManaged,
    shards: shardsOf(input),
    controllers,
  };
  if (controllers.length === 0) {
    return {
      ...base,
      verdict: 'ok',
      advice: 'none',
      source: 'estimate',
      answer: `No figures: instance ${input.instance} in cluster ${input.cluster} runs no Flux controllers.`,
    };
  }
  // The controller the answer is about: the worst, or when all are ok the busiest that has objects.
  const ranked = [...controllers].sort(compareWorstFirst);
  const decider =
    ranked[0].verdict === 'ok'
      ? ranked.find(c => c.objectCount > 0) ?? ranked[0]
      : ranked[0];
  const advice = adviseController(decider);
  const result: InstanceCapacity = {
    ...base,
    verdict: worstVerdict(controllers),
    answer: answerFor(decider, advice, input.history?.get(decider.controller)),
    advice: advice.advice,
    controller: decider.controller,
    source: decider.source,
  };
  if (advice.advice === 'raise-concurrency') {
    result.concurrencyTarget = advice.concurrencyTarget;
  }
  return result;
}
