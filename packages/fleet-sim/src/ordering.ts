/** Orderings used to emit objects and truth in a stable order. */

/** Compares strings by code unit, as etcd orders keys. */
export function compareStrings(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/** A comparator over several string fields, in order. */
export function byFields<T>(...fields: Array<keyof T>): (a: T, b: T) => number {
  return (a, b) => {
    for (const field of fields) {
      const order = compareStrings(String(a[field]), String(b[field]));
      if (order !== 0) return order;
    }
    return 0;
  };
}
