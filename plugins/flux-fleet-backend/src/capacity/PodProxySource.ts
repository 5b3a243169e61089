import type {
  ControllerMeasurement,
  FluxController,
  PodScrape,
  PodScrapePair,
} from '@flux-fleet/plugin-flux-fleet-common';
import { figuresFromScrapes } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterClient } from '../watch/ClusterClient';
import { KubernetesRequestError } from '../watch/KubernetesRequestError';
import type { PodProxySettings } from '../config/FleetConfig';
import { discoverControllerPods } from './discoverControllerPods';
import { PodProxyScraper } from './PodProxyScraper';
import type { Limiter } from './PodProxyScraper';

/**
 * Measures controllers by scraping their pods through the pod proxy each round (rules §14): the figures of a
 * round are the rates between a pod's scrape of this round and its last good one, so the window is the time
 * between them (about the scrape interval). Keeps the last good scrape of each pod it saw in the last round.
 *
 * A controller whose pods answer more than `bytesPerMinute` a minute is scraped every few rounds instead (at most
 * `windowSeconds` apart, the window Prometheus's rates cover) and keeps its last measurement between: Flux's
 * per-object histograms make a controller answer about 1.6 KB per object it reconciles, and at fleet L (1,193
 * controller pods, 0.89 MB each at the median, 7.9 MB the largest) scraping every one each minute moved 1.70 GB
 * through the API servers and kept the backend 60-100 % busy for 20 s of every minute (profile of 2026-12-05).
 * Each such controller starts at its own round of the cycle, so the large answers are spread over the rounds
 * rather than all falling due in the same one.
 */
export class PodProxySource {
  private readonly scraper: PodProxyScraper;
  private previous = new Map<string, PodScrape>();
  private seen = new Set<string>();
  private round = 0;
  /** Controllers scraped every few rounds: their last measurement and the round they are due again. */
  private readonly spaced = new Map<string, { measurement: ControllerMeasurement; dueRound: number }>();
  private spacedSeen = new Set<string>();
  /** The most rounds between two scrapes of one controller. */
  private readonly maxRoundsApart: number;

  constructor(
    private readonly settings: PodProxySettings,
    limit: Limiter,
    private readonly intervalSeconds: number,
    /** The longest window a spaced controller's rates may cover (`fluxFleet.capacity.windowSeconds`). */
    windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.scraper = new PodProxyScraper(settings, limit, now);
    this.maxRoundsApart = Math.max(1, Math.floor(windowSeconds / intervalSeconds));
  }

  /** Starts a round: pods and controllers not asked for since the last `beginRound` are forgotten. */
  beginRound() {
    for (const key of this.previous.keys())
      if (!this.seen.has(key)) this.previous.delete(key);
    this.seen = new Set();
    for (const key of this.spaced.keys())
      if (!this.spacedSeen.has(key)) this.spaced.delete(key);
    this.spacedSeen = new Set();
    this.round++;
  }

  /**
   * How many rounds apart a controller whose largest pod answered `bytes` is scraped: 1 while its pods answer
   * at most `bytesPerMinute` a minute, else as many as keep them to that, up to `windowSeconds`.
   */
  roundsApart(bytes: number): number {
    const perRound = (this.settings.bytesPerMinute * this.intervalSeconds) / 60;
    return Math.min(this.maxRoundsApart, Math.max(1, Math.ceil(bytes / perRound)));
  }

