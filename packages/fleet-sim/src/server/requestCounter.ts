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
}

/** The counter of one cluster server. */
export class RequestCounter {
  private total = 0;
  private readonly byUser = new Map<string, number>();

  count(user: string): void {
    this.total += 1;
    this.byUser.set(user, (this.byUser.get(user) ?? 0) + 1);
  }

  snapshot(): RequestCounts {
    return {
      total: this.total,
      byUser: Object.fromEntries(
        [...this.byUser].sort(([a], [b]) => a.localeCompare(b)),
      ),
    };
  }
}
