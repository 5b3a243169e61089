/** What changed in a cluster's store since the last commit. */
export interface StoreChanges {
  /** Objects added or removed, or changed other than in status; or controllers, namespaces, workloads changed. */
  structural: boolean;
  /** Objects whose status alone changed since the last commit (their state must be re-derived). */
  statusKeys: Set<string>;
  /** Objects added, removed or changed other than in status: they wait for an analysis. */
  structuralKeys: Set<string>;
  /** Objects added, changed or removed (every kind of change), for signals. */
  changedKeys: Set<string>;
  /** Objects with new events only. */
  eventKeys: Set<string>;
}

/** No changes. */
export function emptyChanges(): StoreChanges {
  return {
    structural: false,
    statusKeys: new Set(),
    structuralKeys: new Set(),
    changedKeys: new Set(),
    eventKeys: new Set(),
  };
}
