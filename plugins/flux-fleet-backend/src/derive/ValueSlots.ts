/**
 * The slots of a view's objects grouped by the code of one column (kind, state): for each code an unordered list
 * of slots, and each slot's place in its list, so that adding, removing and moving a slot costs a few writes (the
 * last slot of the list takes the place of one removed). A filter on that column starts from its codes' lists
 * instead of every slot. Costs 8 bytes per object.
 */
export class ValueSlots {
  private lists: Int32Array[];
  private readonly sizes: Int32Array;
  /** Each slot's index in its list; -1 when it is in none. */
  private places = new Int32Array(0);

  constructor(codes: number) {
    this.lists = Array.from({ length: codes }, () => new Int32Array(16));
    this.sizes = new Int32Array(codes);
  }

  /** How many slots have a code. */
  size(code: number): number {
    return this.sizes[code];
  }

  /** Calls `visit` with each slot of a code, in no particular order. */
  forEach(code: number, visit: (slot: number) => void): void {
    const list = this.lists[code];
    const size = this.sizes[code];
    for (let i = 0; i < size; i++) visit(list[i]);
  }

  add(slot: number, code: number): void {
    if (slot >= this.places.length) {
      const grown = new Int32Array(Math.max(slot + 1, this.places.length * 2, 1024)).fill(-1);
      grown.set(this.places);
      this.places = grown;
    }
    if (this.places[slot] !== -1) return;
    let list = this.lists[code];
    const size = this.sizes[code];
    if (size === list.length) {
      const grown = new Int32Array(list.length * 2);
      grown.set(list);
      this.lists[code] = list = grown;
    }
    list[size] = slot;
    this.places[slot] = size;
    this.sizes[code] = size + 1;
  }

  remove(slot: number, code: number): void {
    const place = slot < this.places.length ? this.places[slot] : -1;
    if (place === -1) return;
    const list = this.lists[code];
    const last = --this.sizes[code];
    const moved = list[last];
    list[place] = moved;
    this.places[moved] = place;
    this.places[slot] = -1;
  }

  move(slot: number, from: number, to: number): void {
    if (from === to) return;
    this.remove(slot, from);
    this.add(slot, to);
  }
}
