import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  METADATA_ONLY_ACCEPT,
  type WatchBehindReason,
  type WatchFollowState,
} from '@flux-fleet/plugin-flux-fleet-common';
import { Coalescer } from '@flux-fleet/plugin-flux-fleet-node';
import type { WatchSettings } from '../config/FleetConfig';
import { Backoff } from './Backoff';
import type { ClusterClient, WatchEvent } from './ClusterClient';
import { listBodyReader, type ListPageReader } from './ListBodyReader';
import type { ListWorker, NormalizedSink } from './listWorker/ListWorker';
import { KubernetesRequestError } from './KubernetesRequestError';
import {
  collectionPath,
  describeResource,
  WatchedResource,
} from './WatchedResource';
import { sleep } from './sleep';

/** Where an informer delivers objects (raw JSON, as the API server sent them). */
export interface InformerSink {
  /** A full list starts: objects not delivered again before {@link InformerSink.listFinished} are gone. */
  listStarted(): void;
  /** An object listed, added or modified. */
  upsert(object: unknown): void;
  /** An object deleted. */
  remove(object: unknown): void;
  /** The full list is complete: forget the objects it did not contain. */
  listFinished(): void;
  /** Sinks of Flux objects: what the list worker needs to read their lists on its thread, and where records go. */
  readonly normalized?: NormalizedSink;
}

/** What an informer tells its cluster about the connection. */
export interface InformerObserver {
  /** A request succeeded (the cluster answers). */
  succeeded(informer: ResourceInformer): void;
  /** A request failed; the informer retries after `retryInMs`. */
  failed(
    informer: ResourceInformer,
    error: KubernetesRequestError,
    retryInMs: number,
  ): void;
  /** The initial (or a re-) list is complete. */
  listed(informer: ResourceInformer): void;
  /** A watch event arrived (`BOOKMARK` included). */
  heard(informer: ResourceInformer, eventType: string): void;
  /** The cluster no longer serves this resource (404): discovery should run again. */
  vanished(informer: ResourceInformer): void;
}

/** A watch that ends this soon after it started, having delivered nothing, counts as failed (no hot loop). */
const MIN_HEALTHY_WATCH_MS = 1_000;
/**
 * A resumed watch has received the server's replay once nothing arrived for this long (rules §15). kube-apiserver
 * writes the events since the requested resource version from its watch cache at once, in one burst.
 */
export const REPLAY_QUIET_MS = 150;
/**
 * ... or once it has been open this long, whatever arrives: a replay from the watch cache takes milliseconds, so
 * what still streams after this is live traffic (a busy kind would otherwise never count as caught up).
 */
export const REPLAY_MAX_MS = 1_000;

/**
 * When the replay of a resumed watch has all arrived (rules §15): at its first `BOOKMARK` (the server writes it
 * after the replay), after {@link REPLAY_QUIET_MS} without an event, or {@link REPLAY_MAX_MS} after the watch
 * opened. Kubernetes gives no marker for the end of a replay (only for the initial events of a `sendInitialEvents`
 * watch), and counting the watch caught up when its response opened said `synced` with the replay still in flight.
 */
class ReplayEnd {
  private readonly quiet: Coalescer;

  constructor(arrived: () => void) {
    // a stalled event loop is not a quiet watch: what its socket already holds is read before deciding
    this.quiet = new Coalescer(
      {
        quietMs: REPLAY_QUIET_MS,
        maxWaitMs: REPLAY_MAX_MS,
        afterPendingIo: true,
      },
      arrived,
    );
  }

  opened(): void {
    this.quiet.touch();
  }

  heard(eventType: string): void {
    if (!this.quiet.pending) return;
    if (eventType === 'BOOKMARK') this.quiet.flushNow();
    else this.quiet.touch();
  }

  close(): void {
    this.quiet.close();
  }
}

