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
 * Measures controllers by scraping their pods through the pod proxy each round (rules §12): the figures of a
 * round are the rates between a pod's scrape of this round and its last good one, so the window is the time
 * between them (about the scrape interval). Keeps the last good scrape of each pod it saw in the last round.
 */
export class PodProxySource {
  private readonly scraper: PodProxyScraper;
  private previous = new Map<string, PodScrape>();
  private seen = new Set<string>();

  constructor(
    settings: PodProxySettings,
    limit: Limiter,
    private readonly intervalSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.scraper = new PodProxyScraper(settings, limit, now);
  }

  /** Starts a round: pods not scraped since the last `beginRound` are forgotten. */
  beginRound() {
    for (const key of this.previous.keys())
      if (!this.seen.has(key)) this.previous.delete(key);
    this.seen = new Set();
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
      controllers.map(c =>
        this.measureController(client, requestOptions, c, signal),
      ),
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
    for (const outcome of outcomes) {
      if ('problem' in outcome) {
        problems.push(outcome.problem);
        continue;
      }
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
    return {
      ...this.measurement(
        client.cluster,
        controller,
        pairs.map(p => p.current.pod),
        scraped,
      ),
      ...resources,
      problems: [...problems, ...scraped.problems],
    };
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
