import {
  call,
  eventually,
  kustomizationManifest,
} from '../__testUtils__/fleetClients';
import { startFleetSim, type FleetSim, type SimCluster } from '../fleetSim';
import type { TruthObject } from '../truth/groundTruth';
import { readState } from './objectReading';

const pathOf = (o: { namespace: string; kind: string; name: string }) =>
  o.kind === 'HelmRelease'
    ? `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${o.namespace}/helmreleases/${o.name}`
    : `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${o.namespace}/kustomizations/${o.name}`;

function merge(
  cluster: SimCluster,
  object: { namespace: string; kind: string; name: string },
  body: unknown,
) {
  return call(cluster, pathOf(object), {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body,
  });
}

describe('simulated Flux controllers', () => {
  let sim: FleetSim;
  const truthOf = (
    cluster: SimCluster,
    o: { kind: string; namespace: string; name: string },
  ) =>
    sim
      .truth()
      .objects.find(
        t =>
          t.cluster === cluster.name &&
          t.kind === o.kind &&
          t.namespace === o.namespace &&
          t.name === o.name,
      );
  const findingsOf = (
    cluster: SimCluster,
    o: { kind: string; namespace: string; name: string },
  ) =>
    sim
      .truth()
      .findings.filter(
        f =>
          f.cluster === cluster.name &&
          f.kind === o.kind &&
          f.namespace === o.namespace &&
          f.name === o.name,
      )
      .map(f => f.type);

  // Reactions take long enough that a test reads the state a write left before the controller acts.
  beforeAll(async () => {
    sim = await startFleetSim({
      size: 'S',
      seed: 1,
      reactionDelayMs: [900, 1100],
    });
  });
  afterAll(() => sim.close());

  /** A plain, ready Kustomization of a cluster that no test touched yet. */
  const used = new Set<string>();
  function plain(
    cluster: SimCluster,
    filter: (o: TruthObject) => boolean = () => true,
  ): TruthObject {
    const truth = sim.truth();
    const problems = new Set(
      truth.findings.map(
        f => `${f.cluster}/${f.namespace}/${f.kind}/${f.name}`,
      ),
    );
    const found = truth.objects.find(
      o =>
        o.cluster === cluster.name &&
        o.kind === 'Kustomization' &&
        o.owner === 'ok' &&
        o.state === 'ready' &&
        o.namespace.startsWith('team-') &&
        !problems.has(`${o.cluster}/${o.namespace}/${o.kind}/${o.name}`) &&
        !used.has(`${o.cluster}/${o.namespace}/${o.name}`) &&
        filter(o),
    )!;
    used.add(`${found.cluster}/${found.namespace}/${found.name}`);
    return found;
  }

  it('echo a reconcile request into lastHandledReconcileAt within a second', async () => {
    const cluster = sim.clusters[0];
    const object = plain(cluster);
    const token = new Date().toISOString();
    await merge(cluster, object, {
      metadata: { annotations: { 'reconcile.fluxcd.io/requestedAt': token } },
    });
    const handled = await eventually(async () => {
      const body = (await call(cluster, pathOf(object))).body;
      return body.status.lastHandledReconcileAt === token ? body : undefined;
    }, 4000);
    expect(handled.status.observedGeneration).toBe(handled.metadata.generation);
    expect(truthOf(cluster, object)!.state).toBe('ready');
    const events = await call(
      cluster,
      `/api/v1/namespaces/${object.namespace}/events?fieldSelector=involvedObject.name%3D${object.name}`,
    );
    expect(
      events.body.items.some(
        (e: any) => e.source.component === 'kustomize-controller',
      ),
    ).toBe(true);
  });

  it('never handle requests of orphans or of objects whose controller is scaled to zero', async () => {
    const truth = sim.truth();
    const orphan = truth.objects.find(
      o => o.owner === 'orphan' && o.kind === 'Kustomization',
    )!;
    const orphanCluster = sim.clusters.find(c => c.name === orphan.cluster)!;
    const idle = sim.clusters[2];
    const deployments = (
      await call(idle, '/apis/apps/v1/namespaces/flux-system/deployments')
    ).body.items;
    const scaledDown = deployments.find((d: any) => d.spec.replicas === 0);
    expect(scaledDown.metadata.name).toMatch(/^helm-controller-shard\d$/);
    const shard = scaledDown.metadata.name.replace('helm-controller-', '');
    const stuck = truth.objects.find(
      o =>
        o.cluster === idle.name &&
        o.kind === 'HelmRelease' &&
        o.shard === shard &&
        o.state === 'ready',
    )!;
    const token = new Date().toISOString();
    for (const [cluster, object] of [
      [orphanCluster, orphan],
      [idle, stuck],
    ] as const) {
      await merge(cluster, object, {
        metadata: { annotations: { 'reconcile.fluxcd.io/requestedAt': token } },
      });
    }
    await new Promise(r => setTimeout(r, 1500));
    expect(
      (await call(orphanCluster, pathOf(orphan))).body.status
        ?.lastHandledReconcileAt,
    ).not.toBe(token);
    expect(
      (await call(idle, pathOf(stuck))).body.status.lastHandledReconcileAt,
    ).not.toBe(token);
  });

  it('suspend and resume: suspended at once, progressing until the spec change is observed, then back', async () => {
    const cluster = sim.clusters[1];
    const object = plain(cluster);
    const suspended = await merge(cluster, object, { spec: { suspend: true } });
    expect(suspended.body.metadata.generation).toBe(
      suspended.body.status.observedGeneration + 1,
    );
    expect(truthOf(cluster, object)!.state).toBe('suspended');
    await new Promise(r => setTimeout(r, 500));
    expect(truthOf(cluster, object)!.state).toBe('suspended'); // a suspended object is not reconciled
    await merge(cluster, object, { spec: { suspend: null } });
    expect(truthOf(cluster, object)!.state).toBe('progressing');
    await eventually(
      () => (truthOf(cluster, object)!.state === 'ready' ? true : undefined),
      5000,
    );
  });

  it('delete through the finalizer: terminating, then gone; an orphan stays terminating', async () => {
    const cluster = sim.clusters[0];
    const object = plain(cluster);
    const deleting = await call(cluster, pathOf(object), { method: 'DELETE' });
    expect(deleting.body.metadata.finalizers).toEqual(['finalizers.fluxcd.io']);
    expect(truthOf(cluster, object)!.state).toBe('terminating');
    await eventually(
      () => (truthOf(cluster, object) === undefined ? true : undefined),
      5000,
    );
    expect((await call(cluster, pathOf(object))).status).toBe(404);

    const orphan = sim
      .truth()
      .objects.find(
        o =>
          o.cluster === cluster.name &&
          o.owner === 'orphan' &&
          o.kind === 'Kustomization',
      )!;
    await call(cluster, pathOf(orphan), { method: 'DELETE' });
    await new Promise(r => setTimeout(r, 1500));
    expect(truthOf(cluster, orphan)!.state).toBe('terminating');
  });

  it('re-link objects to the service of a relabelled workload in their inventory', async () => {
    const cluster = sim.clusters[1];
    const object = plain(
      cluster,
      o => o.service !== null && o.service !== 'checkout',
    );
    await merge(cluster, object, {
      metadata: { labels: { 'backstage.io/kubernetes-id': null } },
    });
    const served = (await call(cluster, pathOf(object))).body;
    const workloads = served.status.inventory.entries
      .map((e: { id: string }) => e.id.split('_'))
      .filter((parts: string[]) => parts[parts.length - 1] === 'Deployment');
    expect(workloads.length).toBeGreaterThan(0);
    for (const [namespace, name] of workloads) {
      await call(
        cluster,
        `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`,
        {
          method: 'PATCH',
          contentType: 'application/merge-patch+json',
          body: {
            metadata: {
              labels: { 'backstage.io/kubernetes-id': 'renamed-service' },
            },
          },
        },
      );
    }
    expect(truthOf(cluster, object)!.service).toBe('renamed-service');
  });

  it('re-place a relabelled object: a shard no controller selects makes it an orphan', async () => {
    const cluster = sim.clusters[0];
    const object = plain(cluster, o => o.shard === 'shard1');
    await merge(cluster, object, {
      metadata: { labels: { 'sharding.fluxcd.io/key': 'shard9' } },
    });
    expect(truthOf(cluster, object)).toMatchObject({
      owner: 'orphan',
      instance: null,
      shard: null,
    });
    expect(findingsOf(cluster, object)).toContain('orphan');
    await merge(cluster, object, {
      metadata: { labels: { 'sharding.fluxcd.io/key': 'shard2' } },
    });
    expect(truthOf(cluster, object)).toMatchObject({
      owner: 'ok',
      instance: 'flux-system',
      shard: 'shard2',
    });
    expect(findingsOf(cluster, object)).not.toContain('orphan');
  });
});

