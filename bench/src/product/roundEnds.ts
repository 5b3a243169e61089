/**
 * Finds the ends of capacity collection rounds from outside the backend: a round scrapes controllers through the
 * pod proxy, so the simulator's count of pod proxy requests grows while one runs and stands still between two.
 * A count that grew and then stood still for `quietMs` marks a round's end. Counting between two round ends
 * covers whole rounds; a fixed window does not (at fleet L, 134 s held the ends of 3 rounds of 60 s, and its
 * per-minute figures read a third high).
 */
export class RoundEnds {
  private last: number | undefined;
  private changedAt = 0;
  private grew = false;

  constructor(private readonly quietMs: number) {}

  /** One reading of the count at `atMs`; true when it shows that a round has ended since the last end. */
  observe(atMs: number, count: number): boolean {
    if (this.last === undefined) {
      this.last = count;
      this.changedAt = atMs;
      return false;
    }
    if (count !== this.last) {
      this.last = count;
      this.changedAt = atMs;
      this.grew = true;
      return false;
    }
    if (this.grew && atMs - this.changedAt >= this.quietMs) {
      this.grew = false;
      return true;
    }
    return false;
  }
}
