import { CustomObjectsApi } from '@kubernetes/client-node';
import { get as httpsGet } from 'node:https';
import {
  call,
  kubeConfigFor,
  kustomizationManifest,
} from '../__testUtils__/fleetClients';
import { startFleetSim, type FleetSim, type SimCluster } from '../fleetSim';

const KS = '/apis/kustomize.toolkit.fluxcd.io/v1';

describe('the simulated API server', () => {
  let sim: FleetSim;
  let latest: SimCluster;
  let old: SimCluster;

  beforeAll(async () => {
    sim = await startFleetSim({
      size: 'S',
      seed: 1,
      reactionDelayMs: [20, 50],
    });
    latest = sim.clusters.find(c => c.fluxVersion === 'v2.8.3')!;
    old = sim.clusters.find(c => c.fluxVersion === 'v2.4.0')!;
  });
  afterAll(() => sim.close());

  describe('discovery', () => {
    it('serves the versions of each cluster’s Flux release, preferred first', async () => {
      const oldGroup = await call(old, '/apis/kustomize.toolkit.fluxcd.io');
      expect(oldGroup.body.versions.map((v: any) => v.version)).toEqual([
        'v1',
        'v1beta2',
        'v1beta1',
      ]);
      expect(oldGroup.body.preferredVersion.version).toBe('v1');
      const latestGroup = await call(
        latest,
        '/apis/kustomize.toolkit.fluxcd.io',
      );
      expect(latestGroup.body.versions.map((v: any) => v.version)).toEqual([
        'v1',
      ]);
      expect(
        (
          await call(old, '/apis/source.toolkit.fluxcd.io/v1beta2')
        ).body.resources.map((r: any) => r.name),
      ).toContain('ocirepositories');
      expect(
        (await call(latest, '/apis/kustomize.toolkit.fluxcd.io/v1beta2'))
          .status,
      ).toBe(404);
      // The Flux Operator's group exists only where the operator is installed.
      expect((await call(old, '/apis/fluxcd.controlplane.io')).status).toBe(
        404,
      );
      expect(
        (
          await call(latest, '/apis/fluxcd.controlplane.io/v1')
        ).body.resources.map((r: any) => r.kind),
      ).toContain('FluxInstance');
      const version = await call(latest, '/version', { token: null });
      expect(version.body.gitVersion).toMatch(/^v1\.\d+\.\d+$/);
    });

    it('serves the same stored object at every served version, as CRDs without conversion do', async () => {
      const v1 = await call(
        old,
        '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/team-shop/kustomizations/checkout',
      );
      const beta = await call(
        old,
        '/apis/kustomize.toolkit.fluxcd.io/v1beta2/namespaces/team-shop/kustomizations/checkout',
      );
      expect(beta.body.apiVersion).toBe('kustomize.toolkit.fluxcd.io/v1beta2');
      expect({ ...beta.body, apiVersion: 'x' }).toEqual({
        ...v1.body,
        apiVersion: 'x',
      });
    });
  });

  describe('lists', () => {
    it('pages with limit and continue through client-node, without losing or repeating objects', async () => {
      const api = kubeConfigFor(latest).makeApiClient(CustomObjectsApi);
      const all: any = await api.listClusterCustomObject({
        group: 'kustomize.toolkit.fluxcd.io',
        version: 'v1',
        plural: 'kustomizations',
      });
      const names: string[] = [];
      const remaining: Array<[number, number]> = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const page: any = await api.listClusterCustomObject({
          group: 'kustomize.toolkit.fluxcd.io',
          version: 'v1',
          plural: 'kustomizations',
          limit: 40,
          _continue: token,
        });
        names.push(
          ...page.items.map(
            (i: any) => `${i.metadata.namespace}/${i.metadata.name}`,
          ),
        );
        token = page.metadata._continue ?? page.metadata.continue;
        if (token)
          remaining.push([
            page.metadata.remainingItemCount,
            all.items.length - names.length,
          ]);
        pages++;
      } while (token);
      expect(all.items.length).toBeGreaterThan(300);
      expect(pages).toBe(Math.ceil(all.items.length / 40));
      expect(remaining.filter(([told, left]) => told !== left)).toEqual([]);
      expect(new Set(names).size).toBe(all.items.length);
      expect(names).toEqual(
        all.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`),
      );
    });

    it('filters with every label selector operator, as Kubernetes defines them', async () => {
      const api = kubeConfigFor(latest).makeApiClient(CustomObjectsApi);
      const list = async (labelSelector?: string) =>
        (
          (await api.listClusterCustomObject({
            group: 'kustomize.toolkit.fluxcd.io',
            version: 'v1',
            plural: 'kustomizations',
            labelSelector,
          })) as any
        ).items as any[];
      const all = await list();
      const key = 'sharding.fluxcd.io/key';
      const shardOf = (o: any): string | undefined => o.metadata.labels?.[key];
      const names = (items: any[]) =>
        items.map(i => `${i.metadata.namespace}/${i.metadata.name}`).sort();
      const expectFilter = async (
        selector: string,
        keep: (o: any) => boolean,
      ) => {
        const expected = names(all.filter(keep));
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.length).toBeLessThan(all.length);
        expect(names(await list(selector))).toEqual(expected);
      };
      await expectFilter(`${key}=shard1`, o => shardOf(o) === 'shard1');
      await expectFilter(`${key}!=shard1`, o => shardOf(o) !== 'shard1');
      await expectFilter(`${key} in (shard1,shard2)`, o =>
        ['shard1', 'shard2'].includes(shardOf(o)!),
      );
      await expectFilter(`${key} notin (shard1)`, o => shardOf(o) !== 'shard1');
      await expectFilter(key, o => shardOf(o) !== undefined);
      await expectFilter(`!${key}`, o => shardOf(o) === undefined);
      await expectFilter(
        `${key}=shard2,backstage.io/kubernetes-id`,
        o =>
          shardOf(o) === 'shard2' &&
          !!o.metadata.labels?.['backstage.io/kubernetes-id'],
      );
      const bad = await call(
        latest,
        `${KS}/kustomizations?labelSelector=${encodeURIComponent('a in (')}`,
      );
      expect([bad.status, bad.body.reason]).toEqual([400, 'BadRequest']);
    });

    it('filters by metadata.name and metadata.namespace, and refuses other fields', async () => {
      const byName = await call(
        latest,
        `${KS}/kustomizations?fieldSelector=metadata.name%3Dcheckout`,
      );
      expect(byName.body.items.map((i: any) => i.metadata.namespace)).toEqual([
        'team-shop',
      ]);
      const byNamespace = await call(
        latest,
        `${KS}/kustomizations?fieldSelector=metadata.namespace%3Dteam-shop`,
      );
      expect(
        byNamespace.body.items.every(
          (i: any) => i.metadata.namespace === 'team-shop',
        ),
      ).toBe(true);
      const namespaced = await call(
        latest,
        `${KS}/namespaces/team-shop/kustomizations`,
      );
      expect(namespaced.body.items.length).toBe(byNamespace.body.items.length);
      const bad = await call(
        latest,
        `${KS}/kustomizations?fieldSelector=spec.path%3Dx`,
      );
      expect([bad.status, bad.body.message]).toEqual([
        400,
        'field label not supported: spec.path',
      ]);
    });

    it('answers a Table when asked, with the CRD’s printer columns', async () => {
      const table = await call(
        latest,
        `${KS}/namespaces/team-shop/kustomizations?limit=5`,
        {
          accept:
            'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
        },
      );
      expect(table.body.kind).toBe('Table');
      expect(table.body.columnDefinitions.map((c: any) => c.name)).toEqual([
        'Name',
        'Age',
        'Ready',
        'Status',
      ]);
      expect(table.body.rows).toHaveLength(5);
      expect(table.body.rows[0].object.kind).toBe('PartialObjectMetadata');
    });
    it('answers metadata only when asked, as client-go’s metadata informers ask', async () => {
      const path = '/apis/apps/v1/deployments?labelSelector=backstage.io%2Fkubernetes-id';
      const metadataList =
        'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
      const whole = await call(latest, `${path}&limit=3`);
      const partial = await call(latest, `${path}&limit=3`, { accept: metadataList });
      expect(partial.headers.get('content-type')).toBe(
        'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
      );
      expect([partial.body.kind, partial.body.apiVersion]).toEqual([
        'PartialObjectMetadataList',
        'meta.k8s.io/v1',
      ]);
      // the same objects, each its whole metadata and nothing else
      expect(partial.body.items).toEqual(
        whole.body.items.map((item: any) => ({
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: item.metadata,
        })),
      );
      expect(whole.body.items[0].spec).toBeDefined();
      // pages go on with the same continue token
      const next = await call(
        latest,
        `${path}&limit=3&continue=${encodeURIComponent(partial.body.metadata.continue)}`,
        { accept: metadataList },
      );
      const wholeNext = await call(
        latest,
        `${path}&limit=3&continue=${encodeURIComponent(whole.body.metadata.continue)}`,
      );
      expect(next.body.items.map((i: any) => i.metadata.name)).toEqual(
        wholeNext.body.items.map((i: any) => i.metadata.name),
      );
      // one object
      const first = whole.body.items[0].metadata;
      const one = await call(
        latest,
        `/apis/apps/v1/namespaces/${first.namespace}/deployments/${first.name}`,
        { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' },
      );
      expect(one.body).toEqual({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: first,
      });
      // a client that puts plain JSON first, or asks for the object kind on a list, gets whole objects
      for (const accept of [
        'application/json,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
        'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
      ]) {
        expect((await call(latest, `${path}&limit=1`, { accept })).body.kind).toBe(
          'DeploymentList',
        );
      }
    });
  });

  describe('writes', () => {
    const path = `${KS}/namespaces/team-shop/kustomizations`;
    // Objects no simulated controller watches, so that no reconciliation interleaves with the assertions.
    const unowned = (name: string) =>
      kustomizationManifest('team-shop', name, {
        labels: { 'sharding.fluxcd.io/key': 'no-controller' },
      });

    it('creates with server-set metadata, bumps resourceVersion, and refuses duplicates and unknown namespaces', async () => {
      const before = Number(
        (await call(latest, `${path}?limit=1`)).body.metadata.resourceVersion,
      );
      const created = await call(latest, path, {
        method: 'POST',
        body: { ...unowned('write-1'), status: { conditions: [] } },
      });
      expect(created.status).toBe(201);
      expect(created.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.body.metadata.generation).toBe(1);
      expect(Number(created.body.metadata.resourceVersion)).toBeGreaterThan(
        before,
      );
      expect(created.body.status).toBeUndefined(); // status is a subresource: ignored on create
      const again = await call(latest, path, {
        method: 'POST',
        body: unowned('write-1'),
      });
      expect([again.status, again.body.reason]).toEqual([409, 'AlreadyExists']);
      const nowhere = await call(
        latest,
        `${KS}/namespaces/nowhere/kustomizations`,
        {
          method: 'POST',
          body: kustomizationManifest('nowhere', 'x'),
        },
      );
      expect([nowhere.status, nowhere.body.message]).toEqual([
        404,
        'namespaces "nowhere" not found',
      ]);
    });

    it('bumps generation on spec changes only, and keeps status out of main-resource writes', async () => {
      await call(latest, path, { method: 'POST', body: unowned('write-2') });
      const merge = (body: unknown, sub = '') =>
        call(latest, `${path}/write-2${sub}`, {
          method: 'PATCH',
          body,
          contentType: 'application/merge-patch+json',
        });
      const labelled = await merge({ metadata: { labels: { a: 'b' } } });
      expect(labelled.body.metadata.generation).toBe(1);
      const specChanged = await merge({
        spec: { path: './other' },
        status: { observedGeneration: 99 },
      });
      expect(specChanged.body.metadata.generation).toBe(2);
      expect(specChanged.body.status?.observedGeneration).not.toBe(99);
      const status = await merge(
        { status: { observedGeneration: 42 } },
        '/status',
      );
      expect([
        status.body.metadata.generation,
        status.body.status.observedGeneration,
      ]).toEqual([2, 42]);
      const unchanged = await merge({ spec: { path: './other' } });
      expect(unchanged.body.metadata.resourceVersion).toBe(
        status.body.metadata.resourceVersion,
      );
      const jsonPatch = await call(latest, `${path}/write-2`, {
        method: 'PATCH',
        contentType: 'application/json-patch+json',
        body: [{ op: 'add', path: '/metadata/annotations', value: { x: 'y' } }],
      });
      expect(jsonPatch.body.metadata.annotations).toEqual({ x: 'y' });
      const strategic = await call(latest, `${path}/write-2`, {
        method: 'PATCH',
        contentType: 'application/strategic-merge-patch+json',
        body: {},
      });
      expect([strategic.status, strategic.body.reason]).toEqual([
        415,
        'UnsupportedMediaType',
      ]);
    });

    it('refuses an update from a stale resourceVersion with 409 Conflict', async () => {
      const created = await call(latest, path, {
        method: 'POST',
        body: unowned('write-3'),
      });
      await call(latest, `${path}/write-3`, {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { metadata: { labels: { x: '1' } } },
      });
      const stale = await call(latest, `${path}/write-3`, {
        method: 'PUT',
        body: {
          ...created.body,
          spec: { ...created.body.spec, path: './stale' },
        },
      });
      expect([stale.status, stale.body.reason]).toEqual([409, 'Conflict']);
    });

    it('deletes, honouring finalizers: the object stays terminating until they are gone', async () => {
      const manifest: any = unowned('write-4');
      manifest.metadata.finalizers = ['example.com/keep'];
      await call(latest, path, { method: 'POST', body: manifest });
      const deleting = await call(latest, `${path}/write-4`, {
        method: 'DELETE',
      });
      expect(deleting.body.metadata.deletionTimestamp).toBeDefined();
      expect((await call(latest, `${path}/write-4`)).status).toBe(200);
      await call(latest, `${path}/write-4`, {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { metadata: { finalizers: null } },
      });
      const gone = await call(latest, `${path}/write-4`);
      expect([gone.status, gone.body.reason, gone.body.message]).toEqual([
        404,
        'NotFound',
        'kustomizations.kustomize.toolkit.fluxcd.io "write-4" not found',
      ]);
    });

    it('answers 404 for kinds a cluster does not serve', async () => {
      const unknown = await call(
        latest,
        '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/team-shop/widgets',
      );
      expect([unknown.status, unknown.body.kind, unknown.body.reason]).toEqual([
        404,
        'Status',
        'NotFound',
      ]);
    });
  });

  describe('authentication and authorization', () => {
    it('lets the read-only user read and answers Forbidden to its writes', async () => {
      const read = await call(latest, `${KS}/kustomizations?limit=1`, {
        token: latest.readOnlyToken,
      });
      expect(read.status).toBe(200);
      const write = await call(
        latest,
        `${KS}/namespaces/team-shop/kustomizations/checkout`,
        {
          token: latest.readOnlyToken,
          method: 'PATCH',
          contentType: 'application/merge-patch+json',
          body: { spec: { suspend: true } },
        },
      );
      expect([write.status, write.body.reason]).toEqual([403, 'Forbidden']);
      expect(write.body.message).toContain(
        'User "flux-fleet-readonly" cannot patch resource "kustomizations"',
      );
      const review = await call(
        latest,
        '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        {
          token: latest.readOnlyToken,
          method: 'POST',
          body: {
            spec: {
              resourceAttributes: {
                verb: 'patch',
                group: 'kustomize.toolkit.fluxcd.io',
                resource: 'kustomizations',
              },
            },
          },
        },
      );
      expect(review.body.status.allowed).toBe(false);
    });

    it('answers 401 to an unknown token', async () => {
      const unknown = await call(latest, '/apis', { token: 'not-a-token' });
      expect([unknown.status, unknown.body.reason]).toEqual([
        401,
        'Unauthorized',
      ]);
    });

    it('lets requests without credentials read over plain HTTP (kubectl sends none there) but never write', async () => {
      expect(
        (await call(latest, `${KS}/kustomizations?limit=1`, { token: null }))
          .status,
      ).toBe(200);
      const write = await call(
        latest,
        `${KS}/namespaces/team-shop/kustomizations`,
        {
          token: null,
          method: 'POST',
          body: kustomizationManifest('team-shop', 'anonymous'),
        },
      );
      expect(write.status).toBe(403);
      expect(write.body.message).toContain('--tls');
    });
  });
});

describe('TLS', () => {
  it('serves HTTPS that client-node verifies against the generated CA', async () => {
    const sim = await startFleetSim({ clusters: 1, services: 10, tls: true });
    try {
      const [cluster] = sim.clusters;
      expect(cluster.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(Buffer.from(cluster.caData!, 'base64').toString()).toContain(
        'BEGIN CERTIFICATE',
      );
      const list: any = await kubeConfigFor(cluster)
        .makeApiClient(CustomObjectsApi)
        .listClusterCustomObject({
          group: 'kustomize.toolkit.fluxcd.io',
          version: 'v1',
          plural: 'kustomizations',
        });
      expect(list.items.length).toBeGreaterThan(5);
      // Over TLS a request without credentials is not let in (only plain HTTP allows anonymous reads).
      const status = await new Promise<number | undefined>((done, fail) =>
        httpsGet(
          `${cluster.server}/apis`,
          { ca: Buffer.from(cluster.caData!, 'base64') },
          res => {
            res.resume();
            done(res.statusCode);
          },
        ).on('error', fail),
      );
      expect(status).toBe(401);
    } finally {
      await sim.close();
    }
  });
});