describe('churn', () => {
  it('changes conditions, revisions and times, and the truth follows what is served', async () => {
    const sim = await startFleetSim({
      clusters: 1,
      services: 60,
      seed: 4,
      churnPerSecond: 150,
    });
    try {
      const [cluster] = sim.clusters;
      const list = async () =>
        (
          await call(
            cluster,
            '/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations',
          )
        ).body.items as any[];
      const before = new Map(
        (await list()).map(o => [
          `${o.metadata.namespace}/${o.metadata.name}`,
          o,
        ]),
      );
      await new Promise(r => setTimeout(r, 1200));
      // churn goes on while the test reads: only objects whose truth is the same before and after the reads
      // (neither they nor their source changed meanwhile) are compared with what was served
      const truthBefore = sim.truth();
      const after = await list();
      const sources = new Map<string, string>();
      for (const plural of ['gitrepositories', 'ocirepositories']) {
        const items = (
          await call(cluster, `/apis/source.toolkit.fluxcd.io/v1/${plural}`)
        ).body.items as any[];
        for (const o of items) {
          sources.set(
            `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`,
            o.status?.artifact?.revision,
          );
        }
      }
      const truth = sim.truth();
      const truthOfKs = (t: typeof truth, o: any) =>
        t.objects.find(
          x =>
            x.kind === 'Kustomization' &&
            x.namespace === o.metadata.namespace &&
            x.name === o.metadata.name,
        );
      const stable = after.filter(
        o =>
          JSON.stringify(truthOfKs(truthBefore, o)) ===
          JSON.stringify(truthOfKs(truth, o)),
      );
      expect(stable.length).toBeGreaterThan(after.length / 2);
      const changed = after.filter(o => {
        const old = before.get(`${o.metadata.namespace}/${o.metadata.name}`);
        return (
          old &&
          JSON.stringify(old.status?.conditions) !==
            JSON.stringify(o.status?.conditions)
        );
      });
      expect(changed.length).toBeGreaterThan(10);
      for (const object of stable) {
        expect([object.metadata.name, truthOfKs(truth, object)!.state]).toEqual(
          [object.metadata.name, readState('Kustomization', object)],
        );
      }
      expect(
        new Set(changed.map(o => readState('Kustomization', o))).size,
      ).toBeGreaterThan(1);

      // revisions follow the sources: a ready Kustomization applied what its source holds, unless the truth
      // says the source moved since (behind); most are current, as in a real fleet
      const sourceOf = (o: any) =>
        sources.get(
          `${o.spec.sourceRef.kind}/${
            o.spec.sourceRef.namespace ?? o.metadata.namespace
          }/${o.spec.sourceRef.name}`,
        );
      const ready = stable.filter(
        o =>
          readState('Kustomization', o) === 'ready' &&
          sourceOf(o) !== undefined,
      );
      const behind = ready.filter(o => {
        const t = truthOfKs(truth, o)!;
        expect([
          o.metadata.name,
          o.status.lastAppliedRevision !== sourceOf(o),
        ]).toEqual([o.metadata.name, t.behindSource === true]);
        return t.behindSource === true;
      });
      expect(ready.length).toBeGreaterThan(20);
      expect(behind.length).toBeLessThan(ready.length / 2);
    } finally {
      await sim.close();
    }
  });
});

