import type {
  FindingType,
  FluxKind,
  FluxObjectRecord,
  Owner,
  ReconcileState,
  ReconcileStateName,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterView } from './ClusterView';
import type { IndexedObject } from './IndexedObject';

/** A handle on one shown object of a view. */
export class ViewObject implements IndexedObject {
  readonly key: string;
  private cachedRecord?: FluxObjectRecord;
  private cachedState?: ReconcileState;

  constructor(private readonly view: ClusterView, readonly slot: number) {
    this.key = view.keyOf(slot);
  }

  get cluster(): string {
    return this.view.cluster;
  }

  get namespace(): string {
    // a boundary's namespace is its object's (rules §5): no record needs building to read it
    return this.view.boundaryOf(this.slot).namespace;
  }

  get kind(): FluxKind {
    return this.view.kindOf(this.slot);
  }

  get name(): string {
    return this.view.table.nameAt(this.slot);
  }

  get record(): FluxObjectRecord {
    this.cachedRecord ??= this.view.recordOf(this.slot);
    return this.cachedRecord;
  }

  get stateName(): ReconcileStateName {
    return this.view.stateNameOf(this.slot);
  }

  get stateMessage(): string | undefined {
    return this.view.stateMessageOf(this.slot);
  }

  get state(): ReconcileState {
    this.cachedState ??= this.view.stateOf(this.slot);
    return this.cachedState;
  }

  get owner(): Owner {
    return this.view.ownerOf(this.slot);
  }

  get boundary(): TenancyBoundary {
    return this.view.boundaryOf(this.slot);
  }

  get service(): string | null {
    return this.view.serviceOf(this.slot);
  }

  get findings(): readonly FindingType[] {
    return this.view.findingTypesOf(this.slot);
  }

  get updatedAt(): number {
    return this.view.updatedAtOf(this.slot);
  }
}
