import type { LoggerService, SchedulerService } from '@backstage/backend-plugin-api';
import {
  METRIC_FIGURES,
  type ControllerMeasurement,
  type FluxController,
  type InstanceSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterClient } from '../watch/ClusterClient';
import { createLimiter } from '../watch/createLimiter';
import type { CapacitySettings } from '../config/FleetConfig';
import type {
  CapacityHistoryPoint,
  CapacitySource,
  ControllerCapacityReading,
} from './CapacitySource';
import { PodProxySource } from './PodProxySource';
import { PrometheusSource } from './PrometheusSource';


const COLLECT_TASK_ID = 'flux-fleet-capacity-collect';

/** How long a collection round may take before the scheduler cuts it: twice the interval, at least a minute. */
function roundTimeoutMs(settings: CapacitySettings): number {
  return Math.max(2 * settings.scrapeIntervalMs, 60_000);
}

/** True when a measurement has at least one figure read from metrics (container limits do not count). */
export function hasFigures(m: ControllerMeasurement | undefined): boolean {
  return !!m && METRIC_FIGURES.some(f => m[f] !== undefined);
}

function historyPoint(m: ControllerMeasurement): CapacityHistoryPoint {
  const {
    cluster,
    namespace,
    deployment,
    component,
    pods,
    problems,
    ...point
  } = m;
  return point;
}

/** What one cluster's capacity collection knows, as replicas hand it over (JSON). */
export interface CapacityOfCluster {
  readings: ControllerCapacityReading[];
  histories: Array<[string, CapacityHistoryPoint[]]>;
}

/** Where the collector reads which controllers exist. */
export interface ControllerDirectory {
  instances(cluster?: string): InstanceSummary[];
}

/**
 * Measures every Flux controller of every watched cluster each scrape interval (rules §12): through the
 * configured Prometheus server when it has the controller's series, else by scraping its pods through the
 * Kubernetes API's pod proxy, else not at all, saying why. Keeps the latest measurement per controller and source
 * and a bounded history of the one used.
 */
export class CapacityCollector implements CapacitySource {
  private readonly readings = new Map<string, ControllerCapacityReading>();
  private readonly histories = new Map<string, CapacityHistoryPoint[]>();
  private readonly podProxy?: PodProxySource;
  private readonly prometheus?: PrometheusSource;
  private readonly abort = new AbortController();
  /** Rounds the scheduler cut short (see {@link collect}). */
  private roundsCut = 0;
  private readonly limitClusters: ReturnType<typeof createLimiter>;

  constructor(
    private readonly options: {
      settings: CapacitySettings;
      directory: ControllerDirectory;
      clients: ReadonlyMap<string, ClusterClient>;
      logger: LoggerService;
      now?: () => number;
      /** Called after every round (the capacity verdicts may have changed). */
      onCollected?: () => void;
      /**
       * Whether this replica collects a cluster now (it holds its lease); all by default. The others receive its
       * readings through {@link importCluster}.
       */
      collects?: (cluster: string) => boolean;
      /**
       * Whether a cluster's first list is complete; all by default. A cluster still listing is not scraped: its
       * shards' objects are not all known yet, and at fleet L the scrapes of 100 clusters' controllers during the
       * initial sync took the simulator more CPU than the lists themselves (45 s against 6 s in 4 minutes, profiled),
       * competing with the sync on a 2-core machine.
       */
      listed?: (cluster: string) => boolean;
      /**
       * While the fleet's first sync is under way, how many clusters have finished it of how many
       * (`FleetClusters.firstSyncProgress`); undefined when it is over (always, by default). No controller is
       * scraped until then, not even those of the clusters already listed: at fleet L their scrapes during the
       * first sync moved 989 MB of metrics; with the first snapshots also held back, the sync took 111 s and 96 s
       * against 128 s and 115 s (backend README, "The lists first"). Once it is over a round starts at once rather
       * than at the next interval.
       */
      firstSync?: () => { done: number; clusters: number } | undefined;
      /** The fleet's first sync is over (see {@link firstSync}). */
      firstSyncOver?: Promise<void>;
    },
  ) {
    const { settings, now } = options;
    const intervalSeconds = settings.scrapeIntervalMs / 1000;
    if (settings.podProxy.enabled) {
      this.podProxy = new PodProxySource(
        settings.podProxy,
        createLimiter(settings.podProxy.concurrency),
        intervalSeconds,
        settings.windowMs / 1000,
        now,
      );
    }
    if (settings.prometheus) {
      this.prometheus = new PrometheusSource(
        settings.prometheus,
        settings.windowMs / 1000,
        now,
      );
    }
    this.limitClusters = createLimiter(settings.podProxy.concurrency);
  }

