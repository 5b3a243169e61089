import http from 'node:http';
import type https from 'node:https';
import type { PodScrape } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterClient } from '../watch/ClusterClient';
import type { PodProxySettings } from '../config/FleetConfig';
import { httpGetLimited, LimitedGetError } from './httpGetLimited';
import { isCapacityLine, parseExposition } from './parseExposition';

/** A scrape (and the bytes its answer had before the filter) or the sentence saying why there is none. */
export type ScrapeOutcome =
  | { scrape: PodScrape; bytes: number }
  | { problem: string };

/** Runs a task when one of a bounded number of slots is free (see `createLimiter`). */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * Scrapes one pod's `/metrics` through the Kubernetes API's pod proxy
 * (`/api/v1/namespaces/{ns}/pods/{pod}:{port}/proxy/metrics`) with the cluster's own credentials: bounded by the
 * shared limiter, a deadline over the whole exchange and a cap on the body. Never throws: what failed is a
 * sentence naming the pod.
 */
export class PodProxyScraper {
  constructor(
    private readonly settings: PodProxySettings,
    private readonly limit: Limiter,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The cluster's request options (server CA, credentials), with the watch client's keep-alive agent: with
   * client-node's own options every scrape opened a TLS connection and built its TLS context again, 4 s of the
   * backend's CPU in a 25-minute run at fleet L (profile of 2026-12-04).
   */
  requestOptions(client: ClusterClient): Promise<https.RequestOptions> {
    return client.connectionOptions();
  }

  async scrape(
    client: ClusterClient,
    requestOptions: https.RequestOptions,
    namespace: string,
    pod: { name: string; port: number },
    signal?: AbortSignal,
  ): Promise<ScrapeOutcome> {
    const path = `/api/v1/namespaces/${encodeURIComponent(
      namespace,
    )}/pods/${encodeURIComponent(pod.name)}:${pod.port}/proxy/metrics`;
    const say = (problem: string) => ({
      problem: `pod ${pod.name}: ${problem}`,
    });
    let answer;
    try {
      answer = await this.limit(() =>
        httpGetLimited(new URL(client.server + path), {
          timeoutMs: this.settings.timeoutMs,
          maxBytes: this.settings.maxBodyBytes,
          requestOptions,
          headers: { Accept: 'text/plain;version=0.0.4' },
          signal,
          keepLine: isCapacityLine,
        }),
      );
    } catch (error) {
      if (error instanceof LimitedGetError && error.failure === 'too-large') {
        return say(
          `the scrape ${error.message} (the cap is fluxFleet.capacity.podProxy.maxBodyBytes)`,
        );
      }
      return say(
        `the scrape ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (answer.status !== 200) {
      const status = `${answer.status} ${
        http.STATUS_CODES[answer.status] ?? ''
      }`.trim();
      if (answer.status === 403) {
        return say(
          `the scrape answered ${status}: the credentials lack get on pods/proxy (see the ClusterRole in the README)`,
        );
      }
      return say(`the scrape answered ${status}${detail(answer.body)}`);
    }
    if (answer.body === '') {
      return say(
        'cannot read the scrape: it holds none of the series capacity reads (controller_runtime_reconcile_total, workqueue_depth, process_cpu_seconds_total…)',
      );
    }
    try {
      return {
        scrape: {
          pod: pod.name,
          at: this.now(),
          samples: parseExposition(answer.body),
        },
        bytes: answer.bytes,
      };
    } catch (error) {
      return say(`cannot read the scrape: ${(error as Error).message}`);
    }
  }
}

/** The message of a Kubernetes `Status` body, else the body's start. */
function detail(body: string): string {
  let text = body.trim();
  try {
    const parsed = JSON.parse(body);
    if (typeof parsed?.message === 'string') text = parsed.message;
  } catch {
    // not JSON: the text itself
  }
  return text ? `: ${text.slice(0, 200)}` : '';
}
