import { SignalApi } from '@backstage/plugin-signals-react';

/** A signal API the test drives: `publish` delivers a message to every subscriber of the channel. */
export class FakeSignalApi implements SignalApi {
  private readonly subscribers = new Map<string, Set<(message: any) => void>>();

  subscribe(
    channel: string,
    onMessage: (message: any) => void,
  ): { unsubscribe: () => void } {
    const set = this.subscribers.get(channel) ?? new Set();
    const listener = onMessage;
    set.add(listener);
    this.subscribers.set(channel, set);
    return { unsubscribe: () => set.delete(listener) };
  }

  /** The channels someone listens to now. */
  channels(): string[] {
    return [...this.subscribers.entries()]
      .filter(([, set]) => set.size > 0)
      .map(([channel]) => channel);
  }

  publish(channel: string, message: object) {
    for (const listener of this.subscribers.get(channel) ?? []) {
      listener(message);
    }
  }
}
