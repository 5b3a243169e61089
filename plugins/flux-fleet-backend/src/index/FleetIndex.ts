import {
  CapacityRecord,
  ClusterHealth,
  EntityLink,
  EntityLinkTarget,
  Finding,
  FleetObject,
  FleetObjectDetail,
  FleetSummary,
  fleetVersionView,
  FleetVersionView,
  FluxKind,
  FluxObjectRecord,
  InstanceSummary,
  MalformedObject,
  inventoryWorkloadLabels,
  ObjectQuery,
  Page,
  ShardSummary,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  EntityObjectJson,
  FleetIndexChange,
  FleetIndexService,
  IndexedObjectFacts,
} from '@flux-fleet/plugin-flux-fleet-node';
import type { IndexedObject } from '../derive/IndexedObject';
import type { TenantRule } from '../config/FleetConfig';
import type { ClusterEntry } from './ClusterEntry';
import { stalenessOf } from './clusterHealth';
import type { FleetClusters } from './FleetClusters';
import { shardsOf, summaryOf, tenantsOf } from './fleetSummaries';
import { toFleetObject, toFleetObjectDetail } from './fleetObjects';
import { joinJsonArray } from './jsonParts';
import { ObjectJsonCache } from './ObjectJsonCache';
import { objectPage } from './objectPages';
import { PageParts } from './PageParts';
import { SelectorScan } from './SelectorScan';
import { TextMatches } from './TextMatches';

/**
 * The fleet-wide index of Flux objects, read side: every answer of {@link FleetIndexService} (and the API), from
 * the views and records of {@link FleetClusters}, in memory. It changes nothing; caches follow the fleet version.
 */
/** Records built between turns of the event loop (a few milliseconds of work). */
const RECORDS_PER_TURN = 500;
/** Capacity records (seven shared fields each) read between turns of the event loop. */
const CAPACITY_RECORDS_PER_TURN = 5_000;


export class FleetIndex implements FleetIndexService {
  private tenantCache?: { version: string; value: TenantSummary[] };
  private readonly selectors = new SelectorScan();
  private readonly textMatches: TextMatches;
  /** The JSON of objects that fleet-wide and cluster pages answered. */
  private readonly objectJson: ObjectJsonCache;
  /**
   * The JSON of objects that entity views answered, kept apart: the pages of a fleet-wide filter go through far
   * more objects than the cache holds and pushed out the objects of the entity pages, which are open and asked
   * again after every signal. At fleet L, after the benchmark's fleet-wide filters, every entity view built and
   * serialised its 80 objects again, 1.5 of its 7 ms of CPU (profile of 2026-12-05).
   */
  private readonly entityObjectJson: ObjectJsonCache;
  private readonly pageParts = new PageParts();

  constructor(
    private readonly fleet: FleetClusters,
    private readonly tenantRules: TenantRule[],
    /** How many objects' JSON each cache keeps (tests make it small). */
    jsonCacheEntries?: number,
  ) {
    this.textMatches = new TextMatches(fleet);
    this.objectJson = new ObjectJsonCache(jsonCacheEntries);
    this.entityObjectJson = new ObjectJsonCache(jsonCacheEntries);
  }

  /** The names of the configured clusters, in configuration order. */
  clusterNames(): string[] {
    return this.fleet.clusterNames();
  }

  ready(): Promise<void> {
    return this.fleet.ready();
  }

  /** See {@link FleetClusters.firstSyncProgress}. */
  firstSyncProgress(): { done: number; clusters: number } | undefined {
    return this.fleet.firstSyncProgress();
  }

  clusters(only?: ReadonlySet<string>): ClusterHealth[] {
    const entries = this.fleet.all();
    return (only ? entries.filter(entry => only.has(entry.name)) : entries).map(entry =>
      this.fleet.servedHealthOf(entry),
    );
  }

  /** How one cluster's view stands (`syncing` while its first list runs); undefined for a name not configured. */
  clusterStatus(cluster: string): ClusterHealth['status'] | undefined {
    const entry = this.fleet.find(cluster);
    return entry && this.fleet.servedHealthOf(entry).status;
  }

  /** The fleet view of Flux versions (rules §10). */
  versions(): FleetVersionView {
    return fleetVersionView(
      this.fleet.all().map(entry => ({
        cluster: entry.name,
        controllers: [...entry.store.controllers.values()],
        // what the analysis read from the Flux Operator (FluxInstance revision, else FluxReport distribution)
        operatorVersions: new Map(
          entry.view.instances
            .filter(i => i.versionSource === 'flux-operator' && i.version !== undefined)
            .map(i => [i.name, i.version!]),
        ),
        crds: [...entry.store.crds.values()],
      })),
    );
  }

  instances(cluster?: string): InstanceSummary[] {
    return this.entriesFor(cluster).flatMap(entry => entry.view.instances);
  }

  shards(cluster?: string): ShardSummary[] {
    return this.entriesFor(cluster).flatMap(shardsOf);
  }

