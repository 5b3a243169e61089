/** Options of {@link Coalescer}. */
export interface CoalescerOptions {
  /** Flush once changes have paused this long; absent: do not wait for a pause. */
  quietMs?: number;
  /**
   * Flush at the latest this long after the first change not yet flushed, or, with `leading`, after the last
   * flush.
   */
  maxWaitMs: number;
  /**
   * A change that comes at least `maxWaitMs` after the last flush is flushed at once; changes after it wait for
   * the end of that window (a throttle: at most one flush per `maxWaitMs`, the first without delay).
   */
  leading?: boolean;
  /**
   * Asked when the flush is due, with how long the first pending change has waited: a positive number of ms
   * keeps the flush waiting that much longer (then it is asked again).
   */
  hold?: (waitedMs: number) => number;
  /** The clock; `Date.now` by default. */
  now?: () => number;
  /** Whether a pending flush keeps the process alive; it does not by default. */
  ref?: boolean;
  /**
   * When the flush is due, first let the event loop deliver the I/O it has already received (one `setImmediate`),
   * and flush only if no change came with it. A loop that stalled past `quietMs` (garbage collection, a long
   * task) has its timers run before its sockets: without this, changes still in a socket's buffer would look
   * quiet.
   */
  afterPendingIo?: boolean;
}

/**
 * Gathers a burst of changes into one flush: after a pause of `quietMs`, but never later than `maxWaitMs` after
 * the burst began, so a steady stream of changes is still flushed regularly. Noting a change costs no timer
 * work: the one timer, when it fires early, is armed again for the time still to wait. Used by the index (one
 * analysis per burst of a cluster's changes), the signals publisher and the catalog provider.
 */
export class Coalescer {
  private timer?: ReturnType<typeof setTimeout>;
  private immediate?: ReturnType<typeof setImmediate>;
  private firstAt?: number;
  private lastAt = 0;
  private flushedAt = -Infinity;
  private closed = false;
  private readonly now: () => number;

  constructor(
    private readonly options: CoalescerOptions,
    private readonly flush: () => void,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** When the first change not yet flushed came; undefined when none waits. */
  get pendingSince(): number | undefined {
    return this.firstAt;
  }

  /** Whether a flush is scheduled. */
  get pending(): boolean {
    return this.firstAt !== undefined;
  }

  /** When the last flush ran (`-Infinity` before the first). */
  get lastFlushAt(): number {
    return this.flushedAt;
  }

  /** Notes a change: it is flushed with the others of its burst. */
  touch(): void {
    if (this.closed) return;
    const now = this.now();
    this.lastAt = now;
    if (this.firstAt !== undefined) return;
    if (
      this.options.leading &&
      now - this.flushedAt >= this.options.maxWaitMs
    ) {
      this.run(now);
      return;
    }
    this.firstAt = now;
    this.arm(this.dueAt() - now);
  }

  /** Notes a change that delays a pending flush (the pause restarts) but schedules none by itself. */
  noteChange(): void {
    this.lastAt = this.now();
  }

  /** Flushes now, whether or not anything is pending. */
  flushNow(): void {
    if (this.closed) return;
    this.run(this.now());
  }

  /** Drops what is pending without flushing it. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = undefined;
    this.firstAt = undefined;
  }

  /** Drops what is pending; later changes are ignored. */
  close(): void {
    this.cancel();
    this.closed = true;
  }

  private dueAt(): number {
    const { quietMs, maxWaitMs, leading } = this.options;
    const latest = (leading ? this.flushedAt : this.firstAt!) + maxWaitMs;
    return quietMs === undefined
      ? latest
      : Math.min(this.lastAt + quietMs, latest);
  }

  private arm(delayMs: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), Math.max(0, delayMs));
    if (!this.options.ref) this.timer.unref?.();
  }

  private fire(ioDelivered = false) {
    this.timer = undefined;
    this.immediate = undefined;
    if (this.firstAt === undefined) return;
    const now = this.now();
    const held = this.options.hold?.(now - this.firstAt) ?? 0;
    if (held > 0) {
      this.arm(held);
      return;
    }
    const due = this.dueAt();
    if (now < due) {
      this.arm(due - now);
      return;
    }
    if (this.options.afterPendingIo && !ioDelivered) {
      this.immediate = setImmediate(() => this.fire(true));
      if (!this.options.ref) this.immediate.unref?.();
      return;
    }
    this.run(now);
  }

  private run(now: number) {
    this.cancel();
    this.flushedAt = now;
    this.flush();
  }
}
