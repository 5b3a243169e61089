import type { LoggerService } from '@backstage/backend-plugin-api';
import type { WatchFollowState } from '@flux-fleet/plugin-flux-fleet-common';
import type { WatchSettings } from '../config/FleetConfig';
import { Backoff } from './Backoff';
import type { ClusterClient } from './ClusterClient';
import {
  ConnectionHealth,
  ConnectionHealthSnapshot,
  ConnectionStatus,
} from './ConnectionHealth';
import { discoverFluxResources } from './discoverFluxResources';
import { KubernetesRequestError } from './KubernetesRequestError';
import { createLimiter } from './createLimiter';
import type { ListWorker } from './listWorker/ListWorker';
import {
  InformerObserver,
  InformerSink,
  ResourceInformer,
} from './ResourceInformer';
import { sleep } from './sleep';
import {
  EVENTS,
  FLUX_CONTROLLERS,
  FLUX_CRDS,
  NAMESPACES,
  WORKLOADS,
} from './supportingResources';
import type { WatchedResource } from './WatchedResource';

/** How often the version probe asks a cluster whose requests fail: how soon a recovery is noticed. */
const RECOVERY_PROBE_MS = 500;

/** The roles of what a cluster watcher watches besides Flux kinds. */
export type SupportingRole = 'controllers' | 'namespaces' | 'workloads' | 'events' | 'crds';

/** Where a cluster's watcher delivers what it watches: the index's store of that cluster. */
export interface ClusterSinks {
  /** A sink for one Flux kind (the resource says which kind, at which version). */
  flux(resource: WatchedResource): InformerSink;
  /** A sink for controllers, namespaces, workloads (one per workload kind) or events. */
  supporting(role: SupportingRole, resource: WatchedResource): InformerSink;
  /** A Flux kind is no longer served at all: forget its objects. */
  dropFlux(kind: string): void;
}

/** What a cluster watcher knows about how well it follows its cluster. */
export interface ClusterWatchHealth {
  connection: ConnectionHealthSnapshot;
  /** Discovery done and every watch listed once: the objects are all known, perhaps not up to the second. */
  listed: boolean;
  /** Whether discovery of the Flux kinds served has succeeded once. */
  discovered: boolean;
  /** What each watch is doing, for the cluster's sync status (rules §15). */
  watches: WatchFollowState[];
  /** API group → version read. */
  servedVersions: Record<string, string>;
}

interface InformerEntry {
  informer: ResourceInformer;
  /** Flux kinds and controllers: without them the cluster cannot be shown. */
  essential: boolean;
  /** Refused (403) or not served (404): counts as done for `synced`, shown as the last error. */
  unavailable: boolean;
  /** Its name in the health's `watches` (a Flux kind, or the role of a supporting watch). */
  watch: string;
}

/**
 * Watches one cluster: discovers the Flux kinds it serves, runs an informer per Flux kind plus the controller
 * Deployments, namespaces, labelled workloads and events, rediscovers regularly (CRDs upgraded to new versions),
 * and keeps the cluster's connection health. Never throws into its caller: every failure is retried with
 * backoff and shown in the health.
 */
export class ClusterWatcher {
  private readonly informers = new Map<string, InformerEntry>();
  private readonly health: ConnectionHealth;
  private readonly abort = new AbortController();
  private servedVersions: Readonly<Record<string, string>> = Object.freeze({});
  private discovered = false;
  private rediscoverTimer?: NodeJS.Timeout;
  private probeTimer?: NodeJS.Timeout;
  private stopped = false;
  /** Ends the backoff discovery sleeps out, while it does. */
  private discoveryWake?: AbortController;
  private readonly notify: () => void;

  constructor(
    private readonly client: ClusterClient,
    private readonly sinks: ClusterSinks,
    private readonly settings: WatchSettings,
    private readonly logger: LoggerService,
    onStatusChange: (status: ConnectionStatus) => void,
    /** Shared by the watchers of every cluster: how many lists may run at once (see startWatching). */
    private readonly limitList: <T>(task: () => Promise<T>) => Promise<T> = createLimiter(4),
    /** Shared by the watchers of every cluster: reads the pages of Flux lists on another thread. */
    private readonly listWorker?: ListWorker,
  ) {
    this.notify = () => onStatusChange(this.health.snapshot().status);
    this.health = new ConnectionHealth(settings.unreachableAfterMs, status => {
      if (status === 'unreachable' || status === 'unauthorized') {
        this.logger.warn(
          `Flux Fleet: cluster '${client.cluster}' is ${status}; its objects keep their last state, marked stale (${this.health.snapshot().lastError})`,
        );
      }
      onStatusChange(status);
    });
  }