  tenants(): TenantSummary[] {
    // a tenant's namespaces, shards and counts come from its objects' boundaries and owners, which only an
    // analysis changes: at fleet L the fleet's version moves hundreds of times a second with status changes, and
    // the fleet summary (which counts tenants) computed them again on every request
    const version = this.fleet.analysisVersion();
    if (this.tenantCache?.version === version) return this.tenantCache.value;
    const value = tenantsOf(this.fleet.all(), this.tenantRules);
    this.tenantCache = { version, value };
    return value;
  }

  summary(): FleetSummary {
    return summaryOf(
      this.fleet.all(),
      entry => this.fleet.servedHealthOf(entry),
      this.tenants().length,
      this.fleet.now(),
    );
  }

  /**
   * Objects matching a query (docs/api.md); `readable` leaves out those the caller may not read. Answered by
   * {@link objectPage}: column scans, a bounded heap on numeric places, the page's objects made last.
   */
  objects(query: ObjectQuery, readable?: (o: IndexedObjectFacts) => boolean): Page<FleetObject> {
    const page = objectPage(this.fleet.all(), query, readable, this.textMatches, this.pageParts);
    return {
      items: page.items.map(o => this.toApi(o)),
      totalCount: page.totalCount,
      ...(page.nextCursor && { nextCursor: page.nextCursor }),
    };
  }

  /**
   * The answer of {@link objects} as JSON, each object's part kept between queries while the object does not
   * change ({@link ObjectJsonCache}).
   */
  objectsJson(query: ObjectQuery, readable?: (o: IndexedObjectFacts) => boolean): Buffer {
    const page = objectPage(this.fleet.all(), query, readable, this.textMatches, this.pageParts);
    const cursor = page.nextCursor ? `,"nextCursor":${JSON.stringify(page.nextCursor)}` : '';
    return joinJsonArray(
      '{"items":[',
      page.items.map(o => this.objectJson.jsonOf(this.fleet.find(o.cluster)!, o)),
      `],"totalCount":${page.totalCount}${cursor}}`,
    );
  }

  clusterObjects(cluster: string, kinds?: ReadonlySet<FluxKind>): FleetObject[] {
    const entry = this.fleet.find(cluster);
    if (!entry) return [];
    const staleness = stalenessOf(entry);
    const { view } = entry;
    return [...view.slots()]
      .filter(s => !kinds || kinds.has(view.kindOf(s)))
      .map(s => view.object(s)!)
      .sort(byKey)
      .map(o => toFleetObject(o, entry.store, staleness));
  }

  /**
   * The records of a cluster's Flux objects as the view serves them, for the capacity derivations (rules §12, §13:
   * `capacityOfCluster`, `shardingPlanInputOf`); empty for an unknown cluster.
   */
  clusterRecords(cluster: string): FluxObjectRecord[] {
    const entry = this.fleet.find(cluster);
    if (!entry) return [];
    const { view } = entry;
    return [...view.slots()].map(s => view.object(s)!.record);
  }

  /**
   * The same records, built a few hundred at a time with a turn of the event loop between: building every record
   * of a cluster of 15,000 objects in one go held the backend for most of a second at fleet M (with its garbage).
   * A cluster that changes meanwhile gives some records as they were before the change, some after.
   */
  async clusterRecordsInTurns(cluster: string): Promise<FluxObjectRecord[]> {
    return this.readInTurns(cluster, RECORDS_PER_TURN, (view, slot) => view.object(slot)?.record);
  }

  /**
   * What capacity reads of the same records (rules §4, §9, §12), a few thousand at a time with a turn of the event
   * loop between. Building whole records for every cluster's capacity after each collection round was about 11 s of
   * CPU at fleet L, and their garbage, promoted while a cluster was built in turns, kept the collector busy; these
   * carry seven fields, all shared values.
   */
  clusterCapacityRecordsInTurns(cluster: string): Promise<CapacityRecord[]> {
    return this.readInTurns(cluster, CAPACITY_RECORDS_PER_TURN, (view, slot) =>
      view.isShown(slot) ? view.capacityRecordOf(slot) : undefined,
    );
  }

  /**
   * What `read` gives of each shown object of a cluster, `perTurn` objects between turns of the event loop; a slot
   * whose object went meanwhile gives undefined and is left out. Empty for an unknown cluster.
   */
  private async readInTurns<T>(
    cluster: string,
    perTurn: number,
    read: (view: ClusterEntry['view'], slot: number) => T | undefined,
  ): Promise<T[]> {
    const entry = this.fleet.find(cluster);
    if (!entry) return [];
    const { view } = entry;
    const out: T[] = [];
    let visited = 0;
    for (const slot of [...view.slots()]) {
      const value = read(view, slot);
      if (value !== undefined) out.push(value);
      if (++visited % perTurn === 0) await nextTurn();
    }
    return out;
  }

  object(key: string): FleetObject | undefined {
    const found = this.find(key);
    return found && toFleetObject(found.object, found.entry.store, stalenessOf(found.entry));
  }

