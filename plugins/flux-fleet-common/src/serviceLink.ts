/**
 * Which service (catalog Component) a Flux object belongs to (rules §6), and whether it belongs to a given
 * catalog entity.
 */
import type { EntityLink } from './api';
import { matchesLabelSelector } from './labelSelector';
import { checkEntityLabelSelector } from './entitySelectorLimits';
import { inventoryWorkloadIds, visitInventoryWorkloadIds } from './record';
import type { FluxObjectRecord, WorkloadLabels } from './record';
import { ANNOTATIONS, LABELS } from './vocabulary';

/**
 * Finds the labels of a cluster's workloads by inventory id (`<namespace>_<name>_<group>_<kind>`); a `Map` will do.
 * Their labels are all that services and label selectors read of workloads (rules §6).
 */
export interface WorkloadLookup {
  get(id: string): WorkloadLabels | undefined;
}

/** The service of an object and what named it. */
export interface ServiceLink {
  service: string;
  /** `label`: its own kubernetes-id label; `annotation`: our annotation; `workload`: a workload it applied. */
  via: 'label' | 'annotation' | 'workload';
  /** For `workload`: the inventory id of the workload that named it. */
  workload?: string;
}

/**
 * The labels of the workloads of an object's inventory that the lookup knows, in inventory order. None for
 * reconcilers that apply to another cluster (`spec.kubeConfig`): their inventory is not in this cluster.
 */
export function inventoryWorkloadLabels(
  record: Pick<FluxObjectRecord, 'inventory' | 'namespace' | 'remote'>,
  workloads: WorkloadLookup | undefined,
): WorkloadLabels[] {
  if (!workloads || record.remote || !record.inventory) return [];
  const result: WorkloadLabels[] = [];
  for (const id of inventoryWorkloadIds(record)) {
    const labels = workloads.get(id);
    if (labels) result.push(labels);
  }
  return result;
}

/**
 * The service an object belongs to (rules §6), first match wins: its `backstage.io/kubernetes-id` label, our
 * `flux-fleet.io/service` annotation, the `backstage.io/kubernetes-id` label of the first workload of its
 * inventory that has one. Undefined when none names a service.
 */
export function deriveServiceLink(
  record: FluxObjectRecord,
  workloads?: WorkloadLookup,
): ServiceLink | undefined {
  const label = record.labels[LABELS.kubernetesId];
  if (label) return { service: label, via: 'label' };
  const annotation = record.annotations[ANNOTATIONS.service];
  if (annotation) return { service: annotation, via: 'annotation' };
  if (!workloads || record.remote || !record.inventory) return undefined;
  let link: ServiceLink | undefined;
  visitInventoryWorkloadIds(record, id => {
    const service = workloads.get(id)?.[LABELS.kubernetesId];
    if (service) link = { service, via: 'workload', workload: id };
    return link !== undefined;
  });
  return link;
}

/** The service an object belongs to (rules §6), or null. */
export function deriveService(
  record: FluxObjectRecord,
  workloads?: WorkloadLookup,
): string | null {
  return deriveServiceLink(record, workloads)?.service ?? null;
}

/** What {@link matchesEntityLink} reads of a Flux object. */
export interface EntityLinkTarget {
  labels: Readonly<Record<string, string>>;
  /** Its service (rules §6), or null. */
  service: string | null;
  /** Labels of the workloads in its inventory, when known. */
  workloadLabels?: Iterable<Readonly<Record<string, string>>>;
}

/** The minimal shape of a catalog entity that {@link entityLinkOf} reads. */
export interface EntityLike {
  metadata: { name: string; annotations?: Record<string, string> };
}

/**
 * How a catalog entity links to Flux objects: its `backstage.io/kubernetes-id` annotation (else its name), and
 * its `backstage.io/kubernetes-label-selector` annotation when it has one.
 */
export function entityLinkOf(entity: EntityLike): EntityLink {
  const annotations = entity.metadata.annotations ?? {};
  const link: EntityLink = {
    kubernetesId: annotations[ANNOTATIONS.kubernetesId] || entity.metadata.name,
  };
  const selector = annotations[ANNOTATIONS.kubernetesLabelSelector];
  if (selector !== undefined && selector.trim() !== '') {
    link.labelSelector = selector;
  }
  return link;
}

/**
 * Whether a Flux object belongs to a catalog entity (rules §6): its service is the entity's kubernetes-id, or
 * its labels, or the labels of a workload it applied, match the entity's label selector. A malformed selector,
 * or one past `ENTITY_SELECTOR_LIMITS`, matches nothing.
 */
export function matchesEntityLink(
  target: EntityLinkTarget,
  link: EntityLink,
): boolean {
  if (link.kubernetesId !== undefined && target.service === link.kubernetesId) {
    return true;
  }
  if (link.labelSelector === undefined || link.labelSelector.trim() === '') {
    return false;
  }
  // bounded (ENTITY_SELECTOR_LIMITS): a selector past them matches nothing, and the entity's view says why
  const { selector } = checkEntityLabelSelector(link.labelSelector);
  if (!selector) return false;
  if (matchesLabelSelector(selector, target.labels)) return true;
  for (const labels of target.workloadLabels ?? []) {
    if (matchesLabelSelector(selector, labels)) return true;
  }
  return false;
}
