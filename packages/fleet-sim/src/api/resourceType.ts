/** The shape of one API resource the simulated API server serves (resourceTypes.ts lists them). */

/** A column of the server-side table printing (`kubectl get`). */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'date' | 'integer' | 'number' | 'boolean';
  /** A JSONPath like `.status.conditions[?(@.type=="Ready")].status`. */
  jsonPath: string;
  priority?: number;
  description?: string;
}

/** One kind of object the simulated API server stores and serves. */
export interface ResourceType {
  /** API group, `''` for the core group. */
  group: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Whether the `status` subresource exists (status is then ignored on writes of the main resource). */
  statusSubresource: boolean;
  verbs: string[];
  /** Columns after Name (`kubectl get`); the CRD ones for Flux kinds. */
  columns: PrinterColumn[];
  /** Whether objects are Flux objects. */
  flux: boolean;
}
