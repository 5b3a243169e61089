/**
 * A group that alone takes a shard to 70 % or more (rules §13) cannot be helped by placement: it says so, with the
 * advice that fits: more workers on its shard when a step of the ladder holds it, else splitting it.
 */
import type { ControllerComponent } from '../vocabulary';
import { concurrencyStepFor } from './advice';
import { formatCount, formatPercent } from './format';
import type { Concurrency, PlacementGroup } from './placement';
import { UTILISATION_NEAR_CAPACITY } from './thresholds';

/** Why a group is too big for one shard and what to do, or undefined when it fits. */
export function oversizeAdvice(
  group: PlacementGroup,
  memberCount: number,
  target: string,
  concurrency: Concurrency,
): string | undefined {
  const over = (
    Object.entries(group.load) as Array<[ControllerComponent, number]>
  )
    .map(([component, busy]) => ({
      component,
      busy,
      concurrent: concurrency(target, component),
    }))
    .filter(
      x => x.busy / Math.max(1, x.concurrent) >= UTILISATION_NEAR_CAPACITY,
    )
    .sort((a, b) => b.busy / b.concurrent - a.busy / a.concurrent);
  if (over.length === 0) return undefined;
  const { component, busy, concurrent } = over[0];
  const alone = `alone it keeps ${component} on ${target} ${formatPercent(
    busy / Math.max(1, concurrent),
  )} busy (${formatCount(memberCount)} objects that must share a shard)`;
  const step = concurrencyStepFor(concurrent, busy);
  return step !== undefined
    ? `${alone}: raise --concurrent of ${component} on ${target} to ${step}`
    : `${alone}: split it, giving some of the objects that use its source a source of their own or breaking its dependsOn chain`;
}