  /** Schedules {@link collect} every scrape interval (local to this replica: the figures live in its memory). */
  async start(scheduler: SchedulerService): Promise<void> {
    const { settings } = this.options;
    if (!settings.enabled) return;
    await scheduler.scheduleTask({
      id: COLLECT_TASK_ID,
      scope: 'local',
      frequency: { milliseconds: settings.scrapeIntervalMs },
      timeout: {
        milliseconds: roundTimeoutMs(settings),
      },
      initialDelay: { seconds: 5 },
      signal: this.abort.signal,
      fn: roundSignal => this.collect(roundSignal),
    });
    // the rounds during the first sync measured nothing: the first one after it need not wait for the interval
    this.options.firstSyncOver
      ?.then(() => (this.abort.signal.aborted ? undefined : scheduler.triggerTask(COLLECT_TASK_ID)))
      .catch(error => {
        // a round already running (the scheduler's ConflictError) will measure: nothing to do
        if ((error as Error)?.name === 'ConflictError') return;
        this.options.logger.warn(
          `Flux Fleet could not start a capacity collection round after the fleet's first sync: ${error}`,
        );
      });
  }

  /** Stops collecting and cancels the requests of a round under way. */
  stop() {
    this.abort.abort();
  }

  measurements(cluster?: string): ControllerCapacityReading[] {
    const known = this.controllers(cluster);
    return known
      .map(
        c =>
          this.readings.get(keyOf(c)) ??
          this.unmeasuredReading(c, [this.whyNotMeasuredYet(c.cluster)]),
      )
      .sort((a, b) => a.key.localeCompare(b.key));
  }

  history(controllerKey: string): CapacityHistoryPoint[] {
    return [...(this.histories.get(controllerKey) ?? [])];
  }

  /** The readings and histories of one cluster's controllers, for the replicas that do not collect it. */
  exportCluster(cluster: string): CapacityOfCluster {
    const readings = [...this.readings.values()].filter(r => r.cluster === cluster);
    return {
      readings,
      histories: readings.map(r => [r.key, this.histories.get(r.key) ?? []] as [string, CapacityHistoryPoint[]]),
    };
  }

  /** Takes the readings and histories of a cluster another replica collects (replacing what was known). */
  importCluster(cluster: string, capacity: CapacityOfCluster): void {
    for (const [key, reading] of this.readings) {
      if (reading.cluster === cluster) {
        this.readings.delete(key);
        this.histories.delete(key);
      }
    }
    for (const reading of capacity.readings) {
      if (reading.cluster === cluster) this.readings.set(reading.key, reading);
    }
    for (const [key, points] of capacity.histories) {
      if (this.readings.has(key)) this.histories.set(key, points);
    }
  }

  /**
   * One round: measures every controller of every cluster this replica collects; never throws. `roundSignal` is
   * the scheduler's, aborted when the round outlives its timeout (twice the interval): the clusters not measured
   * by then keep their last measurements. Without it, a round at fleet L on an overloaded machine went on for 12
   * minutes (2026-12-04), its requests timing out one after another while the next rounds waited.
   */
  async collect(roundSignal?: AbortSignal): Promise<void> {
    if (this.options.firstSync?.()) {
      this.options.logger.debug('Flux Fleet: no capacity collection round during the fleet\'s first sync');
      return;
    }
    const signal = roundSignal ? AbortSignal.any([this.abort.signal, roundSignal]) : this.abort.signal;
    this.podProxy?.beginRound();
    const clusters = [...this.options.clients.keys()].filter(
      c => (this.options.collects?.(c) ?? true) && this.listed(c),
    );
    const counts = await Promise.all(
      clusters.map(cluster =>
        this.limitClusters(() =>
          signal.aborted ? Promise.resolve(undefined) : this.collectCluster(cluster, signal),
        ),
      ),
    );
    const done = counts.filter(c => c !== undefined).length;
    if (roundSignal?.aborted && !this.abort.signal.aborted) {
      this.roundsCut++;
      this.options.logger.warn(
        `Flux Fleet: a capacity collection round did not finish within its timeout of ${
          roundTimeoutMs(this.options.settings) / 1000
        } s; ${done} of ${clusters.length} clusters were measured, the others keep their last measurements`,
      );
    }
    // controllers gone from the index (a Deployment deleted, a cluster removed) are forgotten with their history
    const known = new Set(this.controllers().map(keyOf));
    for (const key of [...this.readings.keys(), ...this.histories.keys()]) {
      if (!known.has(key)) {
        this.readings.delete(key);
        this.histories.delete(key);
      }
    }
    const measured = counts.reduce((a, c) => a + (c?.measured ?? 0), 0);
    const total = counts.reduce((a, c) => a + (c?.total ?? 0), 0);
    this.options.logger.debug(`Flux Fleet measured ${measured} of ${total} controllers from their metrics`);
    if (signal.aborted) return;
    try {
      this.options.onCollected?.();
    } catch (error) {
      this.options.logger.warn(`Flux Fleet could not compare capacity verdicts after a collection round: ${error}`);
    }
  }

