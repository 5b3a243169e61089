import { createHash } from 'node:crypto';
import {
  AuthService,
  LoggerService,
  SchedulerService,
  SchedulerServiceTaskRunner,
} from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { Config } from '@backstage/config';
import {
  CatalogService,
  DeferredEntity,
  EntityProvider,
  EntityProviderConnection,
} from '@backstage/plugin-catalog-node';
import {
  ClusterHealth,
  compareText,
} from '@flux-fleet/plugin-flux-fleet-common';
import {
  Coalescer,
  FleetIndexChange,
  FleetIndexService,
} from '@flux-fleet/plugin-flux-fleet-node';
import {
  CatalogView,
  readCatalogView,
  serviceComponentRefs,
} from '../lib/catalogView';
import { buildClusterEntities } from '../lib/clusterEntities';
import {
  clusterDisposition,
  ClusterDisposition,
  isOutage,
} from '../lib/clusterDisposition';
import {
  clusterLocationKey,
  clusterOfLocation,
  SERVICES_LOCATION,
} from '../lib/entityLocation';
import { entityValidationError } from '../lib/entityValidation';
import {
  buildServiceComponents,
  collectServices,
} from '../lib/serviceComponents';
import { TenantOwners } from '../lib/TenantOwners';
import {
  FluxFleetEntityProviderConfig,
  readProviderConfigs,
} from './FluxFleetEntityProviderConfig';

/** What a provider needs from the backend. */
export interface FluxFleetEntityProviderDeps {
  fleetIndex: FleetIndexService;
  /** Reads back the provider's own entities and the service Components. */
  catalog: CatalogService;
  auth: AuthService;
  logger: LoggerService;
  /** Creates the safety refresh's task runner from the configured schedule; or pass `schedule`. */
  scheduler?: SchedulerService;
  /** A task runner for the safety refresh, overriding the configured schedule (tests, custom setups). */
  schedule?: SchedulerServiceTaskRunner;
  /** The current time in milliseconds; for tests. */
  now?: () => number;
}

// A burst of structural changes is emitted at the latest this many debounce periods after its first change.
const MAX_WAIT_DEBOUNCES = 5;
// When the catalog cannot be read back (at startup its API may not serve yet), the refresh is retried after these
// delays, the last one repeating, rather than waiting for the next scheduled refresh.
const READ_BACK_RETRY_MS = [5_000, 15_000, 60_000, 300_000];
// How often cluster statuses are compared with the last look (in memory, cheap): a cluster that finished syncing
// or came back is emitted even when its structure did not change meanwhile.
const STATUS_POLL_MS = 5_000;

/**
 * What a sync is part of: a refresh (reconciles with what the catalog was read back to hold, when it could be read)
 * or the emission of changes (compares with what this process emitted).
 */
interface Pass {
  refresh: boolean;
  readBack?: CatalogView;
  /** When the refresh before this one started (in a refresh, after the first). */
  previousRefreshAt?: number;
}

const CHANGES: Pass = { refresh: false };

/**
 * Emits the structure of the Flux fleet (clusters, Flux instances, shards, Flux objects of the configured kinds
 * and, optionally, Components of services the catalog lacks) as catalog entities, from the Flux Fleet backend's
 * index.
 *
 * Mutations are deltas, one per cluster, keyed by the location key `flux-fleet:<cluster>`: a change in one cluster
 * never rewrites another's entities, and a cluster the index cannot see (syncing, unreachable, unauthorized) keeps
 * its entities until it has been down longer than `removeAfterOutage`. Structural changes in the index are emitted
 * after a short debounce; a scheduled safety refresh reads back what the catalog holds and reconciles every cluster,
 * so entities of objects that disappeared while the backend was down are removed without re-adding the others.
 *
 * @public
 */
export class FluxFleetEntityProvider implements EntityProvider {
  private readonly config: FluxFleetEntityProviderConfig;
  private readonly deps: FluxFleetEntityProviderDeps;
  private readonly logger: LoggerService;
  private readonly taskRunner: SchedulerServiceTaskRunner;
  private readonly now: () => number;

