import {
  FleetObject,
  FluxKind,
  ReconcileStateName,
} from '@flux-fleet/plugin-flux-fleet-common';

/** The filters of the entity tab's table; empty = no filter. */
export interface EntityObjectFilter {
  cluster: string;
  kind: FluxKind | '';
  state: ReconcileStateName | '';
  text: string;
}

export const NO_FILTER: EntityObjectFilter = {
  cluster: '',
  kind: '',
  state: '',
  text: '',
};

/** Whether an object passes the filters; the text matches name, namespace, cluster, shard, tenant, reason, message. */
export function matchesFilter(
  object: FleetObject,
  filter: EntityObjectFilter,
): boolean {
  if (filter.cluster && object.ref.cluster !== filter.cluster) {
    return false;
  }
  if (filter.kind && object.ref.kind !== filter.kind) {
    return false;
  }
  if (filter.state && object.state.state !== filter.state) {
    return false;
  }
  const text = filter.text.trim().toLocaleLowerCase('en-US');
  if (!text) {
    return true;
  }
  return [
    object.ref.name,
    object.ref.namespace,
    object.ref.cluster,
    object.owner.shard,
    object.owner.instance,
    object.boundary.tenant,
    object.state.reason,
    object.state.message,
  ].some(value => value?.toLocaleLowerCase('en-US').includes(text));
}
