import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterWriter } from './ClusterWriter';

/** How often the credentials of each cluster are asked again whether they may write. */
const RECHECK_MS = 5 * 60_000;
/** How soon a cluster that did not answer is asked again. */
const RETRY_MS = 30_000;

/**
 * Whether each cluster's credentials may write, as far as the backend knows: asked up front with a
 * `SelfSubjectAccessReview` (patch on Kustomizations) and again every few minutes, and learned from every write
 * (a 403 makes the cluster read-only, a successful write makes it writable). Read-only credentials are a normal
 * setup: reads keep working, and `ClusterHealth.readOnly` tells the frontend to offer no actions.
 */
export class WriteAccess {
  private readonly readOnly = new Map<string, boolean>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly writers: ReadonlyMap<string, ClusterWriter>,
    private readonly logger: LoggerService,
  ) {}

  /** Asks every cluster now, then again periodically. */
  start(): void {
    for (const cluster of this.writers.keys()) void this.check(cluster);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** True or false once known; undefined while no answer came. */
  isReadOnly(cluster: string): boolean | undefined {
    return this.readOnly.get(cluster);
  }

  /** The cluster answered 403 to a write. */
  refused(cluster: string): void {
    this.set(cluster, true);
  }

  /** A write to the cluster succeeded. */
  wrote(cluster: string): void {
    this.set(cluster, false);
  }

  /** A cluster's health with `readOnly` when it is known. */
  withReadOnly(health: ClusterHealth): ClusterHealth {
    const readOnly = this.readOnly.get(health.name);
    return readOnly === undefined ? health : { ...health, readOnly };
  }

  private async check(cluster: string): Promise<void> {
    const writer = this.writers.get(cluster);
    if (!writer || this.stopped) return;
    let next = RECHECK_MS;
    try {
      this.set(cluster, !(await writer.canPatchFluxObjects()));
    } catch (error) {
      // unreachable or refusing: the watch layer reports that; ask again soon
      this.logger.debug(
        `Flux Fleet could not ask whether its credentials may write: ${(error as Error).message}`,
      );
      next = RETRY_MS;
    }
    if (this.stopped) return;
    const timer = setTimeout(() => void this.check(cluster), next);
    timer.unref?.();
    this.timers.set(cluster, timer);
  }

  private set(cluster: string, readOnly: boolean) {
    if (this.readOnly.get(cluster) === readOnly) return;
    this.readOnly.set(cluster, readOnly);
    this.logger.info(
      readOnly
        ? `Flux Fleet: the credentials for cluster ${cluster} are read-only; reconcile, suspend and resume are refused there`
        : `Flux Fleet: the credentials for cluster ${cluster} may write; reconcile, suspend and resume are possible there`,
    );
  }
}