  private connection?: EntityProviderConnection;
  private unsubscribe?: () => void;
  /** Location → (entity ref → hash of what was emitted; '' when only known from reading the catalog back). */
  private readonly held = new Map<string, Map<string, string>>();
  /** When this process last emitted each entity it holds (by ref). */
  private readonly emittedAt = new Map<string, number>();
  private lastRefreshAt?: number;
  /** When the provider first saw each cluster down. */
  private readonly outageSeenAt = new Map<string, number>();
  private view?: CatalogView;
  private indexReady = false;
  private work: Promise<void> = Promise.resolve();
  private readonly pending = new Set<string>();
  /** Gathers a burst of structural changes into one emission (debounce, with a maximum wait). */
  private readonly flushes: Coalescer;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private statusPoll?: ReturnType<typeof setInterval>;
  /** The disposition of each cluster when the provider last looked. */
  private readonly observed = new Map<string, ClusterDisposition>();
  private readBackFailures = 0;
  private readonly reported = new Set<string>();

  /**
   * Creates one provider per configured provider id (`catalog.providers.fluxFleet`). Throws an `InputError` that
   * names the key when the configuration is wrong.
   */
  static fromConfig(
    config: Config,
    deps: FluxFleetEntityProviderDeps,
  ): FluxFleetEntityProvider[] {
    return readProviderConfigs(config).map(providerConfig => {
      const taskRunner =
        deps.schedule ??
        deps.scheduler?.createScheduledTaskRunner(providerConfig.schedule);
      if (!taskRunner) {
        throw new Error(
          `FluxFleetEntityProvider ${providerConfig.id} needs either a scheduler or a schedule`,
        );
      }
      return new FluxFleetEntityProvider(providerConfig, deps, taskRunner);
    });
  }

  private constructor(
    config: FluxFleetEntityProviderConfig,
    deps: FluxFleetEntityProviderDeps,
    taskRunner: SchedulerServiceTaskRunner,
  ) {
    this.config = config;
    this.deps = deps;
    this.taskRunner = taskRunner;
    this.now = deps.now ?? Date.now;
    this.logger = deps.logger.child({
      target: this.getProviderName(),
    });
    // On the real clock, not `deps.now` (which tests hold still to time outages): the wait is a timer's.
    // Not ref'd: pending changes never keep a stopping backend alive.
    this.flushes = new Coalescer(
      {
        quietMs: config.debounceMs,
        maxWaitMs: config.debounceMs * MAX_WAIT_DEBOUNCES,
      },
      () => this.flushPending(),
    );
  }

  /** {@inheritDoc @backstage/plugin-catalog-node#EntityProvider.getProviderName} */
  getProviderName(): string {
    return `FluxFleetEntityProvider:${this.config.id}`;
  }

  /** {@inheritDoc @backstage/plugin-catalog-node#EntityProvider.connect} */
  async connect(connection: EntityProviderConnection): Promise<void> {
    this.connection = connection;
    this.unsubscribe = this.deps.fleetIndex.subscribe(changes =>
      this.onIndexChanges(changes),
    );
    this.statusPoll = setInterval(() => {
      if (this.noticeStatusChanges()) this.scheduleFlush();
    }, STATUS_POLL_MS);
    this.statusPoll.unref?.();
    await this.taskRunner.run({
      id: `${this.getProviderName()}:refresh`,
      fn: async () => {
        try {
          await this.refresh();
        } catch (error) {
          // Never thrown into the scheduler: the next run tries again.
          this.logger.error(`Flux Fleet catalog refresh failed: ${error}`);
        }
      },
    });
    this.deps.fleetIndex.ready().then(
      () => {
        this.indexReady = true;
        this.refresh().catch(error =>
          this.logger.error(`Flux Fleet catalog refresh failed: ${error}`),
        );
      },
      error =>
        this.logger.warn(
          `The Flux Fleet index did not become ready, entities of clusters that left the fleet are kept: ${error}`,
        ),
    );
  }

  /**
   * Reconciles every cluster: reads back what the catalog holds from this provider, emits each cluster's entities
   * and removes those of objects and clusters that are gone. Errors of one cluster are logged and never stop the
   * others.
   */
  async refresh(): Promise<void> {
    await this.enqueue(() => this.reconcileAll());
  }

