import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import searchPlugin from '@backstage/plugin-search-backend';
import searchModuleCatalogCollator from '@backstage/plugin-search-backend-module-catalog';
import { SearchResultSet } from '@backstage/plugin-search-common';
import { FleetSim, startFleetSim } from '@flux-fleet/fleet-sim';
import {
  FLUX_KIND_GROUP,
  FLUX_KIND_PLURAL,
  FluxKind,
  objectEntityName,
  shardEntityName,
} from '@flux-fleet/plugin-flux-fleet-common';
// The test runs the real Flux Fleet backend, whose index this module reads in the app.
// eslint-disable-next-line @backstage/no-mixed-plugin-imports
import fluxFleetFeature from '@flux-fleet/plugin-flux-fleet-backend';
import request from 'supertest';
import catalogModule from './index';
import searchModuleFluxFleet from './search';
import {
  countsFromTruth,
  shardsServedBy,
  sortKeys,
} from './__testUtils__/fleetExpectations';
import { kubeRequest } from './__testUtils__/kubeRequest';
import { schedulerOf } from './__testUtils__/schedulerOf';

jest.setTimeout(180_000);

/** The kinds the provider emits in this test, as the app configures it: reconcilers and their sources. */
const KINDS: FluxKind[] = [
  'Kustomization',
  'HelmRelease',
  'GitRepository',
  'OCIRepository',
  'HelmRepository',
];
const PROVIDER_TASK = 'FluxFleetEntityProvider:default:refresh';

const resourceRef = (name: string) =>
  stringifyEntityRef({ kind: 'Resource', namespace: 'default', name });
const objectRef = (o: { cluster: string; namespace: string; kind: string; name: string }) =>
  resourceRef(objectEntityName({ ...o, kind: o.kind as FluxKind }));

