import { Coalescer } from '@flux-fleet/plugin-flux-fleet-node';
import type { AnalysisSettings } from '../config/FleetConfig';

/** Status changes are gathered this long before their objects are re-derived (one pass per burst). */
export const STATUS_BATCH_MS = 10;
/**
 * While a cluster lists for the first time, its analysis waits for the list to finish (one analysis rather than
 * one per page), at most this long, so a cluster whose list never completes still shows what was read.
 */
export const INITIAL_SYNC_MAX_DELAY_MS = 10_000;
/**
 * Each analysis of what a first list has read so far doubles the wait before the next, up to this: a first list
 * that takes minutes (a loaded machine, fleet `L`) costs a few analyses of a growing cluster rather than one per
 * debounce. Before, the first partial analysis ended the hold and a cluster still listing was analysed every
 * `maxDelayMs` (0.5 s) until its list completed: a 381 s sync of fleet `M` on a machine at load 17 used 77 s of
 * CPU, and 43 % of its profile's samples were in analyses (`bench/syncProfile.ts` with `--cpu-prof`, measured).
 */
export const INITIAL_SYNC_MAX_HOLD_MS = 80_000;

/**
 * A synced cluster is analysed again at least every this many refresh intervals even when nothing it read
 * changed (10 minutes by default): a finding's words ("requested 7 min ago") age, and a cheap bound keeps a
 * mistake in `refreshDue` from freezing a cluster's findings.
 */
export const MAX_REFRESH_INTERVALS = 10;

/** What the scheduler of one cluster runs and asks. */
export interface AnalysisPasses {
  /** Analyses the cluster now (every object re-derived). */
  analyse(): void;
  /** Re-derives the objects whose status alone changed (never a cause for an analysis: rules §2a). */
  rederiveStatus(): void;
  /** Whether the changes waiting call for an analysis (objects added or removed, references changed…). */
  structuralPending(): boolean;
  /** Whether objects whose status alone changed (or that have new events) wait for a status pass. */
  statusPending(): boolean;
  /** Whether the cluster is listing for the first time, with nothing restored to show meanwhile. */
  initialSync(): boolean;
  /**
   * Whether a refresh is due now: the cluster's watch is synced, no cluster of the fleet is still in its first sync
   * (at fleet L, refreshes of the clusters already synced were 15 % of the CPU of a first sync that took 7
   * minutes), and something the last analysis read changed without a change of records: a time it named came
   * (rules §2a), the measured utilisation it used changed, or it is `refreshIntervalMs × MAX_REFRESH_INTERVALS`
   * old. Analysing every synced cluster at every interval was 22 % of a core at fleet L at rest (100 clusters,
   * 135 ms each per minute, profile of 2026-12-04) for analyses that almost always came out the same.
   */
  refreshDue(): boolean;
  /**
   * Brings the findings up to the controllers' latest measurements when they change what the last analysis said
   * (`measuredUtilisationSignature`), without analysing again; at a refresh that analyses nothing.
   */
  applyMeasurements(): void;
}

/**
 * When a cluster's objects are derived again: structural changes are debounced into one analysis (at the
 * latest `maxDelayMs` after the first; during a first list, when it is complete), status changes are batched
 * into a pass over the objects concerned, and a synced cluster is analysed every `refreshIntervalMs` for the
 * findings that depend on time.
 */
export class AnalysisScheduler {
  private readonly structural: Coalescer;
  private readonly status: Coalescer;
  private refreshTimer?: NodeJS.Timeout;
  /** How long the first list's analysis is held now (doubles after each analysis during it). */
  private initialHoldMs = INITIAL_SYNC_MAX_DELAY_MS;

  constructor(
    private readonly settings: AnalysisSettings,
    private readonly passes: AnalysisPasses,
    now: () => number = Date.now,
  ) {
    this.structural = new Coalescer(
      {
        quietMs: settings.debounceMs,
        maxWaitMs: settings.maxDelayMs,
        now,
        ref: true,
        // the first list is still arriving: analyse once when it is complete (analyseNow)
        hold: waited => (passes.initialSync() && waited < this.initialHoldMs ? this.initialHoldMs - waited : 0),
      },
      () => {
        this.status.cancel();
        if (passes.initialSync()) {
          this.initialHoldMs = Math.min(this.initialHoldMs * 2, INITIAL_SYNC_MAX_HOLD_MS);
        }
        passes.analyse();
      },
    );
    // objects with structural changes wait for the analysis (the store leaves them pending), the others not; during
    // a first list everything waits for its one analysis. Asked once a batch rather than at every change: reading
    // the watch's state for each object read was 10 % of the CPU of the product's first sync at fleet L (CPU
    // profile of 2026-12-06), and the health it built each time fed the collector.
    this.status = new Coalescer({ maxWaitMs: STATUS_BATCH_MS, now, ref: true }, () => {
      if (!passes.initialSync()) passes.rederiveStatus();
    });
  }

  /** The cluster's records changed. */
  changed(): void {
    if (this.passes.structuralPending() || this.structural.pending) {
      this.structural.touch();
    } else {
      // a status change counts towards the pause an analysis that follows waits for
      this.structural.noteChange();
    }
    // A status change does not wait for an analysis that other changes of its cluster wait for: the status pass
    // re-derives it (and signals it) at once, and asks for no analysis (rules §2a). It waited before, up to the
    // analysis's maximum delay and the analysis itself: in the index benchmark at fleet M under churn, status
    // changes reached an entity channel at p90 36 ms and p99 89 ms then, 17 and 39 ms after.
    if (this.passes.statusPending()) this.status.touch();
  }

  /** Analyses now, with whatever is waiting (the first list is complete; a snapshot was restored). */
  analyseNow(): void {
    this.structural.flushNow();
  }

  /** Whether changes wait for their analysis or their status pass. */
  get waiting(): boolean {
    return this.structural.pending || this.status.pending;
  }

  /**
   * How long changes have waited for their analysis or their status pass at `now` (0 when none wait). The status
   * batch counts too: right after a watch catches up, the states it replayed are not derived until it runs.
   */
  waitingMs(now: number): number {
    const since = [this.structural.pendingSince, this.status.pendingSince].filter(t => t !== undefined);
    return since.length === 0 ? 0 : now - Math.min(...since);
  }

  /**
   * Looks every `refreshIntervalMs` whether an analysis is due (`refreshDue`) while the cluster is synced, first
   * after `phase` (0 to 1) of the interval. Each cluster at its own phase: analyses of every cluster at once would
   * make their garbage live long enough to reach the old generation, where it stays as resident memory until a full collection.
   */
  startRefresh(phase: number): void {
    this.stopRefresh();
    const interval = this.settings.refreshIntervalMs;
    const refresh = () => {
      if (this.passes.refreshDue()) this.analyseNow();
      else this.passes.applyMeasurements();
    };
    this.refreshTimer = setTimeout(() => {
      refresh();
      this.refreshTimer = setInterval(refresh, interval);
      this.refreshTimer.unref?.();
    }, interval * phase);
    this.refreshTimer.unref?.();
  }

  stopRefresh(): void {
    clearTimeout(this.refreshTimer);
    clearInterval(this.refreshTimer);
    this.refreshTimer = undefined;
  }

  /** Stops every timer; nothing runs after. */
  close(): void {
    this.structural.close();
    this.status.close();
    this.stopRefresh();
  }
}