  /** Stops listening to the index and drops pending work; called at shutdown. */
  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.flushes.cancel();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.statusPoll) clearInterval(this.statusPoll);
    this.statusPoll = undefined;
    this.pending.clear();
    this.connection = undefined;
  }

  /** Runs work after what is already running, so mutations never interleave. */
  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.work.then(task);
    this.work = run.catch(() => {});
    return run;
  }

  private onIndexChanges(changes: FleetIndexChange[]): void {
    let added = false;
    for (const change of changes) {
      if (change.structural && this.includesCluster(change.cluster)) {
        this.pending.add(change.cluster);
        added = true;
      }
    }
    // a cluster's status changes with a change naming no object (its health) or a structural one (its first
    // analysis); an object's status never changes what the catalog holds, and reading every cluster's health for
    // each of those batches was a tenth of the backend's CPU at fleet M (profile of 2026-12-02). Only the clusters
    // named are read again: reading all of them for each was 2 % of the first sync's CPU at fleet L.
    const mayChangeStatus = new Set(
      changes.filter(c => c.keys.length === 0 || c.structural).map(c => c.cluster),
    );
    if (mayChangeStatus.size > 0 && this.noticeStatusChanges(mayChangeStatus)) added = true;
    if (added) this.scheduleFlush();
  }

  /**
   * Queues the clusters whose disposition changed to one that emits or removes (a cluster that finished syncing,
   * came back, or has been down past `removeAfterOutage`): the index need not announce a structural change then.
   * Returns whether it queued any.
   */
  private noticeStatusChanges(only?: ReadonlySet<string>): boolean {
    let added = false;
    for (const health of this.includedClusters(only)) {
      const disposition = this.dispositionOf(health);
      if (this.observed.get(health.name) === disposition) continue;
      this.observed.set(health.name, disposition);
      if (disposition !== 'keep') {
        this.pending.add(health.name);
        added = true;
      }
    }
    return added;
  }

  private scheduleFlush(): void {
    if (this.pending.size === 0 || !this.connection) return;
    this.flushes.touch();
  }

  private flushPending(): void {
    const clusters = [...this.pending].sort();
    this.pending.clear();
    this.enqueue(async () => {
      const health = new Map(
        this.includedClusters().map(h => [h.name, h] as const),
      );
      for (const cluster of clusters) {
        const clusterHealth = health.get(cluster);
        if (clusterHealth) await this.syncCluster(clusterHealth, CHANGES);
      }
      await this.syncComponents(CHANGES);
    }).catch(error =>
      this.logger.error(
        `Flux Fleet catalog update of ${clusters.join(', ')} failed: ${error}`,
      ),
    );
  }

  private scheduleRetry(delay: number): void {
    if (this.retryTimer || !this.connection) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.refresh().catch(error =>
        this.logger.error(`Flux Fleet catalog refresh failed: ${error}`),
      );
    }, delay);
    this.retryTimer.unref?.();
  }

  private async reconcileAll(): Promise<void> {
    const pass: Pass = { refresh: true, previousRefreshAt: this.lastRefreshAt };
    this.lastRefreshAt = this.now();
    try {
      pass.readBack = await readCatalogView({
        catalog: this.deps.catalog,
        auth: this.deps.auth,
        providerId: this.config.id,
      });
      this.view = pass.readBack;
      for (const [location, refs] of pass.readBack.heldByLocation) {
        const held = this.heldAt(location);
        for (const ref of refs) if (!held.has(ref)) held.set(ref, '');
      }
      this.readBackFailures = 0;
    } catch (error) {
      // Without the read-back, entities emitted by an earlier run are unknown: nothing of theirs is removed now.
      const delay =
        READ_BACK_RETRY_MS[
          Math.min(this.readBackFailures, READ_BACK_RETRY_MS.length - 1)
        ];
      this.readBackFailures += 1;
      this.logger.warn(
        `Could not read this provider's entities back from the catalog, so entities of objects that disappeared while the backend was down are not removed yet; retrying in ${
          delay / 1000
        } s: ${error}`,
      );
      this.scheduleRetry(delay);
    }

    const clusters = this.includedClusters();
    for (const health of clusters) {
      await this.syncCluster(health, pass);
    }
    if (this.indexReady) {
      const present = new Set(clusters.map(h => h.name));
      this.reportMissingConfiguredClusters(present);
      for (const location of [...this.held.keys()].sort()) {
        const cluster = clusterOfLocation(location);
        if (cluster !== undefined && !present.has(cluster)) {
          await this.apply(cluster, location, [], [...this.heldAt(location).keys()], 'left the fleet');
        }
      }
    }
    await this.syncComponents(pass);
  }

  /** Emits one cluster's entities as its disposition allows. */
  private async syncCluster(health: ClusterHealth, pass: Pass): Promise<void> {
    const cluster = health.name;
    const location = clusterLocationKey(cluster);
    try {
      const disposition = this.dispositionOf(health);
      if (disposition === 'keep') return;
      const held = this.heldAt(location);
      if (disposition === 'remove') {
        await this.apply(cluster, location, [], [...held.keys()], 'down longer than removeAfterOutage');
        return;
      }
      const desired = await this.clusterEntities(cluster);
      const added = desired.filter(e => this.mustSend(e, held, location, pass));
      const desiredRefs = new Set(desired.map(e => e.ref));
      const removed =
        disposition === 'reconcile'
          ? [...held.keys()].filter(ref => !desiredRefs.has(ref))
          : [];
      await this.apply(cluster, location, added, removed);
    } catch (error) {
      this.logger.error(
        `Flux Fleet entities of cluster ${cluster} were not updated: ${error}`,
      );
    }
  }

  private dispositionOf(health: ClusterHealth): ClusterDisposition {
    if (isOutage(health)) {
      if (!this.outageSeenAt.has(health.name)) {
        this.outageSeenAt.set(health.name, this.now());
      }
    } else {
      this.outageSeenAt.delete(health.name);
    }
    return clusterDisposition(health, {
      now: this.now(),
      removeAfterOutageMs: this.config.removeAfterOutageMs,
      outageStartedAt: this.outageSeenAt.get(health.name),
    });
  }

  /** The cluster's entities, valid ones only, with their refs and hashes. */
  private async clusterEntities(cluster: string): Promise<EmittedEntity[]> {
    const { fleetIndex } = this.deps;
    const kinds = new Set(this.config.kinds);
    const { entities, problems } = buildClusterEntities(
      {
        cluster,
        instances: fleetIndex.instances(cluster),
        shards: fleetIndex.shards(cluster),
        // only the kinds emitted: every object of a cluster built for none was most of this pass at fleet M
        objects: kinds.size > 0 ? fleetIndex.clusterObjects(cluster, kinds) : [],
      },
      {
        providerId: this.config.id,
        kinds,
        owners: this.owners(),
        serviceComponents: service => serviceComponentRefs(this.view, service),
      },
    );
    problems.forEach(problem => this.reportOnce(problem));
    return this.validEntities(
      entities,
      clusterLocationKey(cluster),
      `cluster ${cluster}`,
    );
  }

  private async syncComponents(pass: Pass): Promise<void> {
    if (!this.config.createMissingComponents) return;
    const view = this.view;
    if (!view) return; // Which services the catalog has is unknown until it has been read once.
    try {
      const clusters = this.includedClusters().filter(
        h => this.dispositionOf(h) !== 'remove',
      );
      const objects = clusters.flatMap(h =>
        this.deps.fleetIndex.clusterObjects(h.name),
      );
      const missing = collectServices(objects).filter(
        s =>
          !view.componentsByKubernetesId.has(s.service) &&
          !serviceComponentRefs(undefined, s.service).some(ref =>
            view.otherComponents.has(ref),
          ),
      );
      const desired = await this.validEntities(
        buildServiceComponents(missing, {
          providerId: this.config.id,
          owners: this.owners(),
        }),
        SERVICES_LOCATION,
        'generated Components',
      );
      const held = this.heldAt(SERVICES_LOCATION);
      const added = desired.filter(e =>
        this.mustSend(e, held, SERVICES_LOCATION, pass),
      );
      // A service seen only on a cluster still syncing is not known yet: remove nothing until every cluster is.
      const everyClusterKnown = clusters.every(h => h.status === 'synced');
      const desiredRefs = new Set(desired.map(e => e.ref));
      const removed = everyClusterKnown
        ? [...held.keys()].filter(ref => !desiredRefs.has(ref))
        : [];
      await this.apply('(services)', SERVICES_LOCATION, added, removed);
    } catch (error) {
      this.logger.error(`Flux Fleet service Components were not updated: ${error}`);
    }
  }

  /**
   * Whether an entity must be sent: it changed since it was last emitted, or, in a refresh, the catalog was not seen
   * holding it although it was emitted before the previous refresh began (time enough to be processed: someone
   * removed it, or the catalog could not be read back). What was emitted since may simply wait for processing (on a
   * big fleet, for many minutes): it is not sent again. Sending an unchanged entity would cost the catalog only a
   * hash comparison, but the provider the work of a mutation.
   */
  private mustSend(
    entity: EmittedEntity,
    held: Map<string, string>,
    location: string,
    pass: Pass,
  ): boolean {
    if (held.get(entity.ref) !== entity.hash) return true;
    if (!pass.refresh) return false;
    if (pass.readBack?.heldByLocation.get(location)?.has(entity.ref)) {
      return false;
    }
    const emittedAt = this.emittedAt.get(entity.ref);
    return (
      emittedAt === undefined ||
      (pass.previousRefreshAt !== undefined &&
        emittedAt < pass.previousRefreshAt)
    );
  }

  /**
   * Applies one delta mutation and records what the catalog now holds. Generated Components go without a location
   * key, so that a Component defined anywhere else takes over from the generated one.
   */
  private async apply(
    cluster: string,
    location: string,
    added: EmittedEntity[],
    removed: string[],
    why?: string,
  ): Promise<void> {
    if (added.length === 0 && removed.length === 0) return;
    if (!this.connection) throw new Error(`${this.getProviderName()} is not connected yet`);
    const locationKey = location === SERVICES_LOCATION ? undefined : location;
    await this.connection.applyMutation({
      type: 'delta',
      added: added.map(({ entity }): DeferredEntity => ({ entity, locationKey })),
      removed: removed.map(entityRef => ({ entityRef, locationKey })),
    });
    const held = this.heldAt(location);
    const now = this.now();
    for (const { ref, hash } of added) {
      held.set(ref, hash);
      this.emittedAt.set(ref, now);
    }
    for (const ref of removed) {
      held.delete(ref);
      this.emittedAt.delete(ref);
    }
    if (held.size === 0) this.held.delete(location);
    this.logger.info(
      `Flux Fleet ${cluster}: ${added.length} entities emitted, ${removed.length} removed${
        why ? ` (${why})` : ''
      }`,
    );
  }

  /**
   * The entities the catalog would accept, with their refs and hashes. An entity identical to one already emitted
   * to `location` passed before, so only new and changed ones are checked (the check is the costly part).
   */
  private async validEntities(
    entities: Entity[],
    location: string,
    what: string,
  ): Promise<EmittedEntity[]> {
    const held = this.held.get(location);
    const valid: EmittedEntity[] = [];
    for (const entity of entities) {
      const ref = stringifyEntityRef(entity);
      const hash = createHash('sha256').update(JSON.stringify(entity)).digest('hex');
      if (held?.get(ref) !== hash) {
        const error = await entityValidationError(entity);
        if (error) {
          this.reportOnce(`Skipped an entity of ${what}: ${error}`);
          continue;
        }
      }
      valid.push({ entity, ref, hash });
    }
    return valid;
  }

  private owners(): TenantOwners {
    return new TenantOwners(this.config, this.deps.fleetIndex.tenants());
  }

  private heldAt(location: string): Map<string, string> {
    let held = this.held.get(location);
    if (!held) {
      held = new Map();
      this.held.set(location, held);
    }
    return held;
  }

  private includesCluster(cluster: string): boolean {
    return !this.config.clusters || this.config.clusters.includes(cluster);
  }

  private includedClusters(only?: ReadonlySet<string>): ClusterHealth[] {
    return this.deps.fleetIndex
      .clusters(only)
      .filter(h => this.includesCluster(h.name))
      .sort((a, b) => compareText(a.name, b.name));
  }

  private reportMissingConfiguredClusters(present: Set<string>): void {
    for (const cluster of this.config.clusters ?? []) {
      if (!present.has(cluster)) {
        this.reportOnce(
          `Cluster ${cluster}, named in catalog.providers.fluxFleet (provider ${this.config.id}) clusters, is not in the Flux Fleet index (fluxFleet.clusters); it has no entities`,
        );
      }
    }
  }

  /** Logs a problem once per process, so a refresh every few minutes does not repeat it. */
  private reportOnce(message: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.logger.warn(message);
  }
}

interface EmittedEntity {
  entity: Entity;
  ref: string;
  hash: string;
}
