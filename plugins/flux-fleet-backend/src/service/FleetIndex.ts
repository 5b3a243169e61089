import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  analyseCluster,
  clusterFluxVersions,
  fleetVersionView,
  FleetVersionView,
  ClusterHealth,
  ClusterStatus,
  Enforcement,
  ENFORCEMENT_LEVELS,
  EntityLink,
  EntityLinkTarget,
  Finding,
  FindingType,
  FleetObject,
  FleetObjectDetail,
  FleetSummary,
  FluxKind,
  InstanceSummary,
  inventoryWorkloadIds,
  inventoryWorkloads,
  matchesEntityLink,
  ObjectQuery,
  Owner,
  Page,
  ReconcileStateName,
  ShardSummary,
  TenantSummary,
  ValuePool,
} from '@flux-fleet/plugin-flux-fleet-common';
import type {
  FleetIndexChange,
  FleetIndexService,
} from '@flux-fleet/plugin-flux-fleet-node';
import type { ClusterWatcher } from '../cluster/ClusterWatcher';
import type { AnalysisSettings, TenantRule } from '../config/FleetConfig';
import type { ClusterSnapshotData, ClusterSnapshotSource } from '../persistence/clusterSnapshot';
import { ClusterStore } from './ClusterStore';
import { ClusterView, ViewChanges } from './ClusterView';
import {
  Staleness,
  toFleetObject,
  toFleetObjectDetail,
} from './fleetObjects';
import type { IndexedObject } from './IndexedObject';
import { PageSelector, textMatcher } from './objectQuery';
import { resolveTenantMapping } from './resolveTenantMapping';

/** Status changes are gathered this long before their objects are re-derived (one pass per burst). */
const STATUS_BATCH_MS = 10;
/**
 * While a cluster lists for the first time, its analysis waits for the list to finish (one analysis rather than
 * one per page), at most this long, so a cluster whose list never completes still shows what was read.
 */
const INITIAL_SYNC_MAX_DELAY_MS = 10_000;

/** Objects of one shard, per kind and state. */
interface ShardCounts {
  objectCount: number;
  countsByKind: Partial<Record<FluxKind, number>>;
  countsByState: Partial<Record<ReconcileStateName, number>>;
}

/** The health of a cluster that another replica watches, as its last snapshot says. */
export type RemoteHealth = ClusterHealth;

interface ClusterSlot {
  name: string;
  store: ClusterStore;
  view: ClusterView;
  watcher?: ClusterWatcher;
  /** Restored from a snapshot, not yet resynced by a watch. */
  restoredAt?: number;
  /** Health reported by the replica that watches this cluster (when this one does not). */
  remote?: RemoteHealth;
  /** When the cluster's objects became stale, while they are. */
  staleSince?: number;
  structuralTimer?: NodeJS.Timeout;
  firstStructuralAt?: number;
  lastChangeAt: number;
  statusTimer?: NodeJS.Timeout;
  refreshTimer?: NodeJS.Timeout;
  /** Bumped on every change of the view, for caches. */
  version: number;
}

/** Options of {@link FleetIndex}. */
export interface FleetIndexOptions {
  clusters: string[];
  tenants: TenantRule[];
  analysis: AnalysisSettings;
  eventsPerObject: number;
  logger: LoggerService;
}

/**
 * The fleet-wide index of Flux objects: per cluster, the store the watchers fill and the derived view with its
 * secondary indexes. Structural changes re-run the cluster's analysis (`analyseCluster` of `-common`), debounced
 * so a relist of thousands of objects is one analysis; status changes re-derive only the objects concerned.
 * Every read answers from memory.
 */
export class FleetIndex implements FleetIndexService {
  private readonly slots = new Map<string, ClusterSlot>();
  private readonly listeners = new Set<(changes: FleetIndexChange[]) => void>();
  private readonly pool = new ValuePool(50_000);
  private readyResolve?: () => void;
  private readonly readyPromise: Promise<void>;
  private closed = false;
  private tenantCache?: { version: string; value: TenantSummary[] };
  private selectorCache = new Map<string, { version: string; keys: string[] }>();

