import {
  ClusterHealth,
  FleetObject,
  fluxObjectReconcilePermission,
  fluxObjectSuspendPermission,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { ObjectActionName } from '../hooks/useObjectAction';

/** One action a person can take on an object, and why they cannot right now (when they cannot). */
export interface ActionAvailability {
  action: ObjectActionName;
  label: string;
  /** Set when the action is disabled: the reason, in words, shown beside the button. */
  disabledReason?: string;
}

/** The words of each action. */
export const ACTION_LABEL: Readonly<Record<ObjectActionName, string>> = {
  reconcile: 'Reconcile',
  'force-reconcile': 'Force reconcile',
  suspend: 'Suspend',
  resume: 'Resume',
};

/** A permission decision, as the permission hook gives it. */
interface Decision {
  allowed: boolean;
  loading: boolean;
}

/**
 * Which actions to offer on an object and, for each, the first reason it cannot run: a kind Flux does not
 * reconcile, a cluster that cannot be reached or whose credentials are read-only, a permission the user lacks, or
 * a suspended object (Flux refuses to reconcile those). The backend checks again; this only spares a useless click.
 */
export function actionAvailability(
  object: Pick<FleetObject, 'key' | 'ref' | 'suspended' | 'stale' | 'state'>,
  cluster: Pick<ClusterHealth, 'name' | 'status' | 'readOnly'> | undefined,
  permissions: { reconcile: Decision; suspend: Decision },
): ActionAvailability[] {
  const actions: ObjectActionName[] = ['reconcile'];
  if (object.ref.kind === 'HelmRelease') {
    actions.push('force-reconcile');
  }
  actions.push(object.suspended ? 'resume' : 'suspend');

  const clusterName = object.ref.cluster;
  const unreachable =
    object.stale ||
    cluster?.status === 'unreachable' ||
    cluster?.status === 'unauthorized';

  return actions.map(action => {
    const isReconcile = action === 'reconcile' || action === 'force-reconcile';
    const decision = isReconcile ? permissions.reconcile : permissions.suspend;
    const permission = isReconcile
      ? fluxObjectReconcilePermission
      : fluxObjectSuspendPermission;
    let disabledReason: string | undefined;
    if (object.ref.kind === 'ExternalArtifact') {
      disabledReason =
        'Flux does not reconcile an ExternalArtifact: its producer writes it.';
    } else if (unreachable) {
      disabledReason = `Cluster ${clusterName} cannot be reached, so the request cannot be written.`;
    } else if (cluster?.readOnly) {
      disabledReason = `The credentials for cluster ${clusterName} are read-only.`;
    } else if (decision.loading) {
      disabledReason = 'Checking your permission…';
    } else if (!decision.allowed) {
      disabledReason = `You do not have the permission ${permission.name} on ${object.key}.`;
    } else if (isReconcile && object.suspended) {
      disabledReason =
        'It is suspended: resume it first (Flux does not reconcile a suspended object).';
    } else if (object.state.state === 'terminating') {
      disabledReason = 'It is being deleted.';
    }
    return { action, label: ACTION_LABEL[action], disabledReason };
  });
}
