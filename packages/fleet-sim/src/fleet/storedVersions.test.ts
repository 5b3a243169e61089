import { coreResourceType } from '../api/resourceTypes';
import { generateFleet } from '../fleetSim';
import { resolveOptions } from '../options';

function storedVersions(
  cluster: ReturnType<typeof generateFleet>[number],
): Map<string, string[]> {
  const table = cluster.store.table(
    coreResourceType('CustomResourceDefinition'),
  );
  const result = new Map<string, string[]>();
  for (const object of table.objects.values()) {
    const crd = JSON.parse(object.body.toString());
    result.set(crd.metadata.name, crd.status.storedVersions);
  }
  return result;
}

describe('the stored versions of the demo clusters Flux CRDs', () => {
  const fleet = generateFleet(
    resolveOptions({ size: 'S', seed: 1, epoch: '2026-11-30T12:00:00Z' }),
  );

  it('the v2.7.5 cluster was never migrated: its CRDs still store the versions Flux 2.8 removes', () => {
    const cluster = fleet[2];
    expect(cluster.fluxVersion).toBe('v2.7.5');
    const stored = storedVersions(cluster);
    expect(stored.get('kustomizations.kustomize.toolkit.fluxcd.io')).toEqual([
      'v1beta2',
      'v1',
    ]);
    expect(stored.get('helmreleases.helm.toolkit.fluxcd.io')).toEqual([
      'v2beta2',
      'v2',
    ]);
  });

  it('the other clusters store only their current version', () => {
    const stored = storedVersions(fleet[0]);
    expect(stored.get('kustomizations.kustomize.toolkit.fluxcd.io')).toEqual([
      'v1',
    ]);
  });
});
