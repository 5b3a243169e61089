import type { LoggerService } from '@backstage/backend-plugin-api';
import type { SignalsService } from '@backstage/plugin-signals-node';
import type { FluxFleetSignal } from '@flux-fleet/plugin-flux-fleet-common';

/** Keys carried per message at most; a page re-fetches anyway, the keys only help it decide. */
const MAX_KEYS = 200;

interface ChannelState {
  lastSent: number;
  pending?: Set<string>;
  timer?: NodeJS.Timeout;
}

/**
 * Publishes signals with at most one message per channel per `windowMs`: the first change on a quiet channel
 * goes out at once; changes within the window are gathered into one message sent when the window ends. A busy
 * fleet therefore costs each open page at most one re-fetch per window.
 */
export class CoalescingPublisher {
  private readonly channels = new Map<string, ChannelState>();
  private closed = false;

  constructor(
    private readonly signals: SignalsService,
    private readonly logger: LoggerService,
    private readonly windowMs = 200,
  ) {}

  /** Notes that `keys` changed for `channel`. */
  publish(channel: string, keys: Iterable<string>): void {
    if (this.closed) return;
    const now = Date.now();
    let state = this.channels.get(channel);
    if (!state) {
      state = { lastSent: 0 };
      this.channels.set(channel, state);
    }
    if (!state.pending && now - state.lastSent >= this.windowMs) {
      this.send(channel, state, new Set(keys), now);
      return;
    }
    state.pending ??= new Set();
    for (const key of keys) state.pending.add(key);
    if (!state.timer) {
      const wait = Math.max(0, state.lastSent + this.windowMs - now);
      const s = state;
      s.timer = setTimeout(() => {
        s.timer = undefined;
        const pending = s.pending ?? new Set<string>();
        s.pending = undefined;
        this.send(channel, s, pending, Date.now());
      }, wait);
      s.timer.unref?.();
    }
  }

  /** Stops pending messages. */
  close(): void {
    this.closed = true;
    for (const state of this.channels.values()) clearTimeout(state.timer);
    this.channels.clear();
  }

  private send(channel: string, state: ChannelState, keys: Set<string>, now: number) {
    state.lastSent = now;
    const all = [...keys];
    const message: FluxFleetSignal = {
      keys: all.slice(0, MAX_KEYS),
      at: new Date(now).toISOString(),
      ...(all.length > MAX_KEYS && { truncated: true }),
    };
    this.signals
      .publish({
        recipients: { type: 'broadcast' },
        channel,
        message: message as unknown as Record<string, never>,
      })
      .catch(error =>
        this.logger.warn(
          `Flux Fleet could not publish a signal on ${channel}: ${error}`,
        ),
      );
    // forget quiet channels so per-object channels do not pile up
    if (this.channels.size > 10_000) {
      for (const [name, s] of this.channels) {
        if (!s.pending && now - s.lastSent > this.windowMs) this.channels.delete(name);
      }
    }
  }
}
