/**
 * Objects that must share a shard (rules §13): a source with every object that references it, a HelmRelease with
 * the HelmChart generated for it, both ends of every `dependsOn`, an ImagePolicy with its ImageRepository, an
 * ImageUpdateAutomation with its GitRepository. Union-find over the references, so a chain of any length is one
 * group; references to objects outside the plan (another instance, missing) join nothing.
 */
import { compareText } from '../order';
import { fluxObjectKey } from '../record';
import type { FluxObjectRecord } from '../record';
import { referenceKey, referencesOf } from '../references';
import { FLUX_KINDS, FluxKind } from '../vocabulary';

/** One group of objects that move together, with the member the most others reference. */
export interface ObjectGroup {
  /** Indices into the objects given, in object order (namespace, kind, name). */
  members: number[];
  /** The index of the member the others reference most (its name is the group's name). */
  root: number;
}

/** The key of the HelmChart helm-controller generates for a HelmRelease with a chart template (`<ns>-<name>`). */
export function generatedHelmChartKey(
  record: FluxObjectRecord,
): string | undefined {
  if (record.kind !== 'HelmRelease' || record.chart === undefined) {
    return undefined;
  }
  const sourceNamespace = record.sourceRef?.namespace ?? record.namespace;
  return fluxObjectKey(
    record.cluster,
    sourceNamespace,
    'HelmChart',
    `${record.namespace}-${record.name}`,
  );
}

const KIND_ORDER = new Map<string, number>(FLUX_KINDS.map((k, i) => [k, i]));

/** Objects in a stable order: namespace, kind (in {@link FLUX_KINDS} order), name. */
export function compareObjects(
  a: Pick<FluxObjectRecord, 'namespace' | 'kind' | 'name'>,
  b: Pick<FluxObjectRecord, 'namespace' | 'kind' | 'name'>,
): number {
  return (
    compareText(a.namespace, b.namespace) ||
    (KIND_ORDER.get(a.kind as FluxKind) ?? 99) -
      (KIND_ORDER.get(b.kind as FluxKind) ?? 99) ||
    compareText(a.name, b.name)
  );
}

/** The groups of a list of objects (rules §13), largest first by member count, then by root. */
export function groupObjects(
  objects: readonly FluxObjectRecord[],
): ObjectGroup[] {
  const parent = objects.map((_, i) => i);
  const find = (start: number): number => {
    let root = start;
    while (parent[root] !== root) root = parent[root];
    // Path compression keeps long dependsOn chains cheap.
    for (let i = start; parent[i] !== root; ) {
      const next = parent[i];
      parent[i] = root;
      i = next;
    }
    return root;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };

  const index = new Map<string, number>();
  objects.forEach((o, i) => index.set(o.key, i));
  const referrers = new Array<number>(objects.length).fill(0);
  objects.forEach((o, i) => {
    const targets = referencesOf(o).map(ref =>
      index.get(referenceKey(o.cluster, ref)),
    );
    const generated = generatedHelmChartKey(o);
    if (generated !== undefined) targets.push(index.get(generated));
    for (const t of targets) {
      if (t === undefined || t === i) continue;
      union(i, t);
      referrers[t]++;
    }
  });

  const byRoot = new Map<number, number[]>();
  objects.forEach((_, i) => {
    const r = find(i);
    const list = byRoot.get(r);
    if (list) list.push(i);
    else byRoot.set(r, [i]);
  });
  const groups: ObjectGroup[] = [...byRoot.values()].map(members => {
    members.sort((a, b) => compareObjects(objects[a], objects[b]));
    let root = members[0];
    for (const m of members) {
      if (referrers[m] > referrers[root]) root = m;
    }
    return { members, root };
  });
  return groups.sort(
    (a, b) =>
      b.members.length - a.members.length ||
      compareObjects(objects[a.root], objects[b.root]),
  );
}
