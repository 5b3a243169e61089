import type {
  FindingType,
  FluxKind,
  FluxObjectRecord,
  Owner,
  ReconcileState,
  ReconcileStateName,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from './IndexedObject';

/** What an {@link IndexedObject} reads of a view's columns, by slot (the view's columns implement it). */
export interface ObjectColumns {
  readonly cluster: string;
  keyOf(slot: number): string;
  nameAt(slot: number): string;
  recordOf(slot: number): FluxObjectRecord;
  kindOf(slot: number): FluxKind;
  stateNameOf(slot: number): ReconcileStateName;
  stateMessageOf(slot: number): string | undefined;
  stateOf(slot: number): ReconcileState;
  ownerOf(slot: number): Owner;
  boundaryOf(slot: number): TenancyBoundary;
  serviceOf(slot: number): string | null;
  findingTypesOf(slot: number): readonly FindingType[];
  updatedAtOf(slot: number): number;
}

class ColumnsObject implements IndexedObject {
  readonly key: string;
  private cachedRecord?: FluxObjectRecord;
  private cachedState?: ReconcileState;

  constructor(private readonly columns: ObjectColumns, readonly slot: number) {
    this.key = columns.keyOf(slot);
  }

  get cluster(): string {
    return this.columns.cluster;
  }

  get namespace(): string {
    // a boundary's namespace is its object's (rules §5): no record needs building to read it
    return this.columns.boundaryOf(this.slot).namespace;
  }

  get kind(): FluxKind {
    return this.columns.kindOf(this.slot);
  }

  get name(): string {
    return this.columns.nameAt(this.slot);
  }

  get record(): FluxObjectRecord {
    this.cachedRecord ??= this.columns.recordOf(this.slot);
    return this.cachedRecord;
  }

  get stateName(): ReconcileStateName {
    return this.columns.stateNameOf(this.slot);
  }

  get stateMessage(): string | undefined {
    return this.columns.stateMessageOf(this.slot);
  }

  get state(): ReconcileState {
    this.cachedState ??= this.columns.stateOf(this.slot);
    return this.cachedState;
  }

  get owner(): Owner {
    return this.columns.ownerOf(this.slot);
  }

  get boundary(): TenancyBoundary {
    return this.columns.boundaryOf(this.slot);
  }

  get service(): string | null {
    return this.columns.serviceOf(this.slot);
  }

  get findings(): readonly FindingType[] {
    return this.columns.findingTypesOf(this.slot);
  }

  get updatedAt(): number {
    return this.columns.updatedAtOf(this.slot);
  }
}

/** The {@link IndexedObject} of a shown slot: a handle that reads the columns when asked. */
export function indexedObjectAt(columns: ObjectColumns, slot: number): IndexedObject {
  return new ColumnsObject(columns, slot);
}