/**
 * Informer semantics for one resource of one cluster: a paged list (`limit`/`continue`), then a watch from the
 * list's resource version with bookmarks, resumed from the last resource version seen when the server closes it,
 * a full relist on `410 Gone`, and exponential backoff with jitter (honouring `Retry-After`) on failures. A
 * watch that delivers nothing for `idleTimeoutMs` is restarted, which is how a hanging cluster is noticed.
 */
export class ResourceInformer {
  private resourceVersion: string | undefined;
  private readonly abort = new AbortController();
  private readonly backoff: Backoff;
  private running = false;
  private hasListed = false;
  /** When the last full list completed. */
  private listedAt = 0;
  /** When the informer last stopped being up to date (a watch broke); undefined while it is. */
  private behindSince: number | undefined = Date.now();
  /** Why it is behind (rules §15), while it is. */
  private behindReason: WatchBehindReason = 'listing';
  /** Aborts the backoff being slept out, while one is (see {@link ResourceInformer.wake}). */
  private wakeSleep?: AbortController;
  /** When it last caught up after being behind, and how long it had been behind then (rules §15). */
  private caughtUp?: { at: number; behindMs: number };

  constructor(
    readonly resource: WatchedResource,
    private readonly client: ClusterClient,
    private readonly sink: InformerSink,
    private readonly observer: InformerObserver,
    private readonly settings: WatchSettings,
    private readonly logger: LoggerService,
    private readonly limitList: <T>(task: () => Promise<T>) => Promise<T> = t =>
      t(),
    /** Reads the pages of Flux lists on another thread, when given and available. */
    private readonly listWorker?: ListWorker,
  ) {
    this.backoff = new Backoff(
      settings.backoffInitialMs,
      settings.backoffMaxMs,
    );
  }

  /** Whether the initial list has completed (the objects are all known, perhaps not up to the second). */
  get synced(): boolean {
    return this.hasListed;
  }

  /** Since when it has not been following the cluster (watch broken, relisting); undefined while it is. */
  get notFollowingSince(): number | undefined {
    return this.behindSince;
  }

  /** What it is doing, for the cluster's sync status (rules §15). */
  followState(watch: string): WatchFollowState {
    return {
      watch,
      listed: this.hasListed,
      ...(this.behindSince !== undefined && {
        behindSince: this.behindSince,
        reason: this.behindReason,
      }),
      ...(this.caughtUp && { caughtUp: this.caughtUp }),
    };
  }

  /**
   * Ends the backoff it is sleeping out, if any, so it retries now: the cluster answers again. A backoff the
   * server asked for (`429` with `Retry-After`) is kept, so a throttling server is never hit sooner than it said.
   * Returns whether it was woken.
   */
  wake(): boolean {
    if (!this.wakeSleep || this.behindReason === 'throttled') return false;
    this.wakeSleep.abort();
    this.wakeSleep = undefined;
    return true;
  }

  /** A short name for messages. */
  get description(): string {
    return describeResource(this.resource);
  }