  get cluster(): string {
    return this.client.cluster;
  }

  /** Starts discovery and the informers in the background. */
  start(): void {
    this.startProbe();
    this.startSupporting();
    this.discoverLoop().catch(error =>
      this.logger.error(
        `Flux Fleet discovery of cluster '${this.cluster}' stopped: ${error}`,
      ),
    );
  }

  /** Stops every informer and timer. */
  stop(): void {
    this.stopped = true;
    this.abort.abort();
    clearTimeout(this.rediscoverTimer);
    clearTimeout(this.probeTimer);
    for (const { informer } of this.informers.values()) informer.stop();
    this.informers.clear();
    this.health.close();
  }

  watchHealth(): ClusterWatchHealth {
    // read on every cluster's health, which the entity view reads for each of up to 100 clusters
    const watches: WatchFollowState[] = [];
    for (const { informer, unavailable, watch } of this.informers.values()) {
      const state = informer.followState(watch);
      if (unavailable) state.unavailable = true;
      watches.push(state);
    }
    return {
      connection: this.health.snapshot(),
      listed: this.listed,
      discovered: this.discovered,
      watches,
      servedVersions: this.servedVersions,
    };
  }

  /**
   * The cluster answered: every watcher sleeping out a backoff retries now instead of after up to
   * `backoffMaxMs` (issue 11: 24.5 s back to the truth after an outage). Throttled ones keep their Retry-After.
   */
  private wakeSleepers(): void {
    let woken = 0;
    for (const { informer } of this.informers.values()) if (informer.wake()) woken++;
    if (this.discoveryWake) {
      this.discoveryWake.abort();
      this.discoveryWake = undefined;
      woken++;
    }
    if (woken > 0) {
      this.logger.debug(`Flux Fleet: cluster '${this.cluster}' answers again; ${woken} watches retry now`);
    }
  }

  /** Whether every watch has listed (or is refused or not served): `watchHealth().listed`. */
  get listed(): boolean {
    if (!this.discovered) return false;
    for (const { informer, unavailable } of this.informers.values()) {
      if (!informer.synced && !unavailable) return false;
    }
    return true;
  }

  /**
   * Asks the API server for its version regularly. Open watches can keep streaming while the server no longer
   * answers new requests (overloaded, hanging); only a new request shows that, within the request timeout. While
   * requests fail it asks every {@link RECOVERY_PROBE_MS} instead, so that a cluster coming back is noticed (and
   * its sleeping watchers woken) within half a second rather than after a backoff of up to `backoffMaxMs`.
   */
  private startProbe() {
    this.scheduleProbe();
  }

  private scheduleProbe() {
    if (this.stopped) return;
    const failing = this.health.snapshot().failingSince !== undefined;
    const delay = failing
      ? Math.min(RECOVERY_PROBE_MS, this.settings.probeIntervalMs)
      : this.settings.probeIntervalMs;
    this.probeTimer = setTimeout(() => this.probe(), delay);
    this.probeTimer.unref?.();
  }

  private probe() {
    this.client
      .getJson('/version', {}, this.abort.signal)
      .then(
        () => {
          this.health.succeeded(false);
          this.wakeSleepers();
        },
        error => {
          if (this.stopped) return;
          if (error instanceof KubernetesRequestError) {
            this.health.failed(error, true);
          }
        },
      )
      .finally(() => this.scheduleProbe());
  }

  private startSupporting() {
    this.add('controllers', FLUX_CONTROLLERS, true, 'controllers');
    this.add('namespaces', NAMESPACES, false, 'namespaces');
    this.add('crds', FLUX_CRDS, false, 'crds');
    for (const workload of WORKLOADS) {
      this.add(`workloads/${workload.kind}`, workload, false, 'workloads');
    }
    if (this.settings.events) {
      this.add('events', EVENTS, false, 'events');
    }
  }

