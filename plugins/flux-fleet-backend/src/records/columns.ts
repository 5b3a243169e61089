/** Growing the typed-array columns the index keeps one value per slot in (PackedRecords, ClusterView). */

/** What columns start with, in slots. */
export const INITIAL_CAPACITY = 256;

type Column = Uint8Array | Uint16Array | Int16Array | Int32Array | Uint32Array | Float64Array;

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

/**
 * A column of codes (numbers standing for values, from 0): 16 bits a slot until a code needs more. Few columns of
 * a cluster ever have 65,536 distinct values, and the 2 bytes a slot saved on each code column come to about 3 MB
 * at fleet M (9 code columns and the 3 of generations, {@link WholeColumn}; 107,208 objects).
 */
export type CodeColumn = Uint16Array | Uint32Array;

/** A column of whole numbers with negative markers (absent, elsewhere): 16 bits a slot until a value needs more. */
export type WholeColumn = Int16Array | Int32Array;

/** Writes a code into its column: the column itself, or a 32-bit copy when the code does not fit 16 bits. */
export function withCode(column: CodeColumn, slot: number, code: number): CodeColumn {
  let target = column;
  if (code > 0xffff && target instanceof Uint16Array) target = Uint32Array.from(target);
  target[slot] = code;
  return target;
}

/** Writes a whole number (within 32 bits) into its column: the column itself, or a 32-bit copy when it needs one. */
export function withWhole(column: WholeColumn, slot: number, value: number): WholeColumn {
  let target = column;
  if ((value > 0x7fff || value < -0x8000) && target instanceof Int16Array) target = Int32Array.from(target);
  target[slot] = value;
  return target;
}
