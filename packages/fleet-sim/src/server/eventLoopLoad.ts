/**
 * How busy the simulator's one thread has been since the last reset: the share of the time its event loop ran
 * code, and how late its timers fired. Every simulated cluster and the admin API answer on that thread, so a
 * benchmark that sees a slow answer or a late watch event reads this to tell a busy simulator from a slow client.
 */
import {
  monitorEventLoopDelay,
  performance,
  type EventLoopUtilization,
  type ELDHistogram,
} from 'node:perf_hooks';

/** The simulator's event loop since the last reset (`GET /event-loop` of the admin API). */
export interface EventLoopLoad {
  /** Milliseconds since the last reset (or since the simulator started). */
  sinceMs: number;
  /** Share of that time the thread ran code rather than waited for input, from 0 to 1. */
  utilization: number;
  /** How late a timer of {@link DELAY_RESOLUTION_MS} fired, in milliseconds: its p50, p99 and the longest delay. */
  delayMs: { p50: number; p99: number; max: number };
}

/** The timer the delay is sampled with: 10 ms, Node's default resolution is 10 ms too. */
const DELAY_RESOLUTION_MS = 10;

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Samples the process's event loop from construction until {@link EventLoopMonitor.close}. */
export class EventLoopMonitor {
  private readonly delay: ELDHistogram = monitorEventLoopDelay({
    resolution: DELAY_RESOLUTION_MS,
  });
  private utilizationAt: EventLoopUtilization = performance.eventLoopUtilization();
  private resetAt = performance.now();

  constructor() {
    this.delay.enable();
  }

  /** What the loop did since the last reset; with `reset`, the next reading starts now. */
  read(reset: boolean): EventLoopLoad {
    const now = performance.now();
    const utilization = performance.eventLoopUtilization(this.utilizationAt);
    // an empty histogram (no sample yet) has no figures worth reading: 0
    const sampled = this.delay.count > 0;
    const ms = (ns: number) => (sampled ? round(ns / 1e6) : 0);
    const load: EventLoopLoad = {
      sinceMs: Math.round(now - this.resetAt),
      utilization: Math.round(utilization.utilization * 1000) / 1000,
      delayMs: {
        p50: ms(this.delay.percentile(50)),
        p99: ms(this.delay.percentile(99)),
        max: ms(this.delay.max),
      },
    };
    if (reset) {
      this.delay.reset();
      this.utilizationAt = performance.eventLoopUtilization();
      this.resetAt = now;
    }
    return load;
  }

  close(): void {
    this.delay.disable();
  }
}