describe('the catalog module with the Flux Fleet backend and the simulated fleet S', () => {
  let sim: FleetSim;
  let backend: Awaited<ReturnType<typeof startTestBackend>>;
  const catalogTasks = schedulerOf('catalog');
  const searchTasks = schedulerOf('search');

  async function get(path: string): Promise<any> {
    const res = await request(backend.server)
      .get(path)
      .set('Authorization', mockCredentials.user.header());
    if (res.status >= 300) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      try {
        const value = await check();
        if (value !== undefined) return value;
      } catch (error) {
        last = error;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
      await new Promise(resolve => setTimeout(resolve, 200));
    }
  }

  /** Every entity the provider emitted, as the catalog serves them. */
  async function fleetEntities(): Promise<Entity[]> {
    const entities: Entity[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(
        cursor
          ? `/api/catalog/entities/by-query?cursor=${encodeURIComponent(cursor)}&limit=1000`
          : '/api/catalog/entities/by-query?filter=metadata.annotations.flux-fleet.io/provider=default&limit=1000',
      );
      entities.push(...page.items);
      cursor = page.pageInfo?.nextCursor;
    } while (cursor);
    return entities;
  }

  async function countsByType(): Promise<Record<string, number>> {
    const body = await get(
      '/api/catalog/entity-facets?facet=spec.type&filter=kind=resource,metadata.annotations.flux-fleet.io/provider=default',
    );
    return Object.fromEntries(
      (body.facets['spec.type'] as Array<{ value: string; count: number }>).map(f => [f.value, f.count]),
    );
  }

  async function clusterHealth(name: string) {
    const { items } = await get('/api/flux-fleet/clusters');
    return items.find((c: any) => c.name === name);
  }

  beforeAll(async () => {
    sim = await startFleetSim({ size: 'S', seed: 1, port: 0 });
    backend = await startTestBackend({
      features: [
        catalogPlugin,
        fluxFleetFeature,
        catalogModule,
        searchPlugin,
        searchModuleCatalogCollator,
        searchModuleFluxFleet,
        catalogTasks.module,
        searchTasks.module,
        mockServices.rootConfig.factory({
          data: {
            fluxFleet: {
              clusters: sim.clusters.map(c => ({
                name: c.name,
                url: c.server,
                serviceAccountToken: c.readOnlyToken,
              })),
              watch: {
                unreachableAfterSeconds: 1,
                requestTimeoutSeconds: 2,
                backoff: { initialSeconds: 0.1, maxSeconds: 1 },
              },
              persistence: { enabled: false },
              // the memory-reducing collection once synced is for the product's own process, not jest's
              heapGrowingPercentOnceSynced: 0,
            },
            catalog: {
              // Entities are processed as soon as they arrive; no need to reprocess them in the test.
              processingInterval: { minutes: 10 },
              providers: {
                fluxFleet: {
                  kinds: KINDS,
                  debounce: { milliseconds: 200 },
                  createMissingComponents: true,
                },
              },
            },
          },
        }),
      ],
    });
    const expected = countsFromTruth(sim.truth(), await shardsServedBy(sim.clusters), KINDS);
    let counts: Record<string, number> = {};
    try {
      await waitFor(
        'the entity counts the truth implies',
        async () => {
          counts = await countsByType();
          return JSON.stringify(sortKeys(counts)) === JSON.stringify(sortKeys(expected)) ? counts : undefined;
        },
        150_000,
      );
    } catch (error) {
      throw new Error(`${error}; the catalog has ${JSON.stringify(sortKeys(counts))}, the truth implies ${JSON.stringify(sortKeys(expected))}`);
    }
  });

  afterAll(async () => {
    await backend?.stop();
    await sim?.close();
  });

  it('has as many entities of each type as the ground truth implies', async () => {
    expect(await countsByType()).toEqual(countsFromTruth(sim.truth(), await shardsServedBy(sim.clusters), KINDS));
  });

  it('relates the objects of a service to its source, its dependencies and its Component, and labels its shard', async () => {
    const truth = sim.truth();
    const service = 'checkout';
    const exists = new Set(truth.objects.map(o => objectRef(o)));
    const reconcilers = truth.objects.filter(
      o => o.service === service && (o.kind === 'Kustomization' || o.kind === 'HelmRelease'),
    );
    expect(reconcilers.length).toBeGreaterThan(1);

    for (const o of reconcilers) {
      // What it depends on, read from the object as the cluster serves it, and where the truth placed it.
      const cluster = sim.clusters.find(c => c.name === o.cluster)!;
      const group = FLUX_KIND_GROUP[o.kind as FluxKind];
      const version = (await clusterHealth(o.cluster)).servedVersions[group];
      const raw = await kubeRequest({
        server: cluster.server,
        token: cluster.adminToken,
        method: 'GET',
        path: `/apis/${group}/${version}/namespaces/${o.namespace}/${FLUX_KIND_PLURAL[o.kind as FluxKind]}/${o.name}`,
      });
      expect(raw.status).toBe(200);
      const spec = raw.body.spec;
      const source = spec.sourceRef ?? spec.chart?.spec?.sourceRef ?? spec.chartRef;
      // The shard is a label, not a relation (README, Benchmark: the shards' stitching took the catalog's time).
      const expectedDependsOn = new Set<string>();
      const sourceEntity =
        source &&
        objectRef({ cluster: o.cluster, namespace: source.namespace ?? o.namespace, kind: source.kind, name: source.name });
      if (sourceEntity && KINDS.includes(source.kind) && exists.has(sourceEntity)) {
        expectedDependsOn.add(sourceEntity);
      }
      for (const d of spec.dependsOn ?? []) {
        const target = objectRef({ cluster: o.cluster, namespace: d.namespace ?? o.namespace, kind: o.kind, name: d.name });
        if (exists.has(target)) expectedDependsOn.add(target);
      }

      const entity: Entity = await get(`/api/catalog/entities/by-name/resource/default/${objectEntityName({ ...o, kind: o.kind as FluxKind })}`);
      const relations = (type: string) =>
        (entity.relations ?? []).filter(r => r.type === type).map(r => r.targetRef).sort();
      expect(relations('dependsOn')).toEqual([...expectedDependsOn].sort());
      // dependencyOf also holds the reverse of other objects' dependsOn: only the Component is this object's own.
      expect(relations('dependencyOf').filter(r => r.startsWith('component:'))).toEqual([
        `component:default/${service}`,
      ]);
      expect(entity.metadata.labels).toMatchObject({
        'flux-fleet.io/cluster': o.cluster,
        'flux-fleet.io/instance': o.instance,
        'flux-fleet.io/shard': o.shard,
        'flux-fleet.io/namespace': o.namespace,
        'flux-fleet.io/kind': o.kind,
        ...(o.tenant ? { 'flux-fleet.io/tenant': o.tenant } : {}),
      });
    }

    // The catalog has no checkout Component of its own: the generated one depends on every emitted object of the
    // service (its reconcilers, and its sources when they carry the service's label too).
    const ofService = truth.objects
      .filter(o => o.service === service && KINDS.includes(o.kind as FluxKind))
      .map(o => objectRef(o))
      .sort();
    let dependsOn: string[] = [];
    await waitFor(`the checkout Component depending on ${ofService.length} objects`, async () => {
      const c: Entity = await get(`/api/catalog/entities/by-name/component/default/${service}`);
      dependsOn = (c.relations ?? []).filter(r => r.type === 'dependsOn').map(r => r.targetRef).sort();
      return dependsOn.length === ofService.length ? c : undefined;
    }, 30_000).catch(error => {
      throw new Error(`${error}; it depends on ${JSON.stringify(dependsOn)}`);
    });
    expect(dependsOn).toEqual(ofService);
  });

  it("finds a shard's entity by the shard's name and a service's Kustomizations by the service's name", async () => {
    await searchTasks.trigger('search_index_software_catalog');
    const search = async (term: string): Promise<SearchResultSet> =>
      get(`/api/search/query?term=${encodeURIComponent(term)}`);
    const locations = (r: SearchResultSet) => r.results.map(x => x.document.location);

    // shard4 exists on one cluster only.
    const truth = sim.truth();
    const shard4 = truth.objects.find(o => o.shard === 'shard4')!;
    const shardResults = await search('shard4');
    expect(locations(shardResults)[0]).toBe(
      `/catalog/default/resource/${shardEntityName(shard4.cluster, shard4.instance!, 'shard4')}`.toLowerCase(),
    );

    const checkoutResults = await search('checkout');
    const kustomizations = truth.objects.filter(o => o.service === 'checkout' && o.kind === 'Kustomization');
    expect(locations(checkoutResults)).toEqual(
      expect.arrayContaining(
        kustomizations.map(o => `/catalog/default/resource/${objectEntityName({ ...o, kind: 'Kustomization' })}`.toLowerCase()),
      ),
    );
  });

  it("keeps a down cluster's entities for two provider cycles, then changes only that cluster's entities", async () => {
    const down = sim.clusters[2];
    const before = await fleetEntities();
    const cluster = (e: Entity) => e.metadata.annotations?.['flux-fleet.io/cluster'];

    // Objects to change once it is back: one to delete, one to move to another shard; and one to create.
    const objects: any[] = (
      await get(`/api/flux-fleet/objects?cluster=${down.name}&kind=Kustomization&limit=1000`)
    ).items;
    const dependedOn = new Set(objects.flatMap(o => o.dependsOn.map((d: any) => `${d.namespace}/${d.name}`)));
    const candidates = objects.filter(
      o => o.owner.status === 'ok' && o.owner.shard !== 'main' && !dependedOn.has(`${o.ref.namespace}/${o.ref.name}`),
    );
    const [removed, moved] = candidates;
    const newShard = moved.owner.shard === 'shard1' ? 'shard2' : 'shard1';
    const version = (await clusterHealth(down.name)).servedVersions['kustomize.toolkit.fluxcd.io'];
    const base = `/apis/kustomize.toolkit.fluxcd.io/${version}/namespaces`;

    await sim.setFault(down.name, { down: true });
    await waitFor(`${down.name} unreachable`, async () =>
      (await clusterHealth(down.name)).status === 'unreachable' ? true : undefined,
    );
    for (let cycle = 0; cycle < 2; cycle++) {
      await catalogTasks.trigger(PROVIDER_TASK);
      await new Promise(resolve => setTimeout(resolve, 1_000));
    }
    const during = await fleetEntities();
    const uidsDuring = new Set(during.map(e => e.metadata.uid));
    expect(before.filter(e => !uidsDuring.has(e.metadata.uid)).map(e => e.metadata.name)).toEqual([]);

    // Back, with a changed structure.
    await sim.setFault(down.name, { down: false });
    const call = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
      kubeRequest({ server: down.server, token: down.adminToken, method, path, body });
    expect((await call('DELETE', `${base}/${removed.ref.namespace}/kustomizations/${removed.ref.name}`)).status).toBeLessThan(300);
    await call('PATCH', `${base}/${removed.ref.namespace}/kustomizations/${removed.ref.name}`, {
      metadata: { finalizers: null },
    });
    expect(
      (
        await call('PATCH', `${base}/${moved.ref.namespace}/kustomizations/${moved.ref.name}`, {
          metadata: { labels: { 'sharding.fluxcd.io/key': newShard } },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('POST', `${base}/${moved.ref.namespace}/kustomizations`, {
          apiVersion: `kustomize.toolkit.fluxcd.io/${version}`,
          kind: 'Kustomization',
          metadata: {
            name: 'catalog-test-added',
            namespace: moved.ref.namespace,
            labels: { 'sharding.fluxcd.io/key': newShard },
          },
          spec: { interval: '10m', path: './added', prune: true, sourceRef: moved.sourceRef },
        })
      ).status,
    ).toBe(201);

    const removedName = objectEntityName(removed.ref);
    const movedName = objectEntityName(moved.ref);
    const addedName = objectEntityName({ ...moved.ref, name: 'catalog-test-added' });
    const after = await waitFor(
      'the changed structure in the catalog',
      async () => {
        const entities = await fleetEntities();
        const byName = new Map(entities.map(e => [e.metadata.name, e]));
        return !byName.has(removedName) &&
          byName.get(movedName)?.metadata.labels?.['flux-fleet.io/shard'] === newShard &&
          byName.has(addedName)
          ? entities
          : undefined;
      },
    );

    const beforeByUid = new Map(before.map(e => [e.metadata.uid, e]));
    const afterNames = new Set(after.map(e => e.metadata.name));
    // Deleted: only the removed object's entity.
    expect(
      before.filter(e => e.kind === 'Resource' && !afterNames.has(e.metadata.name)).map(e => e.metadata.name),
    ).toEqual([removedName]);
    // Created: only the new object's entity; every other Resource is the same entity as before.
    expect(
      after.filter(e => e.kind === 'Resource' && !beforeByUid.has(e.metadata.uid!)).map(e => e.metadata.name),
    ).toEqual([addedName]);
    // The other clusters' entities did not change at all.
    for (const entity of after.filter(e => e.kind === 'Resource' && cluster(e) !== down.name)) {
      expect(entity.metadata.etag).toBe(beforeByUid.get(entity.metadata.uid!)!.metadata.etag);
    }
  });
});
