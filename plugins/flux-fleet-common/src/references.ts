/**
 * References from one Flux object to others in the same cluster (rules §7), with the namespace defaulted to the
 * object's own: its source (or image repository, or provider) and its `dependsOn` targets.
 */
import { fluxObjectKey } from './record';
import type { FluxObjectRecord } from './record';
import type { ObjectReference } from './types';

/** What a reference is for: the object's source (rules §7 first item) or a `dependsOn` target. */
export type ReferenceRole = 'source' | 'dependency';

/** A reference with its namespace resolved, its role and the field it comes from. */
export interface ResolvedReference extends ObjectReference {
  role: ReferenceRole;
  /** The spec field, e.g. `spec.sourceRef`, `spec.chart.spec.sourceRef`, `spec.dependsOn[1]`. */
  field: string;
}

function sourceField(record: FluxObjectRecord): string {
  switch (record.kind) {
    case 'HelmRelease':
      return record.chart !== undefined
        ? 'spec.chart.spec.sourceRef'
        : 'spec.chartRef';
    case 'ImagePolicy':
      return 'spec.imageRepositoryRef';
    case 'Alert':
      return 'spec.providerRef';
    default:
      return 'spec.sourceRef';
  }
}

/**
 * The source of an object (Kustomization, HelmRelease, HelmChart, ImageUpdateAutomation: its source; ImagePolicy:
 * its ImageRepository; Alert: its Provider), namespace defaulted to the object's; undefined when it has none.
 */
export function sourceReferenceOf(
  record: FluxObjectRecord,
): ObjectReference | undefined {
  const ref = record.sourceRef;
  if (!ref) return undefined;
  return {
    kind: ref.kind,
    namespace: ref.namespace ?? record.namespace,
    name: ref.name,
  };
}

/** The `dependsOn` targets of a Kustomization or HelmRelease (same kind), namespaces defaulted to the object's. */
export function dependencyReferencesOf(
  record: FluxObjectRecord,
): ObjectReference[] {
  if (!record.dependsOn) return [];
  return record.dependsOn.map(ref => ({
    kind: ref.kind,
    namespace: ref.namespace ?? record.namespace,
    name: ref.name,
  }));
}

/** Every reference of an object: its source first, then its dependencies in spec order. */
export function referencesOf(record: FluxObjectRecord): ResolvedReference[] {
  const result: ResolvedReference[] = [];
  const source = sourceReferenceOf(record);
  if (source) {
    result.push({ ...source, role: 'source', field: sourceField(record) });
  }
  dependencyReferencesOf(record).forEach((ref, i) =>
    result.push({ ...ref, role: 'dependency', field: `spec.dependsOn[${i}]` }),
  );
  return result;
}

/** The key of the object a reference points to, in the referring object's cluster. */
export function referenceKey(cluster: string, ref: ObjectReference): string {
  return fluxObjectKey(cluster, ref.namespace, ref.kind, ref.name);
}