describe('an empty cluster', () => {
  it('holds no Flux objects, and reconciles what is applied once a controller Deployment is', async () => {
    const sim = await startFleetSim({
      clusters: 1,
      empty: true,
      reactionDelayMs: [10, 20],
    });
    try {
      const [cluster] = sim.clusters;
      expect(sim.truth().objects).toEqual([]);
      expect(
        (await call(cluster, '/apis/fluxcd.controlplane.io/v1/fluxinstances'))
          .body.items,
      ).toEqual([]);
      await call(cluster, '/api/v1/namespaces', {
        method: 'POST',
        body: {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'flux-system' },
        },
      });
      await call(
        cluster,
        '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations',
        {
          method: 'POST',
          body: kustomizationManifest('flux-system', 'apps'),
        },
      );
      expect(sim.truth().objects).toMatchObject([
        {
          kind: 'Kustomization',
          name: 'apps',
          owner: 'orphan',
          state: 'never-reconciled',
        },
      ]);
      await call(cluster, '/apis/apps/v1/namespaces/flux-system/deployments', {
        method: 'POST',
        body: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: {
            name: 'kustomize-controller',
            namespace: 'flux-system',
            labels: {
              'app.kubernetes.io/part-of': 'flux',
              'app.kubernetes.io/component': 'kustomize-controller',
              'app.kubernetes.io/instance': 'flux-system',
            },
          },
          spec: {
            replicas: 1,
            template: {
              spec: {
                containers: [
                  {
                    name: 'manager',
                    image: 'ghcr.io/fluxcd/kustomize-controller:v1.9.1',
                    args: ['--watch-all-namespaces=true'],
                  },
                ],
              },
            },
          },
        },
      });
      // The new controller reconciles the Kustomization: its source does not exist.
      const apps = await eventually(() => {
        const o = sim.truth().objects.find(x => x.name === 'apps');
        return o?.state === 'failed' ? o : undefined;
      }, 4000);
      expect(apps).toMatchObject({
        owner: 'ok',
        instance: 'flux-system',
        shard: 'main',
      });
      const served = (
        await call(
          cluster,
          '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/apps',
        )
      ).body;
      expect(served.status.conditions[0]).toMatchObject({
        type: 'Ready',
        status: 'False',
        reason: 'ArtifactFailed',
      });
      expect(sim.truth().findings.map(f => f.type)).toEqual(['missing-source']);
    } finally {
      await sim.close();
    }
  });
});
