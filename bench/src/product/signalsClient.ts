/**
 * A signals client as the frontend has one: a user token from the guest sign-in, the signals plugin's websocket at
 * `/api/signals` with the token as its protocol, and `subscribe` messages per channel (what `useSignal` sends).
 */
import type { FluxFleetSignal } from '@flux-fleet/plugin-flux-fleet-common';

interface Waiter {
  channel: string;
  key: string;
  resolve(at: number | undefined): void;
  timer: NodeJS.Timeout;
}

/** Signs in as the guest user (the demo's sign-in) and returns the Backstage user token. */
export async function guestUserToken(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/guest/refresh`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  const body = (await response.json().catch(() => undefined)) as
    | { backstageIdentity?: { token?: string } }
    | undefined;
  const token = body?.backstageIdentity?.token;
  if (!response.ok || !token) {
    throw new Error(
      `guest sign-in at ${baseUrl}/api/auth/guest/refresh answered ${response.status} without a token`,
    );
  }
  return token;
}

/** An open signals connection that tells when a key first arrives on a channel. */
export class SignalsClient {
  private readonly waiters = new Set<Waiter>();
  /** Messages received, for the record. */
  received = 0;

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', event =>
      this.onMessage(String(event.data)),
    );
  }

  /** Opens the websocket; rejects when it does not open within `timeoutMs` (bad token, no signals plugin). */
  static async connect(
    baseUrl: string,
    userToken: string,
    timeoutMs = 10_000,
  ): Promise<SignalsClient> {
    const url = new URL('/api/signals', baseUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url, userToken);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `signals websocket ${url} did not open in ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error(`signals websocket ${url} refused the connection`));
      });
    });
    return new SignalsClient(socket);
  }

  subscribe(channel: string): void {
    this.socket.send(JSON.stringify({ action: 'subscribe', channel }));
  }

  /**
   * Resolves with `performance.now()` when a message on `channel` names `key`, or undefined after `timeoutMs`.
   * Call it before making the change, so that no message is missed.
   */
  waitFor(
    channel: string,
    key: string,
    timeoutMs: number,
  ): Promise<number | undefined> {
    return new Promise(resolve => {
      const waiter: Waiter = {
        channel,
        key,
        resolve: at => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          resolve(at);
        },
        timer: setTimeout(() => waiter.resolve(undefined), timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  close(): void {
    for (const waiter of [...this.waiters]) waiter.resolve(undefined);
    this.socket.close(1000);
  }

  private onMessage(data: string) {
    const at = performance.now();
    this.received += 1;
    let signal: { channel?: string; message?: FluxFleetSignal };
    try {
      signal = JSON.parse(data);
    } catch {
      return;
    }
    const keys = signal.message?.keys ?? [];
    for (const waiter of [...this.waiters]) {
      if (waiter.channel === signal.channel && keys.includes(waiter.key))
        waiter.resolve(at);
    }
  }
}
