import type { LoggerService } from '@backstage/backend-plugin-api';
import { hostname } from 'node:os';
import type { Knex } from './SnapshotStore';

const LEASES = 'flux_fleet_leases';
const REPLICAS = 'flux_fleet_replicas';

/** Who holds what, as one tick sees it: the replicas alive and how many live leases each holds. */
interface Survey {
  replicas: Set<string>;
  counts: Map<string, number>;
}

/** A replica's name: `<host>-<pid>-<random>` (see FleetPersistence). */
export function replicaName(host: string, pid: number, random: string): string {
  return `${host}-${pid}-${random}`;
}

/** Whether a replica name is that of a process on this host that no longer runs. */
function isDeadLocalProcess(holder: string): boolean {
  const match = /^(.*)-(\d+)-[0-9a-z]+$/.exec(holder);
  if (!match || match[1] !== hostname()) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** What the lease manager tells its owner. */
export interface LeaseListener {
  /** This replica now holds the cluster's lease: watch it. */
  acquired(cluster: string): void;
  /** Another replica holds it now: stop watching it. */
  lost(cluster: string): void;
}

/**
 * Gives each cluster one watching replica: a row per cluster with its holder and an expiry. Every
 * `leaseDurationMs / 3` a replica renews the leases it holds and takes any lease that has expired (its holder
 * died, or stopped and released it), or at once when its holder was a process of this host that is gone.
 * Times are this replica's clock; the lease duration must be much longer than the clock skew between replicas. A
 * database that cannot be reached keeps the current holders: a lease is only lost when another replica is seen
 * holding it.
 *
 * Leases are spread (issue 11): each replica renews a row of `flux_fleet_replicas` with its leases, so with R
 * replicas alive and C clusters a replica takes a free lease only while it holds fewer than ⌈C/R⌉ and no live
 * replica holds fewer than it does; one holding more than ⌊C/R⌋ while another holds fewer releases one lease, at
 * most one per lease duration, which the replica with fewest takes at its next renewal. Counts only settle at the
 * fair share, so there is no flapping.
 */
export class LeaseManager {
  private readonly held = new Set<string>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private lastReleaseAt = 0;

  constructor(
    private readonly knex: Knex,
    readonly replica: string,
    private readonly clusters: string[],
    private readonly leaseDurationMs: number,
    private readonly listener: LeaseListener,
    private readonly logger: LoggerService,
  ) {}

  /** The clusters whose lease this replica holds. */
  holds(cluster: string): boolean {
    return this.held.has(cluster);
  }

  /** The clusters whose lease some replica holds now (not expired), with their holder. */
  async liveHolders(): Promise<Map<string, string>> {
    const rows = await this.knex(LEASES)
      .where('expires_at', '>=', Date.now())
      .select('cluster', 'holder');
    return new Map(rows.map(r => [r.cluster as string, r.holder as string]));
  }

  /** Takes what leases it can now, then keeps renewing. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => {
      if (!this.running) {
        this.running = this.tick().finally(() => {
          this.running = undefined;
        });
      }
    }, Math.max(100, Math.floor(this.leaseDurationMs / 3)));
    this.timer.unref?.();
  }

  /** Stops renewing and releases every lease, so other replicas take the clusters over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    try {
      await this.knex(REPLICAS).where({ replica: this.replica }).delete();
    } catch {
      // the row expires with the leases
    }
    if (this.held.size === 0) return;
    try {
      await this.knex(LEASES)
        .whereIn('cluster', [...this.held])
        .andWhere({ holder: this.replica })
        .delete();
    } catch (error) {
      this.logger.warn(
        `Flux Fleet could not release its cluster leases (they expire in ${this.leaseDurationMs / 1000} s): ${error}`,
      );
    }
    this.held.clear();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const now = Date.now();
    let survey: Survey | undefined;
    try {
      survey = await this.survey(now);
    } catch (error) {
      // without a survey it renews what it holds and takes what is free, as a single replica would
      this.logger.warn(`Flux Fleet could not see which replicas are alive: ${error}`);
    }
    for (const cluster of this.clusters) {
      if (!this.held.has(cluster) && survey && !this.mayTake(survey)) continue;
      let holder: string | undefined;
      try {
        holder = await this.claim(cluster, now);
      } catch (error) {
        this.logger.warn(
          `Flux Fleet could not renew or take the lease of cluster '${cluster}': ${error}`,
        );
        continue;
      }
      if (this.stopped) return;
      const mine = holder === this.replica;
      if (mine && !this.held.has(cluster)) {
        this.held.add(cluster);
        this.logger.info(`Flux Fleet replica ${this.replica} now watches cluster '${cluster}'`);
        this.listener.acquired(cluster);
      } else if (!mine && this.held.has(cluster)) {
        this.held.delete(cluster);
        this.logger.warn(
          `Flux Fleet replica ${this.replica} lost cluster '${cluster}' to replica ${holder}; it stops watching it`,
        );
        this.listener.lost(cluster);
      }
    }
    if (survey && !this.stopped) await this.rebalance(survey, now);
  }

  /** Renews this replica's row, and reads which replicas are alive and how many leases each holds. */
  private async survey(now: number): Promise<Survey> {
    const expiresAt = now + this.leaseDurationMs;
    await this.knex(REPLICAS)
      .insert({ replica: this.replica, expires_at: expiresAt })
      .onConflict('replica')
      .merge({ expires_at: expiresAt });
    const alive = await this.knex(REPLICAS).where('expires_at', '>=', now).select('replica');
    const replicas = new Set<string>(
      alive.map(r => r.replica as string).filter(r => r === this.replica || !isDeadLocalProcess(r)),
    );
    const counts = new Map<string, number>([...replicas].map(r => [r, 0]));
    const leases = await this.knex(LEASES).where('expires_at', '>=', now).select('holder');
    for (const { holder } of leases) {
      if (counts.has(holder)) counts.set(holder, counts.get(holder)! + 1);
    }
    counts.set(this.replica, this.held.size);
    return { replicas, counts };
  }

  /** Whether this replica may take a free lease: below its fair share, and no live replica holds fewer. */
  private mayTake(survey: Survey): boolean {
    const mine = this.held.size;
    const fair = Math.ceil(this.clusters.length / Math.max(1, survey.replicas.size));
    if (mine >= fair) return false;
    for (const [replica, count] of survey.counts) {
      if (replica !== this.replica && count < mine) return false;
    }
    // taken now: count it for the next cluster of this tick
    survey.counts.set(this.replica, mine + 1);
    return true;
  }

  /** Releases one lease when this replica holds more than its share while another live replica holds less. */
  private async rebalance(survey: Survey, now: number) {
    const floor = Math.floor(this.clusters.length / Math.max(1, survey.replicas.size));
    const mine = this.held.size;
    if (mine <= floor || now - this.lastReleaseAt < this.leaseDurationMs) return;
    const starved = [...survey.counts].some(([r, count]) => r !== this.replica && count < floor);
    if (!starved) return;
    const cluster = this.clusters.filter(c => this.held.has(c)).pop()!;
    try {
      await this.knex(LEASES).where({ cluster, holder: this.replica }).delete();
    } catch (error) {
      this.logger.warn(`Flux Fleet could not hand cluster '${cluster}' over to a replica with fewer: ${error}`);
      return;
    }
    this.lastReleaseAt = now;
    this.held.delete(cluster);
    this.logger.info(
      `Flux Fleet replica ${this.replica} hands cluster '${cluster}' over: it watched ${mine} of ${
        this.clusters.length
      } clusters with ${survey.replicas.size} replicas alive`,
    );
    this.listener.lost(cluster);
  }

  /** Renews or takes a lease if it is this replica's or free; returns the holder afterwards. */
  private async claim(cluster: string, now: number): Promise<string | undefined> {
    const expiresAt = now + this.leaseDurationMs;
    const renewed = await this.knex(LEASES)
      .where({ cluster })
      .andWhere(q => q.where({ holder: this.replica }).orWhere('expires_at', '<', now))
      .update({
        holder: this.replica,
        expires_at: expiresAt,
        acquired_at: this.knex.raw('CASE WHEN holder = ? THEN acquired_at ELSE ? END', [
          this.replica,
          now,
        ]),
      });
    if (renewed === 1) return this.replica;
    await this.knex(LEASES)
      .insert({ cluster, holder: this.replica, expires_at: expiresAt, acquired_at: now })
      .onConflict('cluster')
      .ignore();
    const row = await this.knex(LEASES).where({ cluster }).first('holder');
    const holder: string | undefined = row?.holder;
    if (holder && holder !== this.replica && isDeadLocalProcess(holder)) {
      // a process of this host that died without releasing (killed, crashed): no need to wait for the expiry
      const taken = await this.knex(LEASES)
        .where({ cluster, holder })
        .update({ holder: this.replica, expires_at: expiresAt, acquired_at: now });
      if (taken === 1) return this.replica;
    }
    return holder;
  }
}