  /** Measures every controller of one cluster; never throws. */
  async measureCluster(
    client: ClusterClient,
    controllers: readonly FluxController[],
    signal?: AbortSignal,
  ): Promise<ControllerMeasurement[]> {
    let requestOptions;
    try {
      requestOptions = await this.scraper.requestOptions(client);
    } catch (error) {
      // the watch client's error names the cluster and says it could not prepare the credentials
      const problem =
        error instanceof KubernetesRequestError
          ? error.message
          : `cannot prepare the cluster's credentials: ${(error as Error).message}`;
      return controllers.map(c =>
        this.measurement(client.cluster, c, [], {
          figures: {},
          windowSeconds: 0,
          problems: [problem],
        }),
      );
    }
    return Promise.all(
      controllers.map(c => {
        const key = `${client.cluster}/${c.instance}/${c.name}`;
        this.spacedSeen.add(key);
        const spaced = this.spaced.get(key);
        if (spaced && spaced.dueRound > this.round) {
          // not due: its pods keep their last scrapes for the rates of the next
          for (const pod of spaced.measurement.pods) this.seen.add(`${client.cluster}/${c.instance}/${pod}`);
          return spaced.measurement;
        }
        return this.measureController(client, requestOptions, c, signal);
      }),
    );
  }

  private async measureController(
    client: ClusterClient,
    requestOptions: Awaited<ReturnType<PodProxyScraper['requestOptions']>>,
    controller: FluxController,
    signal?: AbortSignal,
  ): Promise<ControllerMeasurement> {
    const { pods, resources, problems } = await discoverControllerPods(
      client,
      controller.instance,
      controller.name,
      signal,
    );
    const outcomes = await Promise.all(
      pods.map(p =>
        this.scraper.scrape(
          client,
          requestOptions,
          controller.instance,
          p,
          signal,
        ),
      ),
    );
    const pairs: PodScrapePair[] = [];
    let largestAnswer = 0;
    for (const outcome of outcomes) {
      if ('problem' in outcome) {
        problems.push(outcome.problem);
        continue;
      }
      largestAnswer = Math.max(largestAnswer, outcome.bytes);
      const key = `${client.cluster}/${controller.instance}/${outcome.scrape.pod}`;
      pairs.push({ previous: this.previous.get(key), current: outcome.scrape });
      this.previous.set(key, outcome.scrape);
      this.seen.add(key);
    }
    // a pod whose scrape failed keeps its last good scrape: the next good one gives a rate over the longer window
    for (const p of pods)
      this.seen.add(`${client.cluster}/${controller.instance}/${p.name}`);
    const scraped = figuresFromScrapes(pairs);
    if (pairs.length > 0 && pairs.every(p => !p.previous)) {
      problems.push(
        `first scrape: reconcile rates, durations, queue waits and CPU come with the next, in ${this.intervalSeconds} s`,
      );
    }
    const measurement = {
      ...this.measurement(
        client.cluster,
        controller,
        pairs.map(p => p.current.pod),
        scraped,
      ),
      ...resources,
      problems: [...problems, ...scraped.problems],
    };
    this.space(
      `${client.cluster}/${controller.instance}/${controller.name}`,
      measurement,
      pairs.length === pods.length && pairs.every(p => p.previous) ? largestAnswer : 0,
    );
    return measurement;
  }

  /**
   * Decides when a controller just measured is scraped again: next round, unless every pod gave rates (a second
   * good scrape) and the largest answered more than `bytesPerMinute` allows a round. The first wait of a
   * controller is a share of its cycle chosen by its key, so that controllers spaced alike fall due in
   * different rounds.
   */
  private space(key: string, measurement: ControllerMeasurement, bytes: number) {
    const apart = bytes > 0 ? this.roundsApart(bytes) : 1;
    if (apart <= 1) {
      this.spaced.delete(key);
      return;
    }
    const wait = this.spaced.has(key) ? apart : 1 + (hashOf(key) % apart);
    this.spaced.set(key, { measurement, dueRound: this.round + wait });
  }

  private measurement(
    cluster: string,
    controller: FluxController,
    pods: string[],
    scraped: ReturnType<typeof figuresFromScrapes>,
  ): ControllerMeasurement {
    return {
      cluster,
      namespace: controller.instance,
      deployment: controller.name,
      component: controller.component,
      source: 'pod-proxy',
      pods,
      measuredAt: new Date(this.now()).toISOString(),
      windowSeconds: scraped.windowSeconds,
      ...scraped.figures,
      problems: scraped.problems,
    };
  }
}

/** A small, stable hash of a string (FNV-1a), to place a controller in its cycle. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
