import { RECONCILE_STATES, ReconcileStateName } from '@flux-fleet/plugin-flux-fleet-common';

/** The words the UI shows for each reconcile state. */
export const STATE_LABEL: Readonly<Record<ReconcileStateName, string>> = {
  ready: 'Ready',
  progressing: 'Progressing',
  failed: 'Failed',
  blocked: 'Blocked',
  stalled: 'Stalled',
  suspended: 'Suspended',
  'never-reconciled': 'Never reconciled',
  terminating: 'Terminating',
  unknown: 'Unknown',
};

/** What a state means for the person reading it, where the label alone does not say (rules §2). */
export const STATE_HINT: Readonly<Partial<Record<ReconcileStateName, string>>> =
  {
    stalled: 'Flux will not retry until the object or its source changes.',
    suspended:
      'Flux does not reconcile it until it is resumed; its status is as old as the suspension.',
    'never-reconciled':
      'No controller has reconciled it yet (no Ready condition, no observed generation).',
    blocked: 'Waiting for a dependency to become ready.',
    unknown: 'The state could not be derived from the object.',
  };

/** How a state reads at a glance: the status icon family it gets. */
export type StateTone = 'ok' | 'error' | 'warning' | 'pending' | 'aborted';

/** The tone of each state. */
export const STATE_TONE: Readonly<Record<ReconcileStateName, StateTone>> = {
  ready: 'ok',
  progressing: 'pending',
  failed: 'error',
  blocked: 'error',
  stalled: 'error',
  suspended: 'aborted',
  'never-reconciled': 'warning',
  terminating: 'pending',
  unknown: 'warning',
};

/** Worst first: which state speaks for a group of objects (e.g. one cluster's row of a service). */
const STATE_SEVERITY: readonly ReconcileStateName[] = [
  'stalled',
  'failed',
  'blocked',
  'never-reconciled',
  'unknown',
  'terminating',
  'progressing',
  'suspended',
  'ready',
];

/** Compares states worst first, for sorting. */
export function compareStateSeverity(
  a: ReconcileStateName,
  b: ReconcileStateName,
): number {
  return STATE_SEVERITY.indexOf(a) - STATE_SEVERITY.indexOf(b);
}

/** The states someone has to act on (failed, blocked, stalled): those shown in the error colour. */
export const TROUBLE_STATES: readonly ReconcileStateName[] = RECONCILE_STATES.filter(
  state => STATE_TONE[state] === 'error',
);
