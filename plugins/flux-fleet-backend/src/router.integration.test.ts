import {
  capacityHistorySchema,
  capacityReportSchema,
  shardingPlanSchema,
} from './schema/capacitySchemas';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import type { ClusterHealth, FleetObject, InstanceSummary } from '@flux-fleet/plugin-flux-fleet-common';
import request from 'supertest';
import { allObjects, FleetBackend, startFleetBackend } from './__testUtils__/startFleetBackend';
import fluxFleetFeature from './feature';
import {
  clusterHealthSchema,
  entityViewSchema,
  findingSchema,
  fleetObjectDetailSchema,
  fleetSummarySchema,
  instanceSummarySchema,
  itemsOf,
  objectPageSchema,
  shardSummarySchema,
  tenantSummarySchema,
} from './schema/responseSchemas';
import { fleetVersionViewSchema } from './schema/versionSchemas';

jest.setTimeout(60_000);

describe('the flux-fleet API without clusters', () => {
  it('answers /clusters with Backstage credentials and refuses callers without', async () => {
    const { server } = await startTestBackend({
      features: [
        fluxFleetFeature,
        // without this the mock treats a request with no token as a signed-in user
        mockServices.httpAuth.factory({
          defaultCredentials: mockCredentials.none(),
        }),
      ],
    });

    const anonymous = await request(server).get('/api/flux-fleet/clusters');
    expect(anonymous.status).toBe(401);

    const user = await request(server)
      .get('/api/flux-fleet/clusters')
      .set('Authorization', mockCredentials.user.header());
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ items: [] });
  });

  it('refuses to start on bad configuration, naming the key', async () => {
    await expect(
      startTestBackend({
        features: [
          fluxFleetFeature,
          mockServices.rootConfig.factory({
            data: {
              fluxFleet: {
                clusters: [{ name: 'prod', kubeconfig: { path: '/nowhere/kubeconfig' } }],
              },
            },
          }),
        ],
      }),
    ).rejects.toThrow(
      "Invalid Flux Fleet configuration at 'fluxFleet.clusters[0].kubeconfig.path': the kubeconfig file /nowhere/kubeconfig does not exist",
    );
  });
});

