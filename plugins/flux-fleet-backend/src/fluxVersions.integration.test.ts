/**
 * Flux versions and upgrade readiness end to end: the simulator's clusters (one never migrated, its CRDs still
 * storing v1beta2) watched by the real backend, answers read through the API.
 */
import type { Finding } from '@flux-fleet/plugin-flux-fleet-common';
import {
  FleetBackend,
  startFleetBackend,
} from './__testUtils__/startFleetBackend';

jest.setTimeout(60_000);

describe('Flux versions and upgrade readiness against the simulator', () => {
  let fleet: FleetBackend;

  beforeAll(async () => {
    fleet = await startFleetBackend({
      sim: { clusters: 3, services: 20, seed: 1 },
    });
    await fleet.waitFor('every cluster synced', async () => {
      const { items } = await fleet.get('/clusters');
      return items.every((c: any) => c.synced && c.status === 'synced')
        ? items
        : undefined;
    });
  });
  afterAll(async () => {
    await fleet?.stop();
  });

  it('gives each cluster the Flux release it runs, never a controller image tag', async () => {
    const { items } = await fleet.get('/clusters');
    expect(
      Object.fromEntries(items.map((c: any) => [c.name, c.fluxVersions])),
    ).toEqual(
      Object.fromEntries(
        fleet.sim.clusters.map(c => [c.name, [c.fluxVersion]]),
      ),
    );
  });

  it('reads the release of a plain install.yaml instance (no version label) from its images', async () => {
    const cluster = fleet.sim.clusters[1];
    const { items } = await fleet.get(`/instances?cluster=${cluster.name}`);
    const plain = items.find((i: any) => i.name !== 'flux-system');
    expect(plain.controllers.every((c: any) => c.version === undefined)).toBe(true);
    expect(plain.controllers.map((c: any) => c.imageVersion)).toContain('v1.4.1');
    expect(plain.version).toBe(cluster.fluxVersion);
  });

  it('blocks the upgrade of the never-migrated cluster only, naming the CRD and flux migrate', async () => {
    const { items } = await fleet.get('/findings?type=upgrade-blocked');
    const legacy = fleet.sim.clusters[2];
    expect(legacy.fluxVersion).toBe('v2.7.5');
    expect((items as Finding[]).map(f => f.instance)).toEqual([
      { cluster: legacy.name, instance: 'flux-system' },
    ]);
    expect(items[0].message).toContain(
      'kustomizations.kustomize.toolkit.fluxcd.io stores v1beta2 (removed in Flux 2.8)',
    );
    expect(items[0].message).toContain('`flux migrate`');
  });

  it('shows which clusters run which release, how far behind the latest, and what blocks each upgrade', async () => {
    const view = await fleet.get('/versions');
    const [operator, plain, legacy] = fleet.sim.clusters;
    expect(view.latest).toBe('v2.9.4');
    expect(view.clustersByVersion).toEqual({
      [operator.fluxVersion]: [operator.name],
      [plain.fluxVersion]: [plain.name],
      [legacy.fluxVersion]: [legacy.name],
    });
    const legacyRow = view.instances.find((r: any) => r.cluster === legacy.name);
    expect(legacyRow).toMatchObject({
      version: 'v2.7.5',
      minorsBehind: 2,
      nextMinor: '2.8',
    });
    expect(legacyRow.blockers.map((b: any) => `${b.crd} ${b.version}`)).toContain(
      'kustomizations.kustomize.toolkit.fluxcd.io v1beta2',
    );
    const operatorRow = view.instances.find((r: any) => r.cluster === operator.name);
    expect(operatorRow).toMatchObject({ source: 'flux-operator', blockers: [] });
  });

  it('finds an object written at a version the next minor removes', async () => {
    const cluster = fleet.sim.clusters[0];
    expect(cluster.fluxVersion).toBe('v2.8.3');
    const res = await fetch(
      `${cluster.server}/apis/notification.toolkit.fluxcd.io/v1beta2/namespaces/flux-system/alerts/old-alert?fieldManager=flux-test`,
      {
        method: 'PATCH',
        headers: {
          Authorization: `Bearer ${cluster.adminToken}`,
          'Content-Type': 'application/apply-patch+yaml',
        },
        body: JSON.stringify({
          apiVersion: 'notification.toolkit.fluxcd.io/v1beta2',
          kind: 'Alert',
          metadata: { name: 'old-alert', namespace: 'flux-system' },
          spec: {
            providerRef: { name: 'slack' },
            eventSources: [{ kind: 'Kustomization', name: '*' }],
          },
        }),
      },
    );
    expect(res.status).toBe(201);
    const finding: Finding = await fleet.waitFor(
      'the deprecated-api finding',
      async () => {
        const { items } = await fleet.get(
          `/findings?type=deprecated-api&cluster=${cluster.name}`,
        );
        return (items as Finding[]).find(f => f.object?.name === 'old-alert');
      },
    );
    expect(finding.message).toContain(
      'was last written as notification.toolkit.fluxcd.io/v1beta2 (metadata.managedFields), which Flux 2.9 removed: ' +
        'write it as notification.toolkit.fluxcd.io/v1beta3 instead',
    );
  });
});
