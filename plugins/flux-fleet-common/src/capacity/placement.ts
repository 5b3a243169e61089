/**
 * Where each group goes (rules §13): groups stay where they are unless their shard would be at 70 % or more, then
 * the largest leave first; groups without a place go largest first onto the shard they load least (LPT). Loads
 * are busy workers per controller component; a shard's utilisation is that of its busiest controller. A group that
 * loads no sharded controller (suspended, image objects alone) stays where it is.
 */
import { compareText } from '../order';
import type { ControllerComponent } from '../vocabulary';
import { UTILISATION_NEAR_CAPACITY } from './thresholds';

/** Busy workers per component. */
export type LoadVector = Partial<Record<ControllerComponent, number>>;

/** A group as placement sees it. */
export interface PlacementGroup {
  load: LoadVector;
  /** The target it is on now, or undefined when it must be placed (fresh plan, or its shard is gone). */
  current?: string;
  /** Sort key for ties. */
  name: string;
}

/** `--concurrent` of each component on a target. */
export type Concurrency = (
  target: string,
  component: ControllerComponent,
) => number;

/** The result: each group's target and each target's load. */
export interface Placement {
  to: string[];
  loads: Map<string, LoadVector>;
}

function add(into: LoadVector, load: LoadVector, sign = 1): void {
  for (const [c, v] of Object.entries(load) as Array<
    [ControllerComponent, number]
  >) {
    into[c] = (into[c] ?? 0) + sign * v;
  }
}

/** Utilisation of the busiest controller of a target holding `load`. */
export function utilisationOfLoad(
  target: string,
  load: LoadVector,
  concurrency: Concurrency,
): number {
  let max = 0;
  for (const [c, v] of Object.entries(load) as Array<
    [ControllerComponent, number]
  >) {
    if (v <= 0) continue;
    const u = v / Math.max(1, concurrency(target, c));
    if (u > max) max = u;
  }
  return max;
}

/** Places groups on targets (rules §13). `keep` false ignores where they are now (a fresh plan). */
export function placeGroups(
  groups: readonly PlacementGroup[],
  targets: readonly string[],
  concurrency: Concurrency,
  keep: boolean,
): Placement {
  const loads = new Map<string, LoadVector>(targets.map(t => [t, {}]));
  const members = new Map<string, number[]>(targets.map(t => [t, []]));
  const to = new Array<string>(groups.length).fill('');
  const sizeAt = (i: number, target: string) =>
    utilisationOfLoad(target, groups[i].load, concurrency);
  const bySizeThenName = (target: string) => (a: number, b: number) =>
    sizeAt(b, target) - sizeAt(a, target) ||
    compareText(groups[a].name, groups[b].name);

  const unplaced: number[] = [];
  groups.forEach((g, i) => {
    // A group that loads no sharded controller gains nothing from a move: it stays (on main when its shard is gone).
    const idle = Object.values(g.load).every(v => !(v! > 0));
    if (idle) {
      const stay =
        g.current !== undefined && loads.has(g.current)
          ? g.current
          : targets[0];
      to[i] = stay;
      members.get(stay)!.push(i);
    } else if (keep && g.current !== undefined && loads.has(g.current)) {
      to[i] = g.current;
      add(loads.get(g.current)!, g.load);
      members.get(g.current)!.push(i);
    } else {
      unplaced.push(i);
    }
  });

  if (keep) {
    // The fewest moves that bring a shard under 70 %: the largest of its groups leave first.
    for (const target of targets) {
      const list = members.get(target)!.sort(bySizeThenName(target));
      const load = loads.get(target)!;
      let k = 0;
      while (
        list.length - k > 1 &&
        utilisationOfLoad(target, load, concurrency) >=
          UTILISATION_NEAR_CAPACITY
      ) {
        const i = list[k++];
        add(load, groups[i].load, -1);
        unplaced.push(i);
      }
    }
  }

  // Largest first onto the target it leaves least loaded; ties go to the earlier target (main first).
  unplaced.sort(bySizeThenName(targets[0]));
  for (const i of unplaced) {
    let best = targets[0];
    let bestUtil = Infinity;
    for (const target of targets) {
      const trial: LoadVector = { ...loads.get(target)! };
      add(trial, groups[i].load);
      const u = utilisationOfLoad(target, trial, concurrency);
      if (u < bestUtil - 1e-12) {
        best = target;
        bestUtil = u;
      }
    }
    to[i] = best;
    add(loads.get(best)!, groups[i].load);
  }
  return { to, loads };
}
