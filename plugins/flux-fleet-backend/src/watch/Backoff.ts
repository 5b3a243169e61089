/**
 * Retry delays after failures: exponential (initial, ×2 per failure, capped) with jitter, so that many watches
 * of one cluster that failed together do not retry together; a server's `Retry-After` is a floor, honoured even
 * above the cap.
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay before the next attempt, counting one more failure. */
  next(retryAfterMs?: number): number {
    const ceiling = Math.min(
      this.maxMs,
      this.initialMs * 2 ** Math.min(this.failures, 30),
    );
    this.failures++;
    // "equal jitter": at least half the exponential delay, so retries still slow down
    const delay = ceiling / 2 + this.random() * (ceiling / 2);
    return Math.round(Math.max(delay, retryAfterMs ?? 0));
  }

  /** After a success: the next failure starts from the initial delay again. */
  reset(): void {
    this.failures = 0;
  }

  /** Failures since the last success. */
  get attempts(): number {
    return this.failures;
  }
}