  /** Starts listing and watching in the background; failures are retried until {@link ResourceInformer.stop}. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.run().catch(error =>
      // run() handles every failure itself; this only guards against a bug killing the informer silently
      this.logger.error(
        `Flux Fleet informer for ${this.description} of cluster '${this.client.cluster}' stopped: ${error}`,
      ),
    );
  }

  /** Stops the informer and closes its watch. */
  stop(): void {
    this.running = false;
    this.abort.abort();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        if (this.resourceVersion === undefined) {
          if (this.hasListed) this.behindReason = 'relisting';
          this.resourceVersion = await this.limitList(() => this.list());
          this.hasListed = true;
          this.listedAt = Date.now();
          this.observer.listed(this);
        }
        await this.watch();
      } catch (error) {
        if (!this.running) return;
        const failure = asRequestError(error, this.client.cluster);
        this.behindSince ??= Date.now();
        if (!failure.gone)
          this.behindReason = failure.status === 429 ? 'throttled' : 'backoff';
        if (failure.gone) {
          // the resource version is too old for the server: everything must be listed again
          this.logger.debug(
            `Flux Fleet relists ${this.description} of cluster '${this.client.cluster}': ${failure.message}`,
          );
          this.resourceVersion = undefined;
          this.behindReason = 'relisting';
          if (Date.now() - this.listedAt < MIN_HEALTHY_WATCH_MS) {
            // gone again right after a fresh list: the server is expiring watches; do not relist in a loop
            const delay = this.backoff.next(failure.retryAfterMs);
            this.observer.failed(this, failure, delay);
            await this.sleepOut(delay);
          }
          continue;
        }
        if (failure.notFound) {
          this.logger.info(
            `Flux Fleet stops watching ${this.description} of cluster '${this.client.cluster}': the cluster no longer serves it`,
          );
          this.running = false;
          this.observer.vanished(this);
          return;
        }
        const delay = this.backoff.next(failure.retryAfterMs);
        this.observer.failed(this, failure, delay);
        await this.sleepOut(delay);
      }
    }
  }

  /** Sleeps out a backoff, until it ends, the informer stops, or {@link ResourceInformer.wake} ends it. */
  private async sleepOut(delayMs: number): Promise<void> {
    const wake = new AbortController();
    this.wakeSleep = wake;
    try {
      await sleep(delayMs, AbortSignal.any([this.abort.signal, wake.signal]));
    } finally {
      if (this.wakeSleep === wake) this.wakeSleep = undefined;
    }
  }

  /** Lists every object page by page; returns the list's resource version. */
  private async list(): Promise<string> {
    const path = collectionPath(this.resource);
    this.sink.listStarted();
    let continueToken: string | undefined;
    let resourceVersion = '';
    do {
      // each item goes to the sink as it arrives: a page is never held whole
      const page = await this.client.getListWith<{
        items?: unknown;
        metadata?: { continue?: string; resourceVersion?: string };
      } | null>(
        path,
        {
          limit: this.settings.pageSize,
          continue: continueToken,
          labelSelector: this.resource.labelSelector,
          fieldSelector: this.resource.fieldSelector,
        },
        () => this.pageReader(),
        this.abort.signal,
        this.resource.metadataOnly ? METADATA_ONLY_ACCEPT.list : undefined,
      );
      if (!Array.isArray(page?.items)) {
        throw new KubernetesRequestError({
          cluster: this.client.cluster,
          failure: 'malformed',
          message: `the list of ${this.description} has no items`,
        });
      }
      this.observer.succeeded(this);
      continueToken = page.metadata?.continue || undefined;
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
    } while (continueToken && this.running);
    this.sink.listFinished();
    return resourceVersion;
  }

  /** Reads a page of the list: Flux objects on the list worker's thread where it runs, anything else here. */
  private pageReader(): ListPageReader {
    const normalized = this.sink.normalized;
    const inWorker =
      normalized && this.listWorker?.pageReader({ ...normalized, malformed: item => this.sink.upsert(item) });
    return inWorker || listBodyReader(item => this.sink.upsert(item));
  }

  /** One watch request, until the server closes it, it idles, it fails, or the informer stops. */
  private async watch(): Promise<void> {
    const started = Date.now();
    let delivered = 0;
    let problem: KubernetesRequestError | undefined;
    const watchAbort = new AbortController();
    const replay = new ReplayEnd(() => this.followAgain());
    const end = await this.client.watch(
      collectionPath(this.resource),
      {
        resourceVersion: this.resourceVersion,
        allowWatchBookmarks: this.settings.bookmarks || undefined,
        // spread renewals so the watches of a cluster do not all reconnect at once
        timeoutSeconds: Math.max(
          1,
          Math.round(
            (this.settings.watchTimeoutMs / 1000) * (0.9 + Math.random() * 0.2),
          ),
        ),
        labelSelector: this.resource.labelSelector,
        fieldSelector: this.resource.fieldSelector,
      },
      {
        onOpen: () => {
          this.observer.succeeded(this);
          if (this.behindSince === undefined) return;
          // the connection is back; the events since the resource version asked for are still on their way
          this.behindReason = 'replaying';
          replay.opened();
        },
        onEvent: event => {
          delivered++;
          replay.heard(event.type);
          problem ??= this.onEvent(event);
          if (problem) watchAbort.abort();
          // a watch that delivers is healthy: failures start over from the shortest delay
          else if (delivered === 1) this.backoff.reset();
        },
      },
      {
        idleTimeoutMs: this.settings.idleTimeoutMs,
        accept: this.resource.metadataOnly ? METADATA_ONLY_ACCEPT.watch : undefined,
        signal: AbortSignal.any([this.abort.signal, watchAbort.signal]),
      },
    );
    replay.close();
    if (problem) throw problem;
    if (end === 'aborted') return;
    if (this.behindSince === undefined) this.behindSince = Date.now();
    this.behindReason = 'reconnecting';
    if (Date.now() - started >= MIN_HEALTHY_WATCH_MS) this.backoff.reset();
    if (end === 'idle') {
      this.logger.debug(
        `Flux Fleet restarts the watch of ${this.description} of cluster '${
          this.client.cluster
        }': nothing arrived for ${this.settings.idleTimeoutMs / 1000} s`,
      );
      return;
    }
    if (delivered === 0 && Date.now() - started < MIN_HEALTHY_WATCH_MS) {
      throw new KubernetesRequestError({
        cluster: this.client.cluster,
        failure: 'network',
        message: `the watch of ${this.description} closed as soon as it opened`,
      });
    }
  }

  /** The replay of a resumed watch has arrived: it follows the cluster again. */
  private followAgain(): void {
    if (this.behindSince === undefined || this.behindReason !== 'replaying')
      return;
    const at = Date.now();
    this.caughtUp = { at, behindMs: at - this.behindSince };
    this.behindSince = undefined;
  }

  /** Applies one watch event; returns the error an `ERROR` event carries. */
  private onEvent(event: WatchEvent): KubernetesRequestError | undefined {
    this.observer.heard(this, event.type);
    const object = event.object;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
        this.sink.upsert(object);
        break;
      case 'DELETED':
        this.sink.remove(object);
        break;
      case 'BOOKMARK':
        break;
      case 'ERROR':
        return this.errorOf(object);
      default:
        this.logger.warn(
          `Flux Fleet ignores a watch event of unknown type '${event.type}' from ${this.description} of cluster '${this.client.cluster}'`,
        );
        return undefined;
    }
    const resourceVersion = (
      object as { metadata?: { resourceVersion?: unknown } }
    )?.metadata?.resourceVersion;
    if (typeof resourceVersion === 'string' && resourceVersion) {
      this.resourceVersion = resourceVersion;
    }
    return undefined;
  }

  /** The error an `ERROR` watch event carries (a `Status` object); `410` means relist. */
  private errorOf(status: unknown): KubernetesRequestError {
    const s = (status ?? {}) as {
      code?: unknown;
      reason?: unknown;
      message?: unknown;
    };
    const code = typeof s.code === 'number' ? s.code : undefined;
    return new KubernetesRequestError({
      cluster: this.client.cluster,
      failure: code ? 'status' : 'malformed',
      status: code,
      reason: typeof s.reason === 'string' ? s.reason : undefined,
      message: `the watch of ${this.description} reported ${
        code ?? 'an error'
      }${typeof s.message === 'string' ? `: ${s.message}` : ''}`,
    });
  }
}

/** Any error as a {@link KubernetesRequestError} (a bug in a sink becomes a `malformed` failure with its message). */
function asRequestError(
  error: unknown,
  cluster: string,
): KubernetesRequestError {
  if (error instanceof KubernetesRequestError) return error;
  return new KubernetesRequestError({
    cluster,
    failure: 'malformed',
    message: error instanceof Error ? error.message : String(error),
    cause: error,
  });
}