  objectDetail(key: string): FleetObjectDetail | undefined {
    const found = this.find(key);
    return (
      found &&
      toFleetObjectDetail(found.object, found.entry.store, found.entry.view, stalenessOf(found.entry))
    );
  }

  findings(filter: { cluster?: string; type?: string[] } = {}): Finding[] {
    const types = filter.type?.length ? new Set<string>(filter.type) : undefined;
    return this.entriesFor(filter.cluster ? [filter.cluster] : undefined).flatMap(({ view }) =>
      types ? view.findings.filter(f => types.has(f.type)) : view.findings,
    );
  }

  entityObjects(link: EntityLink): FleetObject[] {
    return this.entityIndexedObjects(link).map(o => this.toApi(o));
  }

  /**
   * The same objects as {@link entityObjects}, each as its JSON, kept between views while the object does not
   * change ({@link ObjectJsonCache}): building and serialising every object again was almost half of an entity
   * view's CPU at fleet L (81 objects on 100 clusters: about 3.3 of 7.5 ms; measured 2026-12-04).
   */
  entityObjectsJson(
    link: EntityLink,
    limit: number,
    readable?: (o: IndexedObjectFacts) => boolean,
  ): { objects: EntityObjectJson[]; totalCount: number } {
    const found = this.entityIndexedObjects(link);
    const shown = readable ? found.filter(readable) : found;
    return {
      objects: shown.slice(0, limit).map(o => ({
        cluster: o.cluster,
        owner: o.owner,
        json: this.entityObjectJson.jsonOf(this.fleet.find(o.cluster)!, o),
      })),
      totalCount: shown.length,
    };
  }

  /** The objects of an entity (rules §6: by `backstage.io/kubernetes-id`, then by label selector), in key order. */
  private entityIndexedObjects(link: EntityLink): IndexedObject[] {
    const found = new Map<string, IndexedObject>();
    if (link.kubernetesId !== undefined) {
      const service = link.kubernetesId;
      for (const { view } of this.fleet.all()) {
        view.forEachOfService(service, s => {
          const o = view.object(s)!;
          found.set(o.key, o);
        });
      }
    }
    if (link.labelSelector !== undefined && link.labelSelector.trim() !== '') {
      const keys = this.selectors.matches(link.labelSelector, this.fleet.all(), this.fleet.fleetVersion());
      for (const key of keys) {
        if (found.has(key)) continue;
        const o = this.find(key)?.object;
        if (o) found.set(key, o);
      }
    }
    return [...found.values()].sort(byKey);
  }

  malformed(cluster?: string): MalformedObject[] {
    const entries = cluster === undefined ? this.fleet.all() : [this.fleet.entry(cluster)];
    return entries.flatMap(entry => entry.store.malformedObjects.list());
  }

  subscribe(listener: (changes: FleetIndexChange[]) => void): () => void {
    return this.fleet.subscribe(listener);
  }

  /** What an entity link reads of an object, by key; undefined when the object is gone. */
  linkTarget(key: string): EntityLinkTarget | undefined {
    const found = this.find(key);
    if (!found) return undefined;
    const record = found.object.record;
    return {
      labels: record.labels,
      service: found.object.service,
      workloadLabels: inventoryWorkloadLabels(record, found.entry.store.workloads),
    };
  }

  /** Bumped on every change of any cluster: equal versions mean equal answers. */
  fleetVersion(): string {
    return this.fleet.fleetVersion();
  }

  /** The version of one cluster's view (changes whenever its objects or derived answers change). */
  clusterVersion(cluster: string): number {
    return this.fleet.clusterVersion(cluster);
  }

  /**
   * Changes whenever objects of one cluster came or went or it was analysed again (what owners, shards and
   * controllers derive from); not when only an object's status changed. '' for a cluster it does not know.
   */
  structureVersion(cluster: string): string {
    const view = this.fleet.find(cluster)?.view;
    return view ? `${view.membership}.${view.analysis}` : '';
  }

  private entriesFor(clusters?: string | string[]): ClusterEntry[] {
    if (clusters === undefined || clusters.length === 0) return this.fleet.all();
    const names = Array.isArray(clusters) ? clusters : [clusters];
    return names
      .map(name => this.fleet.find(name))
      .filter((e): e is ClusterEntry => e !== undefined);
  }

  private find(key: string): { entry: ClusterEntry; object: IndexedObject } | undefined {
    const slash = key.indexOf('/');
    const entry = slash > 0 ? this.fleet.find(key.slice(0, slash)) : undefined;
    const object = entry?.view.get(key);
    return entry && object ? { entry, object } : undefined;
  }

  private toApi(o: IndexedObject): FleetObject {
    const entry = this.fleet.find(o.cluster)!;
    return toFleetObject(o, entry.store, stalenessOf(entry));
  }
}

function byKey(a: IndexedObject, b: IndexedObject): number {
  if (a.key === b.key) return 0;
  return a.key < b.key ? -1 : 1;
}
