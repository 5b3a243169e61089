/** Growing the typed-array columns the index keeps one value per slot in (PackedRecords, ClusterView). */

/** What columns start with, in slots. */
export const INITIAL_CAPACITY = 256;

type Column = Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array;

/** A copy of `array` with room for `capacity` values. */
export function grown<T extends Column>(array: T, capacity: number): T {
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  return next;
}

/**
 * The capacity that holds `slot`, grown from `capacity` by half again at each step: a doubling would leave a
 * third of the columns unused on average.
 */
export function capacityFor(capacity: number, slot: number): number {
  let next = capacity;
  while (next <= slot) next = Math.ceil(next * 1.5);
  return next;
}