describe('the flux-fleet API on a simulated fleet', () => {
  let fleet: FleetBackend;
  let someObject: FleetObject;

  beforeAll(async () => {
    fleet = await startFleetBackend({
      features: [
        catalogServiceMock.factory({
          entities: [
            {
              apiVersion: 'backstage.io/v1alpha1',
              kind: 'Component',
              metadata: {
                name: 'checkout',
                namespace: 'default',
                annotations: { 'backstage.io/kubernetes-id': 'checkout' },
              },
            },
            {
              apiVersion: 'backstage.io/v1alpha1',
              kind: 'Component',
              metadata: {
                name: 'by-label',
                namespace: 'default',
                annotations: {
                  'backstage.io/kubernetes-label-selector': 'backstage.io/kubernetes-id=checkout',
                },
              },
            },
            ...[
              // issue 11: 3,000 terms that every object satisfies answered the whole fleet
              ['huge-selector', Array.from({ length: 3_000 }, (_, i) => `!absent-${i}`).join(',')],
              ['bad-selector', 'app in (checkout'],
            ].map(([name, selector]) => ({
              apiVersion: 'backstage.io/v1alpha1',
              kind: 'Component',
              metadata: {
                name,
                namespace: 'default',
                annotations: { 'backstage.io/kubernetes-label-selector': selector },
              },
            })),
          ],
        }),
      ],
    });
    await fleet.waitFor('synced', async () => {
      const { items } = await fleet.get('/clusters');
      return items.every((c: ClusterHealth) => c.synced) ? true : undefined;
    });
    someObject = (await fleet.get('/objects?kind=Kustomization&limit=1')).items[0];
  });

  afterAll(() => fleet?.stop());

  it('answers every route with the shapes of the OpenAPI schema', async () => {
    const checks: Array<[string, { safeParse(v: unknown): { success: boolean; error?: unknown } }]> = [
      ['/clusters', itemsOf(clusterHealthSchema)],
      ['/summary', fleetSummarySchema],
      ['/instances', itemsOf(instanceSummarySchema)],
      ['/shards', itemsOf(shardSummarySchema)],
      ['/tenants', itemsOf(tenantSummarySchema)],
      ['/objects?limit=1000', objectPageSchema],
      [`/objects/${someObject.key}`, fleetObjectDetailSchema],
      ['/entity/component/default/checkout', entityViewSchema],
      ['/findings', itemsOf(findingSchema)],
      ['/versions', fleetVersionViewSchema],
      ['/capacity', capacityReportSchema],
      [`/capacity/plan?cluster=${someObject.ref.cluster}&instance=flux-system`, shardingPlanSchema],
      [`/capacity/history?cluster=${someObject.ref.cluster}&instance=flux-system`, capacityHistorySchema],
    ];
    for (const [path, schema] of checks) {
      const body = await fleet.get(path);
      const result = schema.safeParse(body);
      expect({ path, error: result.success ? undefined : String(result.error) }).toEqual({
        path,
        error: undefined,
      });
    }
  });

  it('serves its OpenAPI document, with every route and the shapes it answers with', async () => {
    const doc = await fleet.get('/openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/capacity',
      '/capacity/history',
      '/capacity/plan',
      '/clusters',
      '/entity/{kind}/{namespace}/{name}',
      '/findings',
      '/instances',
      '/malformed',
      '/objects',
      '/objects/{cluster}/{namespace}/{kind}/{name}',
      '/objects/{cluster}/{namespace}/{kind}/{name}/reconcile',
      '/objects/{cluster}/{namespace}/{kind}/{name}/resume',
      '/objects/{cluster}/{namespace}/{kind}/{name}/suspend',
      '/shards',
      '/summary',
      '/tenants',
      '/versions',
    ]);
    expect(doc.components.schemas.FleetObject.properties.owner).toEqual({
      $ref: '#/components/schemas/Owner',
    });
    const kind = doc.paths['/objects'].get.parameters.find((p: any) => p.name === 'kind');
    expect(kind.schema.items.$ref ?? kind.schema.items.enum).toBeDefined();
    // every reference points at a component that exists
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const ref of new Set(refs)) {
      expect(doc.components.schemas[ref.split('/').pop()!]).toBeDefined();
    }
  });

  it('asks for the cluster and instance of a plan, and names what does not exist', async () => {
    const get = (path: string) =>
      request(fleet.backend.server).get(`/api/flux-fleet${path}`).set('Authorization', mockCredentials.user.header());
    const missing = await get('/capacity/plan?cluster=nowhere');
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('instance');
    const tooMany = await get(`/capacity/plan?cluster=${someObject.ref.cluster}&instance=flux-system&shards=33`);
    expect(tooMany.status).toBe(400);
    const unknown = await get(`/capacity/plan?cluster=${someObject.ref.cluster}&instance=nobody`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain("no Flux instance 'nobody'");
  });

  it('gzips its long answers for a caller that accepts gzip: an entity view, a page of objects, a value', async () => {
    // (the test backend has no compression middleware; sendJson.test.ts puts Backstage's in front)
    for (const path of ['/entity/component/default/checkout', '/objects?limit=50', '/clusters']) {
      const res = await request(fleet.backend.server)
        .get(`/api/flux-fleet${path}`)
        .set('Authorization', mockCredentials.user.header())
        .set('Accept-Encoding', 'gzip, deflate, br, zstd');
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toContain('Accept-Encoding');
      // supertest gunzipped it once into JSON of the shape a caller asking for no encoding gets
      const plain = await request(fleet.backend.server)
        .get(`/api/flux-fleet${path}`)
        .set('Authorization', mockCredentials.user.header())
        .set('Accept-Encoding', 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Object.keys(res.body).sort()).toEqual(Object.keys(plain.body).sort());
    }
  });

  it('says which query parameter is wrong', async () => {
    const res = await request(fleet.backend.server)
      .get('/api/flux-fleet/objects?kind=Kustomisation&limit=5000&colour=red')
      .set('Authorization', mockCredentials.user.header());
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('InputError');
    expect(res.body.error.message).toContain("kind: 'Kustomisation' is not one of GitRepository");
    expect(res.body.error.message).toContain('limit: ');
    expect(res.body.error.message).toContain("unknown query parameter 'colour'");
  });

  it('answers 404 naming the cluster and object that do not exist', async () => {
    const missing = await request(fleet.backend.server)
      .get(`/api/flux-fleet/objects/${someObject.ref.cluster}/nowhere/Kustomization/nothing`)
      .set('Authorization', mockCredentials.user.header());
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(
      `Cluster '${someObject.ref.cluster}' has no Kustomization nowhere/nothing (as of the index; it may have been deleted)`,
    );
    const noCluster = await request(fleet.backend.server)
      .get('/api/flux-fleet/shards?cluster=atlantis')
      .set('Authorization', mockCredentials.user.header());
    expect(noCluster.status).toBe(404);
    expect(noCluster.body.error.message).toContain("Flux Fleet watches no cluster named 'atlantis'");
    const noEntity = await request(fleet.backend.server)
      .get('/api/flux-fleet/entity/component/default/ghost')
      .set('Authorization', mockCredentials.user.header());
    expect(noEntity.status).toBe(404);
    expect(noEntity.body.error.message).toBe('The catalog has no entity component:default/ghost');
  });

  it('shows a catalog entity’s Flux objects across clusters, linked by kubernetes-id or label selector', async () => {
    const truth = fleet.sim.truth().objects.filter(o => o.service === 'checkout');
    const view = await fleet.get('/entity/component/default/checkout');
    expect(view.entityRef).toBe('component:default/checkout');
    expect(view.link).toEqual({ kubernetesId: 'checkout' });
    expect(view.objects.map((o: FleetObject) => o.key).sort()).toEqual(
      truth.map(t => `${t.cluster}/${t.namespace}/${t.kind}/${t.name}`).sort(),
    );
    expect(new Set(view.objects.map((o: FleetObject) => o.ref.cluster)).size).toBeGreaterThan(1);
    expect(view.instances.length).toBeGreaterThan(0);
    // each instance lists the controllers of the entity's objects, and only those
    const reconciling = new Set(
      (view.objects as FleetObject[])
        .filter(o => o.owner.instance !== null)
        .map(o => `${o.ref.cluster}/${o.owner.instance}/${o.owner.controller}`),
    );
    const listed = (view.instances as InstanceSummary[]).flatMap(i =>
      i.controllers.map(c => `${i.cluster}/${i.name}/${c.name}`),
    );
    expect(new Set(listed)).toEqual(reconciling);
    const all = await fleet.get(`/instances?cluster=${view.instances[0].cluster}`);
    const full = all.items.find((i: InstanceSummary) => i.name === view.instances[0].name);
    expect(full.controllers.length).toBeGreaterThan(view.instances[0].controllers.length);

    // objects labelled for checkout, or whose workloads are
    const bySelector = await fleet.get('/entity/component/default/by-label');
    expect(bySelector.objects.length).toBeGreaterThan(0);
    for (const o of bySelector.objects as FleetObject[]) {
      expect(view.objects.some((v: FleetObject) => v.key === o.key)).toBe(true);
    }
  });

  it('answers 400 naming the entity and what is wrong with its label selector, never the whole fleet nor nothing', async () => {
    for (const [name, problem] of [
      ['huge-selector', 'the label selector is 37,889 characters long; Flux Fleet reads at most 4,096'],
      ['bad-selector', 'app in (checkout'],
    ]) {
      const res = await request(fleet.backend.server)
        .get(`/api/flux-fleet/entity/component/default/${name}`)
        .set('Authorization', mockCredentials.user.header());
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(
        `Entity component:default/${name}: annotation backstage.io/kubernetes-label-selector: `,
      );
      expect(res.body.error.message).toContain(problem);
    }
  });

  it('bounds an entity view at the limit asked for, saying how many objects the entity links', async () => {
    const whole = await fleet.get('/entity/component/default/checkout');
    expect(whole.totalCount).toBe(whole.objects.length);
    expect(whole.totalCount).toBeGreaterThan(2);
    const cut = await fleet.get('/entity/component/default/checkout?limit=2');
    expect(cut.objects.map((o: FleetObject) => o.key)).toEqual(whole.objects.slice(0, 2).map((o: FleetObject) => o.key));
    expect(cut.totalCount).toBe(whole.totalCount);
  });

  it('filters, sorts and pages objects as asked', async () => {
    const all = await allObjects(fleet);
    const failed = await fleet.get('/objects?state=failed,stalled&sort=updatedAt&order=desc&limit=1000');
    expect(failed.totalCount).toBe(
      all.filter(o => o.state.state === 'failed' || o.state.state === 'stalled').length,
    );
    const tenant = all.find(o => o.boundary.tenant)!.boundary.tenant!;
    const ofTenant = await fleet.get(`/objects?tenant=${tenant}&kind=Kustomization&limit=1000`);
    expect(ofTenant.items.every((o: FleetObject) => o.boundary.tenant === tenant && o.ref.kind === 'Kustomization')).toBe(true);
    expect(ofTenant.totalCount).toBe(
      all.filter(o => o.boundary.tenant === tenant && o.ref.kind === 'Kustomization').length,
    );
    const orphans = await fleet.get('/objects?owner=orphan&finding=orphan');
    expect(orphans.totalCount).toBe(fleet.sim.truth().objects.filter(o => o.owner === 'orphan').length);
  });
});
