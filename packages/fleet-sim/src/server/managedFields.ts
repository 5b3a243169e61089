/**
 * `metadata.managedFields` as kube-apiserver keeps them, reduced to what clients read: one entry per field
 * manager, operation and subresource, with the API version the write was made at and its time. The simulator
 * does not track which fields each manager owns (`fieldsV1` stays empty): Flux Fleet reads the entries for the
 * version an object was last written with (rules §10).
 */

/** One managedFields entry. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, never>;
  subresource?: string;
}

/** What a write says about itself. */
export interface WriteFacts {
  /** The `fieldManager` query parameter, if given. */
  manager: string | null;
  operation: 'Apply' | 'Update';
  /** `group/version` of the request's URL. */
  apiVersion: string;
  subresource?: string;
  time: string;
}

/**
 * The managedFields after a write: the writer's entry (same manager, operation and subresource) replaced by
 * one at this write's version and time, every other entry kept. kube-apiserver names a manager that gave none
 * after the client's user agent; the simulator calls it `unknown`.
 */
export function nextManagedFields(
  previous: unknown,
  write: WriteFacts,
): ManagedFieldsEntry[] {
  const manager = write.manager || 'unknown';
  const kept = (Array.isArray(previous) ? previous : []).filter(
    (e: any) =>
      e &&
      typeof e === 'object' &&
      !(
        e.manager === manager &&
        e.operation === write.operation &&
        (e.subresource ?? '') === (write.subresource ?? '')
      ),
  ) as ManagedFieldsEntry[];
  return [
    ...kept,
    {
      manager,
      operation: write.operation,
      apiVersion: write.apiVersion,
      time: write.time,
      fieldsType: 'FieldsV1',
      fieldsV1: {},
      ...(write.subresource ? { subresource: write.subresource } : {}),
    },
  ];
}
