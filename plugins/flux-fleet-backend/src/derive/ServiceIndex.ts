import { compareText } from '@flux-fleet/plugin-flux-fleet-common';

/**
 * The services of a cluster's objects (rules §6), built by every analysis (the only thing that moves an object to
 * another service): the distinct services sorted, each slot's service as a number into them, and the slots of
 * each service in one typed array, so that the entity view finds a service's objects with a binary search and a
 * Set or a Map per service costs nothing.
 */
export class ServiceIndex {
  private constructor(
    /** The distinct services, sorted; code `c` is `services[c - 1]`, code 0 none. */
    readonly services: readonly string[],
    /** The code of each slot's service. */
    private readonly codes: Uint32Array,
    /** `starts[c - 1]` to `starts[c]`: where the slots of code `c` are in `slots`. */
    private readonly starts: Int32Array,
    private readonly slots: Int32Array,
  ) {}

  /** An index with no services. */
  static empty(): ServiceIndex {
    return new ServiceIndex([], new Uint32Array(0), new Int32Array(1), new Int32Array(0));
  }

  /** The index of the slots below `slotLimit`, given each slot's service (null: none). */
  static of(slotLimit: number, serviceOf: (slot: number) => string | null): ServiceIndex {
    const distinct = new Set<string>();
    for (let slot = 0; slot < slotLimit; slot++) {
      const service = serviceOf(slot);
      if (service !== null) distinct.add(service);
    }
    const services = [...distinct].sort(compareText);
    const codeOf = new Map(services.map((s, i) => [s, i + 1]));
    const codes = new Uint32Array(slotLimit);
    const starts = new Int32Array(services.length + 1);
    for (let slot = 0; slot < slotLimit; slot++) {
      const service = serviceOf(slot);
      if (service === null) continue;
      const code = codeOf.get(service)!;
      codes[slot] = code;
      starts[code]++;
    }
    // counts to positions: starts[c] is where code c + 1 begins
    for (let c = 1; c <= services.length; c++) starts[c] += starts[c - 1];
    const slots = new Int32Array(starts[services.length]);
    const next = starts.slice(0, services.length);
    for (let slot = 0; slot < slotLimit; slot++) {
      const code = codes[slot];
      if (code !== 0) slots[next[code - 1]++] = slot;
    }
    return new ServiceIndex(services, codes, starts, slots);
  }

  /** The service of a slot, or null. */
  serviceOf(slot: number): string | null {
    const code = slot < this.codes.length ? this.codes[slot] : 0;
    return code === 0 ? null : this.services[code - 1];
  }

  /** Calls `visit` with each slot of a service, in slot order. */
  forEach(service: string, visit: (slot: number) => void): void {
    let low = 0;
    let high = this.services.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const c = compareText(this.services[middle], service);
      if (c === 0) {
        for (let i = this.starts[middle]; i < this.starts[middle + 1]; i++) visit(this.slots[i]);
        return;
      }
      if (c < 0) low = middle + 1;
      else high = middle - 1;
    }
  }
}
