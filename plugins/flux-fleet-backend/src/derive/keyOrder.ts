import { rankIn } from './pageOrder';
import type { ViewColumns } from './ViewColumns';

/**
 * The objects of one cluster's view in key order, as numbers: the rank of each shown slot's key, and the keys
 * sorted. A query compares ranks instead of key strings, and finds where a cursor's key falls by a binary search.
 * It depends only on which keys are shown, so status churn (most changes) keeps it; it is built again, lazily,
 * when objects come or go ({@link ViewColumns.membership}).
 */
export class KeyOrder {
  private constructor(
    readonly membership: number,
    /** The rank of each slot's key among the shown keys; meaningless for slots not shown. */
    private readonly ranks: Uint32Array,
    private readonly sorted: readonly string[],
  ) {}

  /** The key order of a view as it is now. */
  static of(view: ViewColumns): KeyOrder {
    // every slot the view holds, live or not yet released: a slot whose record is deleted and listed again
    // before the next pass is shown again without the membership changing
    const slots: number[] = [];
    const keys: string[] = [];
    const limit = view.table.slotLimit;
    for (let slot = 0; slot < limit; slot++) {
      const key = view.holds(slot) ? view.table.keyOf(slot) : undefined;
      if (key === undefined) continue;
      slots.push(slot);
      keys.push(key);
    }
    // keys are distinct: never equal
    const byKey = slots.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : 1));
    const ranks = new Uint32Array(limit);
    byKey.forEach((i, rank) => {
      ranks[slots[i]] = rank;
    });
    return new KeyOrder(
      view.membership,
      ranks,
      byKey.map(i => keys[i]),
    );
  }

  /** The rank of a shown slot's key. */
  rankOf(slot: number): number {
    return this.ranks[slot];
  }

  /**
   * Where a key falls among the shown keys: its rank when it is one of them, else half-way between its
   * neighbours (so that every shown key compares with it as with the key itself).
   */
  positionOf(key: string): number {
    return rankIn(this.sorted, key);
  }
}

const orders = new WeakMap<ViewColumns, KeyOrder>();

/** The key order of a view, built again only when its objects came or went since it was last asked for. */
export function keyOrderOf(view: ViewColumns): KeyOrder {
  const known = orders.get(view);
  if (known && known.membership === view.membership) return known;
  const order = KeyOrder.of(view);
  orders.set(view, order);
  return order;
}
