import type {
  FindingType,
  FluxObjectRecord,
  Owner,
  ReconcileState,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';

/**
 * One Flux object in the index: its lean record and what was derived from it. Owner, boundary and findings are
 * shared frozen values (equal ones are one object), so most of the memory is the record itself.
 */
export interface IndexedObject {
  readonly key: string;
  record: FluxObjectRecord;
  /** Re-derived from the record alone on every status change (rules §2). */
  state: ReconcileState;
  /** From the cluster analysis (rules §4). */
  owner: Owner;
  /** From the cluster analysis (rules §5). */
  boundary: TenancyBoundary;
  /** From the cluster analysis (rules §6). */
  service: string | null;
  /** Types of the findings about it, from the cluster analysis (rules §8). */
  findings: readonly FindingType[];
  /** When the backend last saw it change, in ms since the epoch. */
  updatedAt: number;
}