  private async collectCluster(cluster: string, signal: AbortSignal) {
    const controllers = this.controllers(cluster);
    const client = this.options.clients.get(cluster)!;
    const reasons = new Map<string, string[]>(
      controllers.map(c => [keyOf(c), []]),
    );
    const chosen = new Map<string, ControllerMeasurement>();
    const bySource = new Map<string, ControllerCapacityReading['bySource']>(
      controllers.map(c => [keyOf(c), {}]),
    );
    if (this.prometheus) {
      const answer = await this.prometheus.measureCluster(
        cluster,
        controllers,
        signal,
      );
      for (const m of answer.measurements) {
        const key = `${cluster}/${m.namespace}/${m.deployment}`;
        bySource.get(key)!.prometheus = m;
        if (hasFigures(m)) chosen.set(key, m);
        else {
          reasons
            .get(key)!
            .push(
              `Prometheus: its series of the controller gave no figure over the window${
                m.problems.length ? ` (${m.problems.join('; ')})` : ''
              }`,
            );
        }
      }
      for (const c of controllers) {
        const why =
          answer.unmeasured.get('*') ??
          answer.unmeasured.get(`${c.instance}/${c.name}`);
        if (why) reasons.get(keyOf(c))!.push(`Prometheus: ${why}`);
      }
    }
    const rest = controllers.filter(c => !chosen.has(keyOf(c)));
    if (this.podProxy && rest.length) {
      for (const m of await this.podProxy.measureCluster(
        client,
        rest,
        signal,
      )) {
        const key = `${cluster}/${m.namespace}/${m.deployment}`;
        bySource.get(key)!['pod-proxy'] = m;
        if (hasFigures(m)) chosen.set(key, m);
        else
          reasons
            .get(key)!
            .push(
              ...(m.problems.length ? m.problems : ['no figures']).map(
                p => `pod proxy: ${p}`,
              ),
            );
      }
    }
    // cut short: no reading of this cluster changes
    if (signal.aborted) return undefined;
    for (const c of controllers) {
      const key = keyOf(c);
      const measurement = chosen.get(key);
      if (!this.podProxy && !measurement) {
        reasons
          .get(key)!
          .push(
            'pod proxy: not used (fluxFleet.capacity.podProxy.enabled is false)',
          );
      }
      const before = this.readings.get(key);
      this.readings.set(key, {
        ...this.unmeasuredReading(c, reasons.get(key)!),
        measurement,
        bySource: bySource.get(key)!,
      });
      // a controller scraped every few rounds answers its last measurement between: one point of history
      if (measurement && measurement !== before?.measurement) this.remember(key, measurement);
      this.logChange(key, before, measurement, reasons.get(key)!);
    }
    return { measured: chosen.size, total: controllers.length };
  }

  /** Logs when a controller stops or starts being measured, not every round. */
  private logChange(
    key: string,
    before: ControllerCapacityReading | undefined,
    measurement: ControllerMeasurement | undefined,
    reasons: string[],
  ) {
    const { logger } = this.options;
    if (!measurement && (!before || before.measurement)) {
      logger.warn(
        `Flux Fleet cannot measure controller ${key} from its metrics; its capacity figures are estimated: ${reasons.join(
          '; ',
        )}`,
      );
    } else if (measurement && before && !before.measurement) {
      logger.info(
        `Flux Fleet measures controller ${key} again (${measurement.source})`,
      );
    }
  }

  private remember(key: string, m: ControllerMeasurement) {
    const limit = this.options.settings.historyPoints;
    if (limit <= 0) return;
    const points = this.histories.get(key) ?? [];
    points.push(historyPoint(m));
    if (points.length > limit) points.splice(0, points.length - limit);
    this.histories.set(key, points);
  }

  private controllers(cluster?: string): FluxController[] {
    const clusters = cluster === undefined ? undefined : [cluster];
    return (clusters ?? [undefined])
      .flatMap(c => this.options.directory.instances(c))
      .flatMap(i => i.controllers)
      .filter(c => this.options.clients.has(c.cluster));
  }

  private listed(cluster: string): boolean {
    return this.options.listed?.(cluster) ?? true;
  }

  private whyNotMeasuredYet(cluster: string): string {
    const { settings } = this.options;
    if (!settings.enabled)
      return 'not measured: fluxFleet.capacity.enabled is false';
    if (!this.prometheus && !this.podProxy) {
      return 'not measured: fluxFleet.capacity.prometheus is not set and fluxFleet.capacity.podProxy.enabled is false';
    }
    const firstSync = this.options.firstSync?.();
    if (firstSync) {
      return `not measured yet: the fleet's first sync is under way (${firstSync.done} of ${firstSync.clusters} clusters listed); controllers are scraped once it is over, so that scraping does not slow the lists`;
    }
    if (!this.listed(cluster)) {
      return 'not measured yet: the cluster is still being listed for the first time; its controllers are scraped once the list is complete';
    }
    if (this.roundsCut > 0) {
      return `not measured yet: ${
        this.roundsCut === 1 ? 'a collection round' : `${this.roundsCut} collection rounds`
      } ran out of time before reaching this cluster`;
    }
    return 'not measured yet: the first collection has not finished';
  }

  private unmeasuredReading(
    c: FluxController,
    unmeasured: string[],
  ): ControllerCapacityReading {
    return {
      key: keyOf(c),
      cluster: c.cluster,
      namespace: c.instance,
      deployment: c.name,
      component: c.component,
      unmeasured,
      bySource: {},
    };
  }
}

function keyOf(c: FluxController): string {
  return `${c.cluster}/${c.instance}/${c.name}`;
}
