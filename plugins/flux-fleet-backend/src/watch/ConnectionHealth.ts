import type { KubernetesRequestError } from './KubernetesRequestError';

/** How the connection to one cluster stands, as the watch layer sees it. */
export type ConnectionStatus =
  | 'syncing'
  | 'synced'
  | 'unreachable'
  | 'unauthorized';

/** A snapshot of a cluster's connection health. */
export interface ConnectionHealthSnapshot {
  status: ConnectionStatus;
  /** When the status last changed. */
  since: number;
  lastEventAt?: number;
  /** Since when requests have been failing, while they are. */
  failingSince?: number;
  unreachableSince?: number;
  lastError?: string;
}

/**
 * The connection health of one cluster: requests failing without pause for `unreachableAfterMs` make it
 * `unreachable` (a timer flips it even when retries are spaced out by backoff), refused credentials make it
 * `unauthorized` at once, and any success clears both. Calls `onChange` whenever the status changes.
 */
export class ConnectionHealth {
  private status: ConnectionStatus = 'syncing';
  private since = Date.now();
  private failingSince?: number;
  private unauthorizedSince?: number;
  private lastError?: string;
  private lastEventAt?: number;
  private timer?: NodeJS.Timeout;
  private synced = false;

  constructor(
    private readonly unreachableAfterMs: number,
    private readonly onChange: (status: ConnectionStatus) => void,
  ) {}

  /**
   * A request succeeded: the cluster answers. `authorized` when it was one the credentials must be allowed
   * (Flux kinds, controllers, discovery); a version probe or an optional resource proves reachability only.
   */
  succeeded(authorized: boolean): void {
    this.failingSince = undefined;
    if (authorized) this.unauthorizedSince = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.update();
  }

  /**
   * A request failed. `essential` failures (Flux kinds, controllers, discovery) with refused credentials make
   * the cluster unauthorized; others only show as the last error.
   */
  failed(error: KubernetesRequestError, essential: boolean): void {
    this.lastError = error.message;
    const now = Date.now();
    if (error.status === 401 || (essential && error.status === 403)) {
      this.unauthorizedSince ??= now;
    } else if (error.unreachable) {
      if (this.failingSince === undefined) {
        this.failingSince = now;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.update(), this.unreachableAfterMs);
        this.timer.unref?.();
      }
    }
    this.update();
  }

  /** A watch event arrived. */
  heard(eventType: string): void {
    if (eventType !== 'BOOKMARK') this.lastEventAt = Date.now();
  }

  /** Whether every watched resource has been listed. */
  setSynced(synced: boolean): void {
    this.synced = synced;
    this.update();
  }

  snapshot(): ConnectionHealthSnapshot {
    return {
      status: this.status,
      since: this.since,
      lastEventAt: this.lastEventAt,
      failingSince: this.failingSince,
      unreachableSince:
        this.status === 'unreachable' ? this.failingSince : undefined,
      lastError: this.lastError,
    };
  }

  /** Stops the timer. */
  close(): void {
    clearTimeout(this.timer);
  }

  private update() {
    let next: ConnectionStatus;
    if (this.unauthorizedSince !== undefined) {
      next = 'unauthorized';
    } else if (
      this.failingSince !== undefined &&
      Date.now() - this.failingSince >= this.unreachableAfterMs
    ) {
      next = 'unreachable';
    } else if (this.status === 'unreachable' && this.failingSince !== undefined) {
      next = 'unreachable';
    } else {
      next = this.synced ? 'synced' : 'syncing';
    }
    if (next !== this.status) {
      this.status = next;
      this.since = Date.now();
      if (next === 'synced') {
        // recovered and complete: the last error is history now
        this.lastError = undefined;
      }
      this.onChange(next);
    }
  }
}