  private add(
    id: string,
    resource: WatchedResource,
    essential: boolean,
    role: 'flux' | Parameters<ClusterSinks['supporting']>[0],
  ) {
    const sink =
      role === 'flux'
        ? this.sinks.flux(resource)
        : this.sinks.supporting(role, resource);
    const informer = new ResourceInformer(
      resource,
      this.client,
      sink,
      this.observer,
      this.settings,
      this.logger,
      this.limitList,
      this.listWorker,
    );
    this.informers.set(id, { informer, essential, unavailable: false, watch: id.replace(/^flux\//, '') });
    informer.start();
  }

  private readonly observer: InformerObserver = {
    succeeded: informer => {
      const entry = this.entryOf(informer);
      if (entry) entry.unavailable = false;
      this.health.succeeded(entry?.essential ?? false);
      this.wakeSleepers();
      this.notify();
    },
    failed: (informer, error, retryInMs) => {
      const entry = this.entryOf(informer);
      if (!entry) return;
      if (error.status === 403 && !entry.essential) {
        entry.unavailable = true;
      }
      this.logger.debug(
        `Flux Fleet: ${informer.description} failed, retrying in ${retryInMs} ms: ${error.message}`,
      );
      this.health.failed(error, entry.essential);
      this.health.setSynced(this.listed);
      this.notify();
    },
    listed: () => {
      this.health.setSynced(this.listed);
      this.notify();
    },
    heard: (_informer, eventType) => this.health.heard(eventType),
    vanished: informer => {
      const entry = this.entryOf(informer);
      if (!entry) return;
      entry.unavailable = true;
      if (entry.essential && informer.resource !== FLUX_CONTROLLERS) {
        // a Flux CRD removed or moved to another version: discover again soon
        this.scheduleDiscovery(1_000);
      }
      this.health.setSynced(this.listed);
    },
  };

  private entryOf(informer: ResourceInformer): InformerEntry | undefined {
    for (const entry of this.informers.values()) {
      if (entry.informer === informer) return entry;
    }
    return undefined;
  }

  /** Discovers until it succeeds once, then again every `discoveryIntervalMs`. */
  private async discoverLoop(): Promise<void> {
    const backoff = new Backoff(
      this.settings.backoffInitialMs,
      this.settings.backoffMaxMs,
    );
    while (!this.stopped) {
      try {
        await this.discover();
        this.scheduleDiscovery(this.settings.discoveryIntervalMs);
        return;
      } catch (error) {
        if (this.stopped) return;
        const failure =
          error instanceof KubernetesRequestError
            ? error
            : new KubernetesRequestError({
                cluster: this.cluster,
                failure: 'malformed',
                message: `discovery failed: ${error}`,
              });
        const delay = backoff.next(failure.retryAfterMs);
        this.health.failed(failure, true);
        const wake = new AbortController();
        // a throttled discovery keeps the Retry-After the server asked for
        if (failure.status !== 429) this.discoveryWake = wake;
        await sleep(delay, AbortSignal.any([this.abort.signal, wake.signal]));
      }
    }
  }

  private scheduleDiscovery(delayMs: number) {
    clearTimeout(this.rediscoverTimer);
    if (this.stopped) return;
    this.rediscoverTimer = setTimeout(() => {
      this.discoverLoop().catch(error =>
        this.logger.error(
          `Flux Fleet discovery of cluster '${this.cluster}' stopped: ${error}`,
        ),
      );
    }, delayMs);
    this.rediscoverTimer.unref?.();
  }

  /** Runs discovery once and reconciles the Flux informers with what the cluster serves now. */
  private async discover(): Promise<void> {
    const found = await discoverFluxResources(this.client, this.abort.signal);
    if (this.stopped) return;
    this.health.succeeded(true);
    for (const problem of found.problems) {
      this.logger.warn(`Flux Fleet: ${problem}`);
    }
    // frozen: every health read shares it
    this.servedVersions = Object.freeze({ ...found.servedVersions });
    const wanted = new Map<string, WatchedResource>(
      found.resources.map(r => [`flux/${r.kind}`, r]),
    );
    for (const [id, entry] of this.informers) {
      if (!id.startsWith('flux/')) continue;
      const next = wanted.get(id);
      const current = entry.informer.resource;
      if (!next || next.version !== current.version) {
        entry.informer.stop();
        this.informers.delete(id);
        if (!next) {
          this.logger.info(
            `Flux Fleet: cluster '${this.cluster}' no longer serves ${current.kind}`,
          );
          this.sinks.dropFlux(current.kind);
        }
      }
    }
    for (const [id, resource] of wanted) {
      if (!this.informers.has(id)) {
        this.add(id, resource, true, 'flux');
      }
    }
    if (!this.discovered) {
      this.logger.info(
        `Flux Fleet: cluster '${this.cluster}' serves ${
          found.resources.map(r => `${r.kind} ${r.version}`).join(', ') ||
          'no Flux kinds'
        }`,
      );
    }
    this.discovered = true;
    this.health.setSynced(this.listed);
    this.notify();
  }
}