  constructor(private readonly options: FleetIndexOptions) {
    for (const name of options.clusters) {
      const slot: ClusterSlot = {
        name,
        view: undefined as unknown as ClusterView,
        store: undefined as unknown as ClusterStore,
        lastChangeAt: 0,
        version: 0,
      };
      slot.store = new ClusterStore(
        name,
        this.pool,
        options.logger,
        options.eventsPerObject,
        () => this.onStoreChange(slot),
      );
      slot.view = new ClusterView(name, slot.store.objects);
      this.slots.set(name, slot);
    }
    this.readyPromise = new Promise(resolve => {
      this.readyResolve = resolve;
    });
    this.checkReady();
  }

  /** The names of the configured clusters, in configuration order. */
  clusterNames(): string[] {
    return [...this.slots.keys()];
  }

  /** The store a cluster's watcher fills. */
  storeOf(cluster: string): ClusterStore {
    return this.slot(cluster).store;
  }

  /** Connects a watcher (this replica watches the cluster). */
  attachWatcher(cluster: string, watcher: ClusterWatcher): void {
    const slot = this.slot(cluster);
    slot.watcher = watcher;
    if (slot.remote) {
      // what it shows came from another replica's snapshot: restored until this watch has synced
      slot.restoredAt ??= Date.now();
      slot.remote = undefined;
    }
    this.scheduleRefresh(slot);
    this.updateStaleness(slot);
  }

  /** Disconnects a cluster's watcher (another replica took the cluster over, or this one stops). */
  detachWatcher(cluster: string): void {
    const slot = this.slot(cluster);
    slot.watcher = undefined;
    clearTimeout(slot.refreshTimer);
    // until the new holder's snapshot arrives, what is shown is as last seen here
    slot.restoredAt ??= Date.now();
    this.updateStaleness(slot);
  }

  /** The health another replica reported for a cluster this one does not watch. */
  remoteHealth(cluster: string): RemoteHealth | undefined {
    return this.slot(cluster).remote;
  }

  /** Updates the health another replica reported (its lease expired, or it is back). */
  setRemoteHealth(cluster: string, health: RemoteHealth): void {
    const slot = this.slot(cluster);
    if (slot.watcher) return;
    slot.remote = health;
    this.updateStaleness(slot);
  }

  /** Whether this replica watches a cluster. */
  isWatching(cluster: string): boolean {
    return this.slot(cluster).watcher !== undefined;
  }

  /**
   * What a snapshot of a cluster is written from, as this replica watches it, or undefined while the cluster is
   * not synced (a partial list must not replace a complete snapshot). Records are read as the snapshot is written.
   */
  snapshotOf(cluster: string): { source: ClusterSnapshotSource; health: ClusterHealth } | undefined {
    const slot = this.slot(cluster);
    const health = this.healthOf(slot);
    if (!slot.watcher || !health.synced || slot.view.analysedAt === undefined) return undefined;
    const { store, view } = slot;
    const keys: string[] = [];
    for (const s of store.objects.existingSlots()) keys.push(store.objects.keyOf(s)!);
    return {
      health,
      source: {
        keys,
        read: key => {
          const record = store.objects.get(key);
          return record && { record, updatedAt: view.get(key)?.updatedAt ?? Date.now() };
        },
        controllers: [...store.controllers.values()],
        namespaces: [...store.namespaces.values()],
        workloads: [...store.workloads.values()],
        events: [...store.events],
      },
    };
  }

  /** The pool restored snapshots share their strings through. */
  get valuePool(): ValuePool {
    return this.pool;
  }

  /** A watcher's connection status changed: staleness and health follow. */
  connectionChanged(cluster: string): void {
    const slot = this.slot(cluster);
    const health = this.healthOf(slot);
    if (health.synced && slot.restoredAt !== undefined) {
      slot.restoredAt = undefined;
    }
    if (health.synced) {
      // the list is complete: analyse now rather than after the debounce
      this.flushStructural(slot);
    }
    this.updateStaleness(slot);
    this.checkReady();
  }

  /**
   * Replaces a cluster's content with a restored snapshot: served at once, marked stale until its watch has
   * resynced (or, for a cluster another replica watches, with that replica's health).
   */
  restore(
    cluster: string,
    snapshot: ClusterSnapshotData,
    options: { restoredAt: number; remote?: RemoteHealth },
  ): void {
    const slot = this.slot(cluster);
    slot.view.seedUpdatedAt(
      new Map(snapshot.objects.map((r, i) => [r.key, snapshot.updatedAt[i] ?? options.restoredAt])),
    );
    slot.store.restore(snapshot);
    if (options.remote) {
      slot.remote = options.remote;
      slot.restoredAt = undefined;
    } else {
      slot.restoredAt = options.restoredAt;
    }
    this.flushStructural(slot);
    this.updateStaleness(slot);
    this.checkReady();
  }

