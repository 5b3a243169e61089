/**
 * Counts the requests a simulated cluster receives, by who sent them, so that a benchmark can tell what a client
 * costs the cluster (for example how many API requests one page view makes). Every request counts, including
 * the ones a fault delays or never answers.
 */

/** Requests received since the cluster started. */
export interface RequestCounts {
  total: number;
  /** User name (`flux-fleet-admin`, `flux-fleet-readonly`, `system:anonymous`, or `unauthenticated`) → requests. */
  byUser: Record<string, number>;
  /**
   * Of those, the requests through the pod proxy (`…/pods/{pod}:{port}/proxy/…`, metrics scrapes), by user: a
   * benchmark tells a client's API reads from its capacity collector's scrapes, which follow their own schedule.
   */
  podProxyByUser: Record<string, number>;
}

/** The counter of one cluster server. */
export class RequestCounter {
  private total = 0;
  private readonly byUser = new Map<string, number>();
  private readonly podProxyByUser = new Map<string, number>();

  count(user: string, podProxy = false): void {
    this.total += 1;
    this.byUser.set(user, (this.byUser.get(user) ?? 0) + 1);
    if (podProxy) this.podProxyByUser.set(user, (this.podProxyByUser.get(user) ?? 0) + 1);
  }

  snapshot(): RequestCounts {
    const sorted = (counts: Map<string, number>) =>
      Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
    return {
      total: this.total,
      byUser: sorted(this.byUser),
      podProxyByUser: sorted(this.podProxyByUser),
    };
  }
}
