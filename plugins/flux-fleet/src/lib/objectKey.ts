import { FluxObjectRef } from '@flux-fleet/plugin-flux-fleet-common';

/** The key of a Flux object, `cluster/namespace/kind/name` (rules §1). */
export function objectKey(ref: FluxObjectRef): string {
  return `${ref.cluster}/${ref.namespace}/${ref.kind}/${ref.name}`;
}

/** How the UI names an object in a sentence: `Kustomization team-payments/payments`. */
export function objectTitle(
  ref: Pick<FluxObjectRef, 'kind' | 'namespace' | 'name'>,
): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}