  /** Stops every timer. */
  close(): void {
    this.closed = true;
    for (const slot of this.slots.values()) {
      clearTimeout(slot.structuralTimer);
      clearTimeout(slot.statusTimer);
      clearTimeout(slot.refreshTimer);
    }
  }

  // ---------------------------------------------------------------- FleetIndexService

  ready(): Promise<void> {
    return this.readyPromise;
  }

  clusters(): ClusterHealth[] {
    return [...this.slots.values()].map(slot => this.healthOf(slot));
  }

  /** The fleet view of Flux versions (rules §10). */
  versions(): FleetVersionView {
    return fleetVersionView(
      [...this.slots.values()].map(slot => ({
        cluster: slot.name,
        controllers: [...slot.store.controllers.values()],
        // what the analysis read from the Flux Operator (FluxInstance revision) for operator-managed instances
        operatorVersions: new Map(
          slot.view.instances
            .filter(i => i.fluxInstance !== undefined && i.version !== undefined)
            .map(i => [i.name, i.version!]),
        ),
        crds: [...slot.store.crds.values()],
      })),
    );
  }

  instances(cluster?: string): InstanceSummary[] {
    return this.slotsFor(cluster).flatMap(slot => slot.view.instances);
  }

  shards(cluster?: string): ShardSummary[] {
    return this.slotsFor(cluster).flatMap(slot => {
      // counts from the view, which status changes keep current between analyses
      const { view } = slot;
      const byShard = new Map<string, ShardCounts>();
      // owners are shared values: counted per owner first, then added up per shard
      const byOwner = new Map<Owner, ShardCounts>();
      for (const s of view.slots()) {
        const owner = view.ownerOf(s);
        if (owner.status !== 'ok' || owner.instance === null) continue;
        let counts = byOwner.get(owner);
        if (!counts) {
          const key = `${owner.instance}/${owner.shard ?? ''}`;
          counts = byShard.get(key);
          if (!counts) {
            counts = { objectCount: 0, countsByKind: {}, countsByState: {} };
            byShard.set(key, counts);
          }
          byOwner.set(owner, counts);
        }
        const kind = view.kindOf(s);
        const state = view.stateNameOf(s);
        counts.objectCount++;
        counts.countsByKind[kind] = (counts.countsByKind[kind] ?? 0) + 1;
        counts.countsByState[state] = (counts.countsByState[state] ?? 0) + 1;
      }
      return view.shards.map(shard => {
        const counts = byShard.get(`${shard.instance}/${shard.name}`);
        return {
          ...shard,
          objectCount: counts?.objectCount ?? 0,
          countsByKind: counts?.countsByKind ?? {},
          countsByState: counts?.countsByState ?? {},
        };
      });
    });
  }

