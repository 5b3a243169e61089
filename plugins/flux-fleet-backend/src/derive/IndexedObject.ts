import type {
  FindingType,
  FluxKind,
  FluxObjectRecord,
  Owner,
  ReconcileState,
  ReconcileStateName,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';

/**
 * One Flux object of the index, as a query or a route reads it: a handle on the object's slot in its cluster's
 * view, made when asked for. Identity, state name, owner, boundary, service and findings are read from the
 * view's columns; the full record and reconcile state are built on first read, so that a query that only
 * filters and sorts builds neither.
 */
export interface IndexedObject {
  /** `cluster/namespace/kind/name` (rules §1). */
  readonly key: string;
  /** Its slot in its cluster's store and view. */
  readonly slot: number;
  readonly cluster: string;
  readonly namespace: string;
  readonly kind: FluxKind;
  readonly name: string;
  /** Its lean record, as the cluster last served it. */
  readonly record: FluxObjectRecord;
  /** Its reconcile state's name, as last derived (rules §2). */
  readonly stateName: ReconcileStateName;
  /** Its reconcile state's message, as last derived. */
  readonly stateMessage: string | undefined;
  /** Its reconcile state, as derived when it last changed (rules §2). */
  readonly state: ReconcileState;
  /** From the cluster analysis (rules §4). Shared between objects: do not change it. */
  readonly owner: Owner;
  /** From the cluster analysis (rules §5). Shared between objects: do not change it. */
  readonly boundary: TenancyBoundary;
  /** From the cluster analysis (rules §6). */
  readonly service: string | null;
  /** Types of the findings about it, from the cluster analysis (rules §8). */
  readonly findings: readonly FindingType[];
  /** When the backend last saw it change, in ms since the epoch. */
  readonly updatedAt: number;
}
