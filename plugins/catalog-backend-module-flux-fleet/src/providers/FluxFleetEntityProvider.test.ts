import { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { InMemoryFleetIndex } from '../__testUtils__/InMemoryFleetIndex';
import {
  fleetObject,
  prodEu1,
  prodUs1,
} from '../__testUtils__/fleetFixtures';
import { startProvider } from '../__testUtils__/providerHarness';

const EU = 'resource:default/prod-eu-1';
const PROD_EU_1_REFS = [
  EU,
  `${EU}.apps.helmrelease.checkout`,
  `${EU}.apps.kustomization.legacy-batch`,
  `${EU}.apps.kustomization.payments-api`,
  `${EU}.flux-system`,
  `${EU}.flux-system.kustomization.infra-controllers`,
  `${EU}.flux-system.main`,
  `${EU}.flux-system.shard1`,
  `${EU}.flux-system.shard2`,
];
const US = 'resource:default/prod-us-1';
const PROD_US_1_REFS = [
  US,
  `${US}.apps.kustomization.payments-api`,
  `${US}.flux-system`,
  `${US}.flux-system.main`,
];

function fleet(): InMemoryFleetIndex {
  const index = new InMemoryFleetIndex();
  index.setCluster('prod-eu-1', prodEu1());
  index.setCluster('prod-us-1', prodUs1());
  return index;
}

function entityNamed(entities: Entity[], name: string): Entity {
  const found = entities.filter(e => e.metadata.name === name);
  if (found.length === 0) throw new Error(`no entity ${name} was emitted`);
  return found[found.length - 1];
}

describe('FluxFleetEntityProvider', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('emits each cluster as its own delta mutation, keyed by the cluster', async () => {
    const { runScheduledRefresh, summaries, provider } = await startProvider({
      index: fleet(),
    });
    await runScheduledRefresh();

    expect(summaries()).toEqual([
      { locationKeys: ['flux-fleet:prod-eu-1'], added: PROD_EU_1_REFS, removed: [] },
      { locationKeys: ['flux-fleet:prod-us-1'], added: PROD_US_1_REFS, removed: [] },
    ]);
    provider.dispose();
  });

  it('describes a Kustomization with its cluster, instance, shard, tenant, namespace, service and relations', async () => {
    const { runScheduledRefresh, addedEntities, provider } = await startProvider({
      index: fleet(),
    });
    await runScheduledRefresh();

    expect(
      entityNamed(addedEntities(), 'prod-eu-1.apps.kustomization.payments-api'),
    ).toEqual({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name: 'prod-eu-1.apps.kustomization.payments-api',
        title: 'payments-api (Kustomization in apps, prod-eu-1)',
        description:
          'Flux Kustomization payments-api in namespace apps on cluster prod-eu-1. Reconciled by instance ' +
          'flux-system, shard shard2. Tenant payments. Service payments-api. Source GitRepository payments in ' +
          'namespace apps. Depends on infra-controllers in namespace flux-system.',
        labels: {
          'flux-fleet.io/cluster': 'prod-eu-1',
          'flux-fleet.io/instance': 'flux-system',
          'flux-fleet.io/shard': 'shard2',
          'flux-fleet.io/tenant': 'payments',
          'flux-fleet.io/namespace': 'apps',
          'flux-fleet.io/kind': 'Kustomization',
        },
        annotations: {
          'backstage.io/managed-by-location': 'flux-fleet:prod-eu-1',
          'backstage.io/managed-by-origin-location': 'flux-fleet:prod-eu-1',
          'flux-fleet.io/provider': 'default',
          'flux-fleet.io/cluster': 'prod-eu-1',
          'flux-fleet.io/instance': 'flux-system',
          'flux-fleet.io/shard': 'shard2',
          'flux-fleet.io/tenant': 'payments',
          'flux-fleet.io/namespace': 'apps',
          'flux-fleet.io/kind': 'Kustomization',
          'flux-fleet.io/object-key': 'prod-eu-1/apps/Kustomization/payments-api',
          'backstage.io/kubernetes-id': 'payments-api',
        },
        tags: ['flux', 'kustomization'],
      },
      spec: {
        type: 'flux-kustomization',
        owner: 'group:default/platform',
        // Its dependsOn target; its GitRepository is not emitted with the default kinds, and its shard is a label
        // (no relation: README, Benchmark).
        dependsOn: [`${EU}.flux-system.kustomization.infra-controllers`],
        dependencyOf: ['component:default/payments-api'],
      },
    });
    provider.dispose();
  });

  it('relates shards to their instance and instances to their cluster, owned by the default owner', async () => {
    const { runScheduledRefresh, addedEntities, provider } = await startProvider({
      index: fleet(),
      config: { defaultOwner: 'flux-admins' },
    });
    await runScheduledRefresh();
    const entities = addedEntities();

    expect(entityNamed(entities, 'prod-eu-1.flux-system.shard2')).toEqual({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name: 'prod-eu-1.flux-system.shard2',
        title: 'shard2 of flux-system on prod-eu-1',
        description:
          'Flux shard shard2 of instance flux-system on cluster prod-eu-1. Watch selector ' +
          'sharding.fluxcd.io/key=shard2. Controllers helm-controller-shard2, kustomize-controller-shard2 and ' +
          'source-controller-shard2.',
        labels: {
          'flux-fleet.io/cluster': 'prod-eu-1',
          'flux-fleet.io/instance': 'flux-system',
          'flux-fleet.io/shard': 'shard2',
        },
        annotations: {
          'backstage.io/managed-by-location': 'flux-fleet:prod-eu-1',
          'backstage.io/managed-by-origin-location': 'flux-fleet:prod-eu-1',
          'flux-fleet.io/provider': 'default',
          'flux-fleet.io/cluster': 'prod-eu-1',
          'flux-fleet.io/instance': 'flux-system',
          'flux-fleet.io/shard': 'shard2',
        },
        tags: ['flux', 'flux-shard'],
      },
      spec: {
        type: 'flux-shard',
        owner: 'group:default/flux-admins',
        dependsOn: [`${EU}.flux-system`],
      },
    });
    expect(entityNamed(entities, 'prod-eu-1.flux-system').spec).toEqual({
      type: 'flux-instance',
      owner: 'group:default/flux-admins',
      dependsOn: [EU],
    });
    expect(entityNamed(entities, 'prod-eu-1').spec).toEqual({
      type: 'kubernetes-cluster',
      owner: 'group:default/flux-admins',
    });
    provider.dispose();
  });

  it('says in the description when no controller watches an object, and relates it to no shard', async () => {
    const { runScheduledRefresh, addedEntities, provider } = await startProvider({
      index: fleet(),
    });
    await runScheduledRefresh();
    const orphan = entityNamed(addedEntities(), 'prod-eu-1.apps.kustomization.legacy-batch');

    expect(orphan.metadata.description).toBe(
      'Flux Kustomization legacy-batch in namespace apps on cluster prod-eu-1. No controller watches it (orphan). Tenant payments.',
    );
    expect(orphan.metadata.labels).not.toHaveProperty('flux-fleet.io/shard');
    expect(orphan.spec).not.toHaveProperty('dependsOn');
    provider.dispose();
  });

  it('emits nothing when only live state changes', async () => {
    jest.useFakeTimers();
    const index = fleet();
    const { runScheduledRefresh, mutations, provider } = await startProvider({ index });
    await runScheduledRefresh();
    const before = mutations().length;

    const eu = prodEu1();
    const paymentsApi = eu.objects.find(o => o.ref.name === 'payments-api')!;
    paymentsApi.state = {
      state: 'failed',
      reason: 'BuildFailed',
      message: 'kustomize build failed: accumulating resources',
      revision: 'main@sha1:0000000000000000000000000000000000000000',
    };
    paymentsApi.updatedAt = '2025-11-30T18:00:00Z';
    index.setCluster('prod-eu-1', eu);
    index.announce([{ cluster: 'prod-eu-1', keys: [paymentsApi.key], structural: false }]);
    await jest.advanceTimersByTimeAsync(10_000);
    // Even when the index calls a change structural, identical entities are not sent again.
    index.announce([{ cluster: 'prod-eu-1', keys: [paymentsApi.key], structural: true }]);
    await jest.advanceTimersByTimeAsync(10_000);

    expect(mutations()).toHaveLength(before);
    provider.dispose();
  });

  it("emits only the changed entities of the changed cluster, never touching another cluster's", async () => {
    jest.useFakeTimers();
    const index = fleet();
    const { runScheduledRefresh, summaries, addedEntities, provider } =
      await startProvider({ index });
    await runScheduledRefresh();

    const eu = prodEu1();
    eu.objects = eu.objects.filter(o => o.ref.name !== 'legacy-batch');
    const paymentsApi = eu.objects.find(o => o.ref.name === 'payments-api')!;
    paymentsApi.owner = { ...paymentsApi.owner, shard: 'shard1' };
    index.setCluster('prod-eu-1', eu);
    index.announce([
      {
        cluster: 'prod-eu-1',
        keys: ['prod-eu-1/apps/Kustomization/legacy-batch', paymentsApi.key],
        structural: true,
      },
    ]);
    await jest.advanceTimersByTimeAsync(2_000);

    expect(summaries().slice(2)).toEqual([
      {
        locationKeys: ['flux-fleet:prod-eu-1'],
        added: [`${EU}.apps.kustomization.payments-api`],
        removed: [`${EU}.apps.kustomization.legacy-batch`],
      },
    ]);
    expect(
      entityNamed(addedEntities(), 'prod-eu-1.apps.kustomization.payments-api').metadata.labels?.[
        'flux-fleet.io/shard'
      ],
    ).toBe('shard1');
    provider.dispose();
  });

  it('collects a burst of structural changes into one mutation per cluster', async () => {
    jest.useFakeTimers();
    const index = fleet();
    const { runScheduledRefresh, summaries, provider } = await startProvider({
      index,
      config: { debounce: { seconds: 1 } },
    });
    await runScheduledRefresh();

    for (const name of ['a', 'b', 'c']) {
      const us = index.clusterObjects('prod-us-1');
      const added = fleetObject({
        cluster: 'prod-us-1',
        namespace: 'apps',
        kind: 'Kustomization',
        name,
        owner: 'flux-system/main',
      });
      index.setCluster('prod-us-1', { ...prodUs1(), objects: [...us, added] });
      index.announce([{ cluster: 'prod-us-1', keys: [added.key], structural: true }]);
      await jest.advanceTimersByTimeAsync(500);
    }
    expect(summaries()).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1_000);

    expect(summaries().slice(2)).toEqual([
      {
        locationKeys: ['flux-fleet:prod-us-1'],
        added: [
          `${US}.apps.kustomization.a`,
          `${US}.apps.kustomization.b`,
          `${US}.apps.kustomization.c`,
        ],
        removed: [],
      },
    ]);
    provider.dispose();
  });

  it('emits a steady stream of changes at least every five debounce periods', async () => {
    jest.useFakeTimers();
    const index = fleet();
    const { runScheduledRefresh, summaries, provider } = await startProvider({
      index,
      config: { debounce: { seconds: 1 } },
    });
    await runScheduledRefresh();

    // A change every 0.9 s, from 0 s to 6.3 s: the debounce of 1 s alone would never fire.
    for (let i = 0; i < 8; i++) {
      const us = index.clusterObjects('prod-us-1');
      const added = fleetObject({
        cluster: 'prod-us-1',
        namespace: 'apps',
        kind: 'Kustomization',
        name: `app-${i}`,
        owner: 'flux-system/main',
      });
      index.setCluster('prod-us-1', { ...prodUs1(), objects: [...us, added] });
      index.announce([{ cluster: 'prod-us-1', keys: [added.key], structural: true }]);
      await jest.advanceTimersByTimeAsync(900);
    }

    // At 5 s, what the index holds then: the six objects added from 0 s to 4.5 s.
    expect(summaries().slice(2).map(s => s.added.length)).toEqual([6]);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(summaries().slice(2).map(s => s.added.length)).toEqual([6, 2]);
    provider.dispose();
  });

  it('emits a cluster as soon as it has synced, even when the index announces no change then', async () => {
    jest.useFakeTimers();
    const index = fleet();
    index.setStatus('prod-eu-1', 'syncing');
    const { runScheduledRefresh, summaries, provider } = await startProvider({ index });
    await runScheduledRefresh();
    expect(summaries().map(s => s.locationKeys)).toEqual([['flux-fleet:prod-us-1']]);

    index.setStatus('prod-eu-1', 'synced');
    await jest.advanceTimersByTimeAsync(7_000);

    expect(summaries().slice(1)).toEqual([
      { locationKeys: ['flux-fleet:prod-eu-1'], added: PROD_EU_1_REFS, removed: [] },
    ]);
    provider.dispose();
  });

  it('keeps the entities of an unreachable cluster, however many refreshes pass', async () => {
    const index = fleet();
    const { runScheduledRefresh, summaries, provider } = await startProvider({ index });
    await runScheduledRefresh();

    // Worst case: the index has nothing for the cluster while it is down.
    index.setCluster('prod-eu-1', {
      ...prodEu1(),
      status: 'unreachable',
      unreachableSince: '2025-11-30T18:00:00Z',
      objects: [],
      instances: [],
      shards: [],
    });
    await runScheduledRefresh();
    await runScheduledRefresh();

    const later = summaries().slice(2);
    expect(later.filter(s => s.locationKeys.includes('flux-fleet:prod-eu-1'))).toEqual([]);
    expect(later.flatMap(s => s.removed)).toEqual([]);
    provider.dispose();
  });

  it('keeps the entities of a cluster whose credentials are refused, and of one still syncing', async () => {
    const index = fleet();
    const { runScheduledRefresh, summaries, provider } = await startProvider({ index });
    await runScheduledRefresh();

    index.setCluster('prod-eu-1', { ...prodEu1(), status: 'unauthorized', objects: [] });
    index.setCluster('prod-us-1', { ...prodUs1(), status: 'syncing', objects: [] });
    await runScheduledRefresh();

    expect(summaries().slice(2).flatMap(s => s.removed)).toEqual([]);
    provider.dispose();
  });

  it('removes an unreachable cluster once it has been down longer than removeAfterOutage', async () => {
    let now = Date.parse('2025-11-30T18:05:00Z');
    const index = fleet();
    const { runScheduledRefresh, summaries, provider } = await startProvider({
      index,
      config: { removeAfterOutage: { minutes: 10 } },
      now: () => now,
    });
    await runScheduledRefresh();
    index.setStatus('prod-eu-1', 'unreachable', '2025-11-30T18:00:00Z');

    await runScheduledRefresh();
    expect(summaries().slice(2).flatMap(s => s.removed)).toEqual([]);

    now = Date.parse('2025-11-30T18:10:01Z');
    await runScheduledRefresh();
    expect(summaries().slice(2)).toEqual([
      { locationKeys: ['flux-fleet:prod-eu-1'], added: [], removed: PROD_EU_1_REFS },
    ]);
    provider.dispose();
  });

  it('counts the outage from when it first saw the cluster down when the index does not say', async () => {
    let now = Date.parse('2025-11-30T18:00:00Z');
    const index = fleet();
    const { runScheduledRefresh, summaries, provider } = await startProvider({
      index,
      config: { removeAfterOutage: 'PT10M' },
      now: () => now,
    });
    await runScheduledRefresh();
    index.setStatus('prod-us-1', 'unauthorized');
    await runScheduledRefresh();
    now += 9 * 60_000;
    await runScheduledRefresh();
    expect(summaries().slice(2)).toEqual([]);

    now += 2 * 60_000;
    await runScheduledRefresh();
    expect(summaries().slice(2)).toEqual([
      { locationKeys: ['flux-fleet:prod-us-1'], added: [], removed: PROD_US_1_REFS },
    ]);
    provider.dispose();
  });

  it('adds but never removes while the index serves a restored snapshot', async () => {
    const index = fleet();
    const { runScheduledRefresh, summaries, provider } = await startProvider({ index });
    await runScheduledRefresh();

    const us = prodUs1();
    us.status = 'restored';
    us.objects = [
      fleetObject({
        cluster: 'prod-us-1',
        namespace: 'apps',
        kind: 'HelmRelease',
        name: 'search',
        owner: 'flux-system/main',
      }),
    ];
    index.setCluster('prod-us-1', us);
    await runScheduledRefresh();

    const usMutations = summaries()
      .slice(2)
      .filter(s => s.locationKeys.includes('flux-fleet:prod-us-1'));
    expect(usMutations).toHaveLength(1);
    expect(usMutations[0].added).toContain(`${US}.apps.helmrelease.search`);
    expect(usMutations[0].removed).toEqual([]);
    provider.dispose();
  });

  it('after a restart, removes only the entities of objects that disappeared meanwhile', async () => {
    // A first run fills the catalog.
    const first = await startProvider({ index: fleet() });
    await first.runScheduledRefresh();
    const held = first.addedEntities();
    first.provider.dispose();

    // While the backend was down, legacy-batch was deleted from prod-eu-1.
    const index = fleet();
    const eu = prodEu1();
    eu.objects = eu.objects.filter(o => o.ref.name !== 'legacy-batch');
    index.setCluster('prod-eu-1', eu);
    const second = await startProvider({ index, catalogEntities: held });
    await second.runScheduledRefresh();

    expect(second.summaries()).toEqual([
      {
        locationKeys: ['flux-fleet:prod-eu-1'],
        added: PROD_EU_1_REFS.filter(r => !r.endsWith('legacy-batch')),
        removed: [`${EU}.apps.kustomization.legacy-batch`],
      },
      { locationKeys: ['flux-fleet:prod-us-1'], added: PROD_US_1_REFS, removed: [] },
    ]);
    // What it sends again is identical to what the catalog has, so the catalog processes none of it again.
    const resent = second.addedEntities();
    for (const entity of resent) {
      expect(held).toContainEqual(entity);
    }
    second.provider.dispose();
  });

  it('sends again, in a refresh, only what the catalog still lacks a whole refresh after it was emitted', async () => {
    let now = Date.parse('2025-11-30T18:00:00Z');
    // A catalog that has processed nothing yet (a big fleet) and then loses an entity: reading back finds none.
    const catalog = catalogServiceMock({ entities: [] });
    const { runScheduledRefresh, summaries, provider } = await startProvider({
      index: fleet(),
      catalog,
      now: () => now,
    });
    await runScheduledRefresh();
    expect(summaries().map(s => s.added.length)).toEqual([9, 4]);

    // Right after: everything was emitted since this refresh's predecessor began, so it may still be queued.
    now += 1_000;
    await runScheduledRefresh();
    expect(summaries()).toHaveLength(2);

    // A refresh later, what the catalog still does not hold was emitted before the previous refresh: sent again.
    now += 30 * 60_000;
    await runScheduledRefresh();
    expect(summaries().slice(2)).toEqual([
      { locationKeys: ['flux-fleet:prod-eu-1'], added: PROD_EU_1_REFS, removed: [] },
      { locationKeys: ['flux-fleet:prod-us-1'], added: PROD_US_1_REFS, removed: [] },
    ]);
    provider.dispose();
  });

  it('removes the entities of a cluster that left the fleet, once the index is ready', async () => {
    const first = await startProvider({ index: fleet() });
    await first.runScheduledRefresh();
    const held = first.addedEntities();
    first.provider.dispose();

    const index = new InMemoryFleetIndex();
    index.setCluster('prod-us-1', prodUs1());
    const second = await startProvider({ index, catalogEntities: held });
    await second.runScheduledRefresh();
    expect(second.summaries().flatMap(s => s.removed)).toEqual([]);

    index.markReady();
    await new Promise(resolve => setImmediate(resolve));
    await second.runScheduledRefresh();
    expect(
      second.summaries().filter(s => s.locationKeys.includes('flux-fleet:prod-eu-1')),
    ).toEqual([
      { locationKeys: ['flux-fleet:prod-eu-1'], added: [], removed: PROD_EU_1_REFS },
    ]);
    second.provider.dispose();
  });

  it('removes nothing it cannot see when the catalog cannot be read back, and retries soon', async () => {
    jest.useFakeTimers();
    const first = await startProvider({ index: fleet() });
    await first.runScheduledRefresh();
    const held = first.addedEntities();
    first.provider.dispose();

    const index = fleet();
    const eu = prodEu1();
    eu.objects = eu.objects.filter(o => o.ref.name !== 'legacy-batch');
    index.setCluster('prod-eu-1', eu);
    const catalog = catalogServiceMock({ entities: held });
    const queryEntities = catalog.queryEntities.bind(catalog);
    let catalogUp = false;
    jest.spyOn(catalog, 'queryEntities').mockImplementation(async (...args) => {
      if (!catalogUp) throw new Error('connect ECONNREFUSED 127.0.0.1:7007');
      return queryEntities(...args);
    });
    const second = await startProvider({ index, catalog });
    await second.runScheduledRefresh();

    expect(second.summaries().flatMap(s => s.removed)).toEqual([]);
    expect(second.logger.warn).toHaveBeenCalledWith(
      expect.stringContaining('connect ECONNREFUSED 127.0.0.1:7007'),
    );

    catalogUp = true;
    await jest.advanceTimersByTimeAsync(5_000);
    expect(second.summaries().flatMap(s => s.removed)).toEqual([
      `${EU}.apps.kustomization.legacy-batch`,
    ]);
    second.provider.dispose();
  });

  it("gives a tenant's objects the configured owner, else the backend's tenant group, else the pattern, else the default", async () => {
    const index = fleet();
    const eu = prodEu1();
    eu.objects.push(
      fleetObject({
        cluster: 'prod-eu-1',
        namespace: 'search',
        kind: 'Kustomization',
        name: 'search',
        owner: 'flux-system/main',
        tenant: 'search',
      }),
    );
    index.setCluster('prod-eu-1', eu);
    index.setTenants([
      {
        name: 'shop',
        group: 'group:default/shop-team',
        namespaces: [],
        shards: [],
        objectCount: 1,
        countsByEnforcement: {},
        weakestEnforcement: 'none',
      },
    ]);
    const { runScheduledRefresh, addedEntities, provider } = await startProvider({
      index,
      config: {
        defaultOwner: 'group:default/platform',
        tenantOwners: { payments: 'payments-team' },
        tenantOwnerPattern: 'group:default/team-{tenant}',
      },
    });
    await runScheduledRefresh();
    const ownerOf = (name: string) => entityNamed(addedEntities(), name).spec?.owner;

    expect(ownerOf('prod-eu-1.apps.kustomization.payments-api')).toBe('group:default/payments-team');
    expect(ownerOf('prod-eu-1.apps.helmrelease.checkout')).toBe('group:default/shop-team');
    expect(ownerOf('prod-eu-1.search.kustomization.search')).toBe('group:default/team-search');
    expect(ownerOf('prod-eu-1.flux-system.kustomization.infra-controllers')).toBe(
      'group:default/platform',
    );
    provider.dispose();
  });

  it('emits sources when configured, and reconcilers depend on their source', async () => {
    const { runScheduledRefresh, addedEntities, summaries, provider } =
      await startProvider({
        index: fleet(),
        config: { kinds: ['Kustomization', 'HelmRelease', 'GitRepository'] },
      });
    await runScheduledRefresh();

    expect(summaries()[0].added).toEqual(
      expect.arrayContaining([
        `${EU}.apps.gitrepository.payments`,
        `${EU}.flux-system.gitrepository.flux-system`,
      ]),
    );
    expect(summaries()[0].added).not.toContain(`${EU}.apps.helmrepository.bitnami`);
    expect(
      entityNamed(addedEntities(), 'prod-eu-1.apps.kustomization.payments-api').spec?.dependsOn,
    ).toEqual([
      `${EU}.apps.gitrepository.payments`,
      `${EU}.flux-system.kustomization.infra-controllers`,
    ]);
    const source = entityNamed(addedEntities(), 'prod-eu-1.apps.gitrepository.payments');
    expect(source.spec).toEqual({
      type: 'flux-gitrepository',
      owner: 'group:default/platform',
    });
    provider.dispose();
  });

  it("relates a service's objects to the Component carrying its kubernetes-id, and generates Components only for services the catalog lacks", async () => {
    const shopCheckout: Entity = {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name: 'shop-checkout',
        annotations: { 'backstage.io/kubernetes-id': 'checkout' },
      },
      spec: { type: 'service', lifecycle: 'production', owner: 'group:default/shop' },
    };
    const { runScheduledRefresh, mutations, addedEntities, provider } =
      await startProvider({
        index: fleet(),
        config: { createMissingComponents: true, tenantOwners: { payments: 'payments' } },
        catalogEntities: [shopCheckout],
      });
    await runScheduledRefresh();

    expect(
      entityNamed(addedEntities(), 'prod-eu-1.apps.helmrelease.checkout').spec?.dependencyOf,
    ).toEqual(['component:default/shop-checkout']);
    const componentMutations = mutations().filter(
      m => m.type === 'delta' && m.added.some(d => d.entity.kind === 'Component'),
    );
    expect(componentMutations).toEqual([
      {
        type: 'delta',
        added: [
          {
            // No location key: a Component defined anywhere else takes over from this one.
            locationKey: undefined,
            entity: {
              apiVersion: 'backstage.io/v1alpha1',
              kind: 'Component',
              metadata: {
                name: 'payments-api',
                description:
                  'Service payments-api, found by Flux Fleet on clusters prod-eu-1, prod-us-1. Generated because ' +
                  'the catalog has no Component for it: define one to replace it.',
                annotations: {
                  'backstage.io/managed-by-location': 'flux-fleet-services:generated',
                  'backstage.io/managed-by-origin-location': 'flux-fleet-services:generated',
                  'flux-fleet.io/provider': 'default',
                  'backstage.io/kubernetes-id': 'payments-api',
                },
                tags: ['flux'],
              },
              spec: {
                type: 'service',
                lifecycle: 'unknown',
                owner: 'group:default/payments',
              },
            },
          },
        ],
        removed: [],
      },
    ]);
    provider.dispose();
  });

  it('removes a generated Component when its service leaves the fleet, but not while a cluster is still syncing', async () => {
    const index = fleet();
    const { runScheduledRefresh, summaries, provider } = await startProvider({
      index,
      config: { createMissingComponents: true },
    });
    await runScheduledRefresh();

    index.setCluster('prod-eu-1', { ...prodEu1(), objects: [] });
    index.setCluster('prod-us-1', { ...prodUs1(), status: 'syncing', objects: [] });
    await runScheduledRefresh();
    expect(summaries().flatMap(s => s.removed)).not.toContain('component:default/payments-api');

    index.setCluster('prod-us-1', { ...prodUs1(), objects: [] });
    await runScheduledRefresh();
    expect(summaries().flatMap(s => s.removed)).toContain('component:default/payments-api');
    provider.dispose();
  });

  it('skips an object it cannot turn into an entity, names it in a warning, and emits the rest', async () => {
    const index = fleet();
    const us = prodUs1();
    const broken = fleetObject({
      cluster: 'prod-us-1',
      namespace: 'apps',
      kind: 'Kustomization',
      name: 'broken',
      owner: 'flux-system/main',
    });
    (broken.ref as any).name = undefined;
    us.objects.push(broken);
    index.setCluster('prod-us-1', us);
    const { runScheduledRefresh, summaries, logger, provider } = await startProvider({ index });
    await runScheduledRefresh();

    expect(summaries()[1]).toEqual({
      locationKeys: ['flux-fleet:prod-us-1'],
      added: PROD_US_1_REFS,
      removed: [],
    });
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining('Flux object prod-us-1/apps/Kustomization/broken'),
    );
    provider.dispose();
  });

  it('drops an entity the catalog would refuse, says which and why, and emits the rest', async () => {
    const index = fleet();
    const us = prodUs1();
    const odd = fleetObject({
      cluster: 'prod-us-1',
      namespace: 'apps',
      kind: 'HelmRelease',
      name: 'odd',
      owner: 'flux-system/main',
    });
    // A key that is not text: the annotation carrying it would not be a valid annotation value.
    (odd as any).key = 42;
    us.objects.push(odd);
    index.setCluster('prod-us-1', us);
    const { runScheduledRefresh, summaries, logger, provider } = await startProvider({ index });
    await runScheduledRefresh();

    expect(summaries()[1].added).toEqual(PROD_US_1_REFS);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /Skipped an entity of cluster prod-us-1: entity resource:default\/prod-us-1\.apps\.helmrelease\.odd is not valid: .*annotation/,
      ),
    );
    provider.dispose();
  });

  it('gives the same mutations for the same structure in any order', async () => {
    const ordered = await startProvider({ index: fleet() });
    await ordered.runScheduledRefresh();

    const shuffled = new InMemoryFleetIndex();
    const us = prodUs1();
    const eu = prodEu1();
    eu.objects.reverse();
    eu.shards.reverse();
    eu.instances[0].shards.reverse();
    eu.shards[0].controllers.reverse();
    shuffled.setCluster('prod-us-1', us);
    shuffled.setCluster('prod-eu-1', eu);
    const reordered = await startProvider({ index: shuffled });
    await reordered.runScheduledRefresh();

    expect(JSON.stringify(reordered.mutations())).toBe(JSON.stringify(ordered.mutations()));
    ordered.provider.dispose();
    reordered.provider.dispose();
  });

  it('emits only the clusters configured for the provider', async () => {
    jest.useFakeTimers();
    const index = fleet();
    const { runScheduledRefresh, summaries, provider } = await startProvider({
      index,
      config: { clusters: ['prod-us-1'] },
    });
    await runScheduledRefresh();
    index.announce([{ cluster: 'prod-eu-1', keys: [], structural: true }]);
    await jest.advanceTimersByTimeAsync(10_000);

    expect(summaries().map(s => s.locationKeys)).toEqual([['flux-fleet:prod-us-1']]);
    provider.dispose();
  });

  it('logs a failed mutation with the cluster, never throws into the scheduler, and emits the other clusters', async () => {
    const { runScheduledRefresh, connection, logger, summaries, provider } =
      await startProvider({ index: fleet() });
    connection.applyMutation.mockImplementationOnce(async () => {
      throw new Error('SQLITE_BUSY: database is locked');
    });

    await expect(runScheduledRefresh()).resolves.toBeUndefined();
    expect(logger.error).toHaveBeenCalledWith(
      expect.stringMatching(/cluster prod-eu-1.*SQLITE_BUSY/),
    );
    expect(summaries()[1].locationKeys).toEqual(['flux-fleet:prod-us-1']);

    // Nothing was recorded as held for the failed cluster, so the next refresh sends it again.
    await runScheduledRefresh();
    expect(summaries()[2]).toEqual({
      locationKeys: ['flux-fleet:prod-eu-1'],
      added: PROD_EU_1_REFS,
      removed: [],
    });
    provider.dispose();
  });

  it('stops listening to the index at shutdown', async () => {
    const index = fleet();
    const { provider } = await startProvider({ index });
    expect(index.listenerCount).toBe(1);
    provider.dispose();
    expect(index.listenerCount).toBe(0);
  });
});