  tenants(): TenantSummary[] {
    const version = this.fleetVersion();
    if (this.tenantCache?.version === version) return this.tenantCache.value;
    const tenants = new Map<
      string,
      {
        namespaces: Map<string, { cluster: string; namespace: string }>;
        shards: Map<string, { cluster: string; instance: string; shard: string }>;
        objectCount: number;
        counts: Partial<Record<Enforcement, number>>;
      }
    >();
    for (const slot of this.slots.values()) {
      // counted per distinct boundary and owner, which every object of a tenant shares with many others
      for (const { boundary, owner, count } of slot.view.countsByBoundaryAndOwner()) {
        const name = boundary.tenant;
        if (name === null) continue;
        let t = tenants.get(name);
        if (!t) {
          t = { namespaces: new Map(), shards: new Map(), objectCount: 0, counts: {} };
          tenants.set(name, t);
        }
        t.objectCount += count;
        const e = boundary.enforcement;
        t.counts[e] = (t.counts[e] ?? 0) + count;
        // the boundary's namespace is the object's (rules §5)
        const namespace = boundary.namespace;
        t.namespaces.set(`${slot.name}/${namespace}`, { cluster: slot.name, namespace });
        if (owner.status === 'ok' && owner.instance && owner.shard) {
          t.shards.set(`${slot.name}/${owner.instance}/${owner.shard}`, {
            cluster: slot.name,
            instance: owner.instance,
            shard: owner.shard,
          });
        }
      }
    }
    const value = [...tenants.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, t]): TenantSummary => {
        const group = this.tenantGroup(name);
        return {
          name,
          ...(group && { group }),
          namespaces: sortBy([...t.namespaces.values()], n => `${n.cluster}/${n.namespace}`),
          shards: sortBy(
            [...t.shards.values()],
            s => `${s.cluster}/${s.instance}/${s.shard}`,
          ),
          objectCount: t.objectCount,
          countsByEnforcement: t.counts,
          weakestEnforcement:
            ENFORCEMENT_LEVELS.find(level => (t.counts[level] ?? 0) > 0) ??
            'enforced',
        };
      });
    this.tenantCache = { version, value };
    return value;
  }

  summary(): FleetSummary {
    const countsByKind: Partial<Record<FluxKind, number>> = {};
    const countsByState: Partial<Record<ReconcileStateName, number>> = {};
    const findingsByType: Partial<Record<FindingType, number>> = {};
    let objects = 0;
    let instances = 0;
    let shards = 0;
    let unreachable = 0;
    for (const slot of this.slots.values()) {
      const { view } = slot;
      objects += view.size;
      for (const [kind, n] of Object.entries(view.countsByKind())) {
        countsByKind[kind as FluxKind] = (countsByKind[kind as FluxKind] ?? 0) + n;
      }
      for (const [state, n] of Object.entries(view.countsByState())) {
        const s = state as ReconcileStateName;
        countsByState[s] = (countsByState[s] ?? 0) + n;
      }
      for (const finding of slot.view.findings) {
        findingsByType[finding.type] = (findingsByType[finding.type] ?? 0) + 1;
      }
      instances += slot.view.instances.length;
      shards += slot.view.shards.length;
      const status = this.healthOf(slot).status;
      if (status === 'unreachable' || status === 'unauthorized') unreachable++;
    }
    return {
      clusters: this.slots.size,
      clustersUnreachable: unreachable,
      instances,
      shards,
      objects,
      tenants: this.tenants().length,
      countsByKind,
      countsByState,
      findingsByType,
      generatedAt: new Date().toISOString(),
    };
  }

  /** Objects matching a query (docs/api.md); `readable` leaves out those the caller may not read. */
  objects(query: ObjectQuery, readable?: (o: IndexedObject) => boolean): Page<FleetObject> {
    const selector = new PageSelector(query);
    const matchesText = textMatcher(query.q);
    for (const slot of this.slotsFor(query.cluster)) {
      const { view } = slot;
      view.forEachMatch(query, s => {
        const o = view.object(s)!;
        if ((!matchesText || matchesText(o)) && (!readable || readable(o))) selector.add(o);
      });
    }
    const page = selector.page();
    return {
      items: page.items.map(o => this.toApi(o)),
      totalCount: page.totalCount,
      ...(page.nextCursor && { nextCursor: page.nextCursor }),
    };
  }

  clusterObjects(cluster: string): FleetObject[] {
    const slot = this.slots.get(cluster);
    if (!slot) return [];
    const staleness = this.stalenessOf(slot);
    const { view } = slot;
    return [...view.slots()]
      .map(s => view.object(s)!)
      .sort(byKey)
      .map(o => toFleetObject(o, slot.store, staleness));
  }

  object(key: string): FleetObject | undefined {
    const found = this.find(key);
    return found && toFleetObject(found.object, found.slot.store, this.stalenessOf(found.slot));
  }

  objectDetail(key: string): FleetObjectDetail | undefined {
    const found = this.find(key);
    return (
      found &&
      toFleetObjectDetail(
        found.object,
        found.slot.store,
        found.slot.view,
        this.stalenessOf(found.slot),
      )
    );
  }

  findings(filter: { cluster?: string; type?: string[] } = {}): Finding[] {
    const types = toSet(filter.type);
    return this.slotsFor(filter.cluster ? [filter.cluster] : undefined).flatMap(slot =>
      types ? slot.view.findings.filter(f => types.has(f.type)) : slot.view.findings,
    );
  }

  entityObjects(link: EntityLink): FleetObject[] {
    const found = new Map<string, IndexedObject>();
    if (link.kubernetesId !== undefined) {
      const service = link.kubernetesId;
      for (const slot of this.slots.values()) {
        const { view } = slot;
        view.forEachOfService(service, s => {
          const o = view.object(s)!;
          found.set(o.key, o);
        });
      }
    }
    if (link.labelSelector !== undefined && link.labelSelector.trim() !== '') {
      for (const key of this.selectorMatches(link.labelSelector)) {
        if (found.has(key)) continue;
        const o = this.find(key)?.object;
        if (o) found.set(key, o);
      }
    }
    return [...found.values()]
      .sort(byKey)
      .map(o => this.toApi(o));
  }

  subscribe(listener: (changes: FleetIndexChange[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** What an entity link reads of an object, by key; undefined when the object is gone. */
  linkTarget(key: string): EntityLinkTarget | undefined {
    const found = this.find(key);
    if (!found) return undefined;
    return this.linkTargetOf(found.object, found.slot);
  }

  /** Bumped on every change of any cluster: equal versions mean equal answers. */
  fleetVersion(): string {
    let version = '';
    for (const slot of this.slots.values()) version += `${slot.version}.`;
    return version;
  }

  /** The version of one cluster's view (changes whenever its objects or derived answers change). */
  clusterVersion(cluster: string): number {
    return this.slot(cluster).version;
  }

  // ---------------------------------------------------------------- internals

  private slot(cluster: string): ClusterSlot {
    const slot = this.slots.get(cluster);
    if (!slot) throw new Error(`Flux Fleet has no cluster named '${cluster}'`);
    return slot;
  }

  private slotsFor(clusters?: string | string[]): ClusterSlot[] {
    if (clusters === undefined || clusters.length === 0) return [...this.slots.values()];
    const names = Array.isArray(clusters) ? clusters : [clusters];
    return names
      .map(name => this.slots.get(name))
      .filter((s): s is ClusterSlot => s !== undefined);
  }

  private find(key: string): { slot: ClusterSlot; object: IndexedObject } | undefined {
    const slash = key.indexOf('/');
    const slot = slash > 0 ? this.slots.get(key.slice(0, slash)) : undefined;
    const object = slot?.view.get(key);
    return slot && object ? { slot, object } : undefined;
  }

  private toApi(o: IndexedObject): FleetObject {
    const slot = this.slots.get(o.cluster)!;
    return toFleetObject(o, slot.store, this.stalenessOf(slot));
  }

  private linkTargetOf(o: IndexedObject, slot: ClusterSlot): EntityLinkTarget {
    const record = o.record;
    return {
      labels: record.labels,
      service: o.service,
      workloadLabels: inventoryWorkloads(record, slot.store.workloads).map(w => w.labels),
    };
  }

  /** The keys of the objects a label selector links (rules §6), kept until the fleet changes. */
  private selectorMatches(selector: string): string[] {
    const version = this.fleetVersion();
    const cached = this.selectorCache.get(selector);
    if (cached?.version === version) return cached.keys;
    const matches: string[] = [];
    const link: EntityLink = { labelSelector: selector };
    for (const slot of this.slots.values()) {
      const { view } = slot;
      const { workloads } = slot.store;
      for (const s of view.slots()) {
        // read from the columns: building every record of the fleet for one selector would cost ten times more
        const { inventory, namespace, remote } = view.table.inventoryOf(s);
        const workloadLabels: Array<Readonly<Record<string, string>>> = [];
        // the workloads of its inventory, as inventoryWorkloads finds them (rules §6)
        if (!remote && inventory) {
          for (const id of inventoryWorkloadIds({ inventory, namespace })) {
            const workload = workloads.get(id);
            if (workload) workloadLabels.push(workload.labels);
          }
        }
        const target: EntityLinkTarget = {
          labels: view.table.labelsAt(s),
          service: view.serviceOf(s),
          workloadLabels,
        };
        if (matchesEntityLink(target, link)) matches.push(view.keyOf(s));
      }
    }
    if (this.selectorCache.size > 1_000) this.selectorCache.clear();
    this.selectorCache.set(selector, { version, keys: matches });
    return matches;
  }

  private tenantGroup(tenant: string): string | undefined {
    for (const slot of this.slots.values()) {
      const mapping = resolveTenantMapping(
        this.options.tenants.filter(r => r.group),
        slot.name,
        slot.store.namespaces.keys(),
      );
      const entry = mapping.find(e => e.tenant === tenant && e.group);
      if (entry?.group) return entry.group;
    }
    return undefined;
  }

  private healthOf(slot: ClusterSlot): ClusterHealth {
    const counts = slot.view.countsByKind();
    // One Flux version per instance (rules §10): never the controllers' own image tags.
    const fluxVersions = clusterFluxVersions(slot.store.controllers.values());
    if (!slot.watcher && slot.remote) {
      return {
        ...slot.remote,
        objectCount: slot.view.size,
        countsByKind: counts,
      };
    }
    const watch = slot.watcher?.watchHealth();
    const connection = watch?.connection;
    let status: ClusterStatus = connection?.status ?? 'syncing';
    if (status === 'syncing' && slot.restoredAt !== undefined) status = 'restored';
    const iso = (ms?: number) => (ms === undefined ? undefined : new Date(ms).toISOString());
    return {
      name: slot.name,
      status,
      synced: watch?.synced ?? false,
      objectCount: slot.view.size,
      countsByKind: counts,
      ...(connection?.lastEventAt !== undefined && { lastEventAt: iso(connection.lastEventAt) }),
      ...(watch && { lagMs: watch.lagMs + this.pendingDelay(slot) }),
      ...(connection?.unreachableSince !== undefined && {
        unreachableSince: iso(connection.unreachableSince),
      }),
      ...(connection?.lastError !== undefined && { lastError: connection.lastError }),
      fluxVersions,
      servedVersions: watch?.servedVersions ?? {},
    };
  }

  /** How long changes of a cluster have been waiting for their analysis. */
  private pendingDelay(slot: ClusterSlot): number {
    return slot.firstStructuralAt === undefined ? 0 : Date.now() - slot.firstStructuralAt;
  }

  private stalenessOf(slot: ClusterSlot): Staleness {
    return slot.staleSince === undefined
      ? { stale: false }
      : { stale: true, since: new Date(slot.staleSince).toISOString() };
  }

  private updateStaleness(slot: ClusterSlot) {
    const health = this.healthOf(slot);
    const stale =
      health.status === 'unreachable' ||
      health.status === 'unauthorized' ||
      health.status === 'restored';
    const was = slot.staleSince !== undefined;
    if (stale === was) return;
    if (stale) {
      let since = Date.now();
      if (health.status === 'unreachable' && health.unreachableSince) {
        since = Date.parse(health.unreachableSince);
      } else if (health.status === 'restored' && slot.restoredAt) {
        since = slot.restoredAt;
      }
      slot.staleSince = since;
    } else {
      slot.staleSince = undefined;
    }
    // every object of the cluster changed its `stale` flag
    slot.version++;
    this.emit([
      {
        cluster: slot.name,
        keys: [...slot.view.keys()],
        structural: false,
        services: [...slot.view.serviceNames()],
      },
    ]);
  }

  private checkReady() {
    if (!this.readyResolve) return;
    const done = [...this.slots.values()].every(slot => {
      const h = this.healthOf(slot);
      return h.synced || h.status !== 'syncing';
    });
    if (done) {
      this.readyResolve();
      this.readyResolve = undefined;
    }
  }

  private onStoreChange(slot: ClusterSlot) {
    if (this.closed) return;
    const now = Date.now();
    slot.lastChangeAt = now;
    const pending = slot.store.peekChanges();
    if (pending.structural) {
      if (slot.structuralTimer === undefined) {
        slot.firstStructuralAt = now;
        this.armStructural(slot, this.options.analysis.debounceMs);
      }
    } else if (slot.statusTimer === undefined && slot.structuralTimer === undefined) {
      slot.statusTimer = setTimeout(() => {
        slot.statusTimer = undefined;
        this.flushStatus(slot);
      }, STATUS_BATCH_MS);
    }
  }

  private armStructural(slot: ClusterSlot, delay: number) {
    slot.structuralTimer = setTimeout(() => {
      slot.structuralTimer = undefined;
      const now = Date.now();
      const waited = now - (slot.firstStructuralAt ?? now);
      if (this.isInitialSync(slot) && waited < INITIAL_SYNC_MAX_DELAY_MS) {
        // the first list is still arriving: analyse once when it is complete (connectionChanged)
        this.armStructural(slot, INITIAL_SYNC_MAX_DELAY_MS - waited);
        return;
      }
      const quietFor = now - slot.lastChangeAt;
      const { debounceMs, maxDelayMs } = this.options.analysis;
      if (quietFor < debounceMs && waited < maxDelayMs) {
        // still changing: wait for a pause, but not beyond the maximum delay
        this.armStructural(slot, Math.min(debounceMs - quietFor, maxDelayMs - waited));
        return;
      }
      this.flushStructural(slot);
    }, Math.max(0, delay));
  }

  /** A cluster listing for the first time, with nothing restored to show meanwhile. */
  private isInitialSync(slot: ClusterSlot): boolean {
    return (
      slot.watcher !== undefined &&
      slot.restoredAt === undefined &&
      slot.view.analysedAt === undefined &&
      !slot.watcher.watchHealth().synced
    );
  }

  private flushStatus(slot: ClusterSlot) {
    if (this.closed) return;
    if (slot.store.peekChanges().structural) {
      // an analysis is due anyway and re-derives every state
      if (slot.structuralTimer === undefined) this.armStructural(slot, 0);
      return;
    }
    const changes = slot.store.takeChanges();
    const now = Date.now();
    const view = slot.view.applyStatus(changes.statusKeys, now);
    for (const key of changes.eventKeys) view.keys.add(key);
    if (view.needsAnalysis) {
      slot.store.requestAnalysis();
      this.armStructural(slot, 0);
    }
    this.publish(slot, view, false);
  }

  /** Analyses a cluster now and applies the result. */
  private flushStructural(slot: ClusterSlot) {
    if (this.closed) return;
    clearTimeout(slot.structuralTimer);
    slot.structuralTimer = undefined;
    clearTimeout(slot.statusTimer);
    slot.statusTimer = undefined;
    slot.firstStructuralAt = undefined;
    const changes = slot.store.takeChanges();
    const now = Date.now();
    const { store } = slot;
    let analysis;
    try {
      analysis = analyseCluster({
        cluster: slot.name,
        controllers: [...store.controllers.values()],
        namespaces: store.namespaces,
        workloads: store.workloads,
        tenantMapping: resolveTenantMapping(
          this.options.tenants,
          slot.name,
          store.namespaces.keys(),
        ),
        objects: store.objects.values(),
        crds: [...store.crds.values()],
        now,
      });
    } catch (error) {
      // analyseCluster never throws on odd records; a bug must still not take the index down
      this.options.logger.error(
        `Flux Fleet could not analyse cluster '${slot.name}': ${error}`,
      );
      return;
    }
    const view = slot.view.applyAnalysis(analysis, changes.changedKeys, now);
    for (const key of changes.changedKeys) view.keys.add(key);
    for (const key of changes.eventKeys) view.keys.add(key);
    this.publish(slot, view, true);
  }

  private publish(slot: ClusterSlot, view: ViewChanges, structural: boolean) {
    if (view.keys.size === 0 && !structural) return;
    slot.version++;
    if (view.keys.size === 0) return;
    this.emit([
      {
        cluster: slot.name,
        keys: [...view.keys],
        structural,
        services: [...view.services],
      },
    ]);
  }

  private emit(changes: FleetIndexChange[]) {
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch (error) {
        this.options.logger.warn(`Flux Fleet index listener failed: ${error}`);
      }
    }
  }

  private scheduleRefresh(slot: ClusterSlot) {
    clearTimeout(slot.refreshTimer);
    const interval = this.options.analysis.refreshIntervalMs;
    // time-based findings (a reconcile request left unhandled) and load from recent durations
    const refresh = () => {
      if (slot.watcher?.watchHealth().synced) this.flushStructural(slot);
    };
    // Each cluster at its own phase of the interval: analyses of every cluster at once would make their garbage
    // live long enough to reach the old generation, where it stays as resident memory until a full collection.
    const names = [...this.slots.keys()];
    const phase = (names.indexOf(slot.name) + 1) / names.length;
    slot.refreshTimer = setTimeout(() => {
      refresh();
      slot.refreshTimer = setInterval(refresh, interval);
      slot.refreshTimer.unref?.();
    }, interval * phase);
    slot.refreshTimer.unref?.();
  }

}

function toSet<T extends string>(values: T[] | undefined): Set<string> | undefined {
  return values && values.length > 0 ? new Set(values) : undefined;
}

function byKey(a: IndexedObject, b: IndexedObject): number {
  if (a.key === b.key) return 0;
  return a.key < b.key ? -1 : 1;
}

function sortBy<T>(items: T[], key: (item: T) => string): T[] {
  return items.sort((a, b) => key(a).localeCompare(key(b)));
}
