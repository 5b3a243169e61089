/**
 * The slots of a cluster's objects by service (rules §6), for the entity view: the slots of all services in one
 * typed array, grouped by service, and each service's first position. Rebuilt by every analysis, which is the
 * only thing that moves an object to another service; a Set per service would cost ten times the memory.
 */
export class ServiceIndex {
  /** Service → position of its first slot in `slots`. */
  private starts = new Map<string, number>();
  /** Slots grouped by service. */
  private slots = new Int32Array(0);
  /** At the position of a service's first slot: how many slots it has. */
  private lengths = new Int32Array(0);

  /** Replaces the index with the services of the slots below `slotLimit` (`serviceOf` null: none). */
  rebuild(slotLimit: number, serviceOf: (slot: number) => string | null): void {
    const counts = new Map<string, number>();
    let total = 0;
    for (let slot = 0; slot < slotLimit; slot++) {
      const service = serviceOf(slot);
      if (service === null) continue;
      counts.set(service, (counts.get(service) ?? 0) + 1);
      total++;
    }
    const starts = new Map<string, number>();
    const lengths = new Int32Array(total);
    let position = 0;
    for (const [service, n] of counts) {
      starts.set(service, position);
      lengths[position] = n;
      position += n;
    }
    // fill each service's run from its start, counting down what is left of it
    const slots = new Int32Array(total);
    const filled = new Map<string, number>();
    for (let slot = 0; slot < slotLimit; slot++) {
      const service = serviceOf(slot);
      if (service === null) continue;
      const done = filled.get(service) ?? 0;
      slots[starts.get(service)! + done] = slot;
      filled.set(service, done + 1);
    }
    this.starts = starts;
    this.slots = slots;
    this.lengths = lengths;
  }

  /** Calls `visit` with each slot of a service. */
  forEach(service: string, visit: (slot: number) => void): void {
    const start = this.starts.get(service);
    if (start === undefined) return;
    const end = start + this.lengths[start];
    for (let i = start; i < end; i++) visit(this.slots[i]);
  }

  /** The services present. */
  services(): IterableIterator<string> {
    return this.starts.keys();
  }
}
