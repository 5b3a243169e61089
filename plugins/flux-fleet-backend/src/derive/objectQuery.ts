import type { ReconcileStateName } from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from './IndexedObject';

/** Default and largest page of `GET /objects` (docs/api.md). */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** The order of `sort=state`: worst first, as the UI groups a service's rows. */
export const STATE_SEVERITY: readonly ReconcileStateName[] = [
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

/** A page of matching objects, in order, with the total and the next page's cursor. */
export interface ObjectPage {
  items: IndexedObject[];
  totalCount: number;
  nextCursor?: string;
}
