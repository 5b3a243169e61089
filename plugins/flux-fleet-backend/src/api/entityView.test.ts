import type { ClusterHealth, FleetObject, InstanceSummary } from '@flux-fleet/plugin-flux-fleet-common';
import { buildEntityView, entityViewJson } from './entityView';

const health = (name: string, synced: boolean) => ({ name, synced, status: synced ? 'synced' : 'syncing' }) as ClusterHealth;

const object = (cluster: string, owner: Partial<FleetObject['owner']>) =>
  ({
    key: `${cluster}/apps/Kustomization/api`,
    ref: { cluster, namespace: 'apps', kind: 'Kustomization', name: 'api' },
    owner: { status: 'ok', instance: null, shard: null, controller: null, ...owner },
  }) as FleetObject;

const instance = (cluster: string, name: string, controllers: string[]) =>
  ({ cluster, name, controllers: controllers.map(c => ({ name: c })) }) as InstanceSummary;

describe('buildEntityView', () => {
  it('shows the clusters and the controllers of the entity’s objects, and every cluster not yet synced', () => {
    const objects = [
      object('prod', { instance: 'flux-system', shard: '', controller: 'kustomize-controller' }),
      object('stage', {
        status: 'contested',
        candidates: [
          { instance: 'flux-system', shard: '', controller: 'kustomize-controller' },
          { instance: 'team-a', shard: '', controller: 'kustomize-controller' },
        ],
      }),
    ];
    const view = buildEntityView({ entityRef: 'component:default/api', link: { kubernetesId: 'api' } }, objects, {
      clusters: [health('prod', true), health('stage', true), health('idle', true), health('listing', false)],
      instances: cluster => [
        instance(cluster, 'flux-system', ['kustomize-controller', 'helm-controller', 'source-controller']),
        instance(cluster, 'team-a', ['kustomize-controller']),
        instance(cluster, 'unrelated', ['kustomize-controller']),
      ],
    });
    expect(view.clusters.map(c => c.name)).toEqual(['prod', 'stage', 'listing']);
    expect(view.instances?.map(i => [i.cluster, i.name, i.controllers.map(c => c.name)])).toEqual([
      ['prod', 'flux-system', ['kustomize-controller']],
      ['stage', 'flux-system', ['kustomize-controller']],
      ['stage', 'team-a', ['kustomize-controller']],
    ]);
    expect(view.objects).toBe(objects);
    expect(view).toMatchObject({ entityRef: 'component:default/api', link: { kubernetesId: 'api' } });
  });

  it('answers each cluster’s health without the fleet-wide counts and versions, which the entity’s page does not show', () => {
    const full: ClusterHealth = {
      name: 'prod',
      status: 'lagging',
      synced: false,
      objectCount: 5120,
      countsByKind: { Kustomization: 4000, HelmRelease: 1120 },
      lastEventAt: '2026-12-05T18:00:00.000Z',
      lagMs: 2500,
      malformedCount: 2,
      behind: [{ watch: 'HelmRelease', reason: 'relisting', lagMs: 2500 }],
      fluxVersions: ['v2.7.3'],
      servedVersions: { 'kustomize.toolkit.fluxcd.io': 'v1' },
      readOnly: true,
      environment: 'production',
      environmentSource: { from: 'config' },
      lastError: 'cluster prod: relisting HelmRelease after 410 Gone',
    };
    const view = buildEntityView({ entityRef: 'component:default/api', link: { kubernetesId: 'api' } }, [object('prod', {})], {
      clusters: [full],
      instances: () => [],
    });
    const { objectCount, countsByKind, fluxVersions, servedVersions, malformedCount, ...kept } = full;
    expect(view.clusters).toEqual([kept]);
    // what the page shows of a cluster stays: its status and why, lag, environment, whether actions may write
    expect(Object.keys(view.clusters[0]).sort()).toEqual(
      ['behind', 'environment', 'environmentSource', 'lagMs', 'lastError', 'lastEventAt', 'name', 'readOnly', 'status', 'synced'],
    );
  });

  it('has no instances for an entity without objects, but still the clusters that are listing', () => {
    const view = buildEntityView({ entityRef: 'component:default/none', link: { kubernetesId: 'none' } }, [], {
      clusters: [health('prod', true), health('listing', false)],
      instances: () => {
        throw new Error('not asked for');
      },
    });
    expect(view.instances).toEqual([]);
    expect(view.clusters.map(c => c.name)).toEqual(['listing']);
  });

  it('as JSON from each object’s JSON, kept or not, answers what the built view serialises to', () => {
    const objects = [
      object('prod', { instance: 'flux-system', shard: '', controller: 'kustomize-controller' }),
      object('stage', { status: 'unowned' as FleetObject['owner']['status'] }),
      object('stage', {
        status: 'contested',
        candidates: [{ instance: 'team-a', shard: 'a', controller: 'kustomize-controller' }],
      }),
    ];
    const fleet = {
      clusters: [health('prod', true), health('stage', true), health('idle', true), health('listing', false)],
      instances: (cluster: string) => [
        instance(cluster, 'flux-system', ['kustomize-controller', 'helm-controller']),
        instance(cluster, 'team-a', ['kustomize-controller']),
      ],
    };
    const entity = { entityRef: 'component:default/api', link: { kubernetesId: 'api', labelSelector: 'app in (a,"b")' } };
    const json = entityViewJson(
      entity,
      {
        // one kept (bytes), one not (text)
        objects: objects.slice(0, 2).map((o, i) => ({
          cluster: o.ref.cluster,
          owner: o.owner,
          json: i === 0 ? Buffer.from(JSON.stringify(o)) : JSON.stringify(o),
        })),
        totalCount: 3,
      },
      fleet,
    );
    expect(JSON.parse(json.toString('utf8'))).toEqual({
      ...buildEntityView(entity, objects.slice(0, 2), fleet),
      totalCount: 3,
    });
    expect(JSON.parse(json.toString('utf8')).instances.map((i: InstanceSummary) => `${i.cluster}/${i.name}`)).toEqual([
      'prod/flux-system',
    ]);
  });
});
