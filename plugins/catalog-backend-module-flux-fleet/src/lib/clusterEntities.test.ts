import {
  DefaultNamespaceEntityPolicy,
  Entity,
  EntityPolicies,
  FieldFormatEntityPolicy,
  NoForeignRootFieldsEntityPolicy,
  resourceEntityV1alpha1Validator,
  SchemaValidEntityPolicy,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { FluxKind } from '@flux-fleet/plugin-flux-fleet-common';
import {
  fleetObject,
  instanceSummary,
  prodEu1,
  shardSummary,
} from '../__testUtils__/fleetFixtures';
import { buildClusterEntities, ClusterStructure } from './clusterEntities';
import { TenantOwners } from './TenantOwners';

const options = {
  providerId: 'default',
  kinds: new Set<FluxKind>(['Kustomization', 'HelmRelease', 'GitRepository']),
  owners: new TenantOwners(
    {
      defaultOwner: 'group:default/platform',
      tenantOwners: {},
      tenantOwnerPattern: 'group:default/{tenant}',
    },
    [],
  ),
  serviceComponents: (service: string) => [`component:default/${service}`],
};

// What the catalog checks before it accepts an entity: the envelope policies and the Resource kind's schema.
const catalogPolicy = EntityPolicies.allOf([
  new SchemaValidEntityPolicy(),
  new DefaultNamespaceEntityPolicy(),
  new NoForeignRootFieldsEntityPolicy(),
  new FieldFormatEntityPolicy(),
]);

async function expectAcceptedByCatalog(entities: Entity[]) {
  for (const entity of entities) {
    const copy = JSON.parse(JSON.stringify(entity));
    await expect(catalogPolicy.enforce(copy)).resolves.toBeDefined();
    await expect(resourceEntityV1alpha1Validator.check(copy)).resolves.toBe(true);
  }
}

/** A cluster whose names are as awkward as configurations and Kubernetes allow. */
function awkwardCluster(): ClusterStructure {
  const cluster = 'Prod EU #1 (Frankfurt) — primary region for the payments platform';
  const longNamespace = `team-${'x'.repeat(58)}`;
  return {
    cluster,
    instances: [instanceSummary(cluster, 'flux-system', ['main', 'shard-a.b_c'])],
    shards: [
      shardSummary(cluster, 'flux-system', 'main'),
      shardSummary(cluster, 'flux-system', 'shard-a.b_c'),
    ],
    objects: [
      fleetObject({
        cluster,
        namespace: longNamespace,
        kind: 'Kustomization',
        name: `a-very-long-kustomization-name-${'y'.repeat(200)}`,
        owner: 'flux-system/shard-a.b_c',
        tenant: 'Payments & Billing',
        service: 'payments_api.v2',
      }),
      fleetObject({
        cluster,
        namespace: 'apps',
        kind: 'HelmRelease',
        name: 'checkout',
        owner: 'contested',
        tenant: 'shop',
        // Not a valid entity name: the relation is left out, the annotation kept.
        service: 'Checkout Service',
      }),
      fleetObject({
        cluster,
        namespace: 'apps',
        kind: 'GitRepository',
        name: 'apps',
        owner: 'flux-system/main',
      }),
    ],
  };
}

describe('buildClusterEntities', () => {
  it('gives entities the catalog accepts for an ordinary cluster', async () => {
    const { entities, problems } = buildClusterEntities(
      { cluster: 'prod-eu-1', ...prodEu1() },
      options,
    );
    expect(problems).toEqual([]);
    // The cluster, its instance, 3 shards, 3 Kustomizations, 1 HelmRelease and 2 GitRepositories.
    expect(entities).toHaveLength(11);
    await expectAcceptedByCatalog(entities);
  });

  it('gives valid, distinct, stable names and label values for awkward and long names', async () => {
    const first = buildClusterEntities(awkwardCluster(), options);
    const again = buildClusterEntities(awkwardCluster(), options);

    expect(first.problems).toEqual([]);
    await expectAcceptedByCatalog(first.entities);
    const refs = first.entities.map(e => stringifyEntityRef(e));
    expect(new Set(refs).size).toBe(refs.length);
    expect(again.entities).toEqual(first.entities);
    for (const entity of first.entities) {
      expect(entity.metadata.name.length).toBeLessThanOrEqual(63);
    }
  });

  it('keeps the values as they are in annotations while labels carry sanitised ones', () => {
    const { entities } = buildClusterEntities(awkwardCluster(), options);
    const kustomization = entities.find(e => e.spec?.type === 'flux-kustomization')!;

    expect(kustomization.metadata.annotations?.['flux-fleet.io/tenant']).toBe('Payments & Billing');
    // Sanitising lost characters, so a hash keeps different tenants apart.
    expect(kustomization.metadata.labels?.['flux-fleet.io/tenant']).toMatch(/^Payments-Billing-[0-9a-f]{10}$/);
    expect(kustomization.metadata.annotations?.['flux-fleet.io/cluster']).toBe(
      'Prod EU #1 (Frankfurt) — primary region for the payments platform',
    );
    // A tenant whose name is no group name falls back to the default owner.
    expect(kustomization.spec?.owner).toBe('group:default/platform');
  });

  it('relates an object to a Component only when the service is a valid entity name', () => {
    const { entities } = buildClusterEntities(awkwardCluster(), options);
    const helmRelease = entities.find(e => e.spec?.type === 'flux-helmrelease')!;
    const kustomization = entities.find(e => e.spec?.type === 'flux-kustomization')!;

    expect(helmRelease.metadata.annotations?.['backstage.io/kubernetes-id']).toBe('Checkout Service');
    expect(kustomization.spec?.dependencyOf).toEqual(['component:default/payments_api.v2']);
  });

  it('names every candidate of a contested object and relates it to no shard', () => {
    const { entities } = buildClusterEntities(awkwardCluster(), options);
    const helmRelease = entities.find(e => e.spec?.type === 'flux-helmrelease')!;

    expect(helmRelease.metadata.description).toContain(
      'Watched by several controllers (contested): flux-system shard main and flux-system shard shard1.',
    );
    expect(helmRelease.spec).not.toHaveProperty('dependsOn');
    expect(helmRelease.metadata.labels).not.toHaveProperty('flux-fleet.io/shard');
  });

  it('relates only to objects that exist: a missing dependsOn target or source gives no relation', () => {
    const cluster = 'prod-eu-1';
    const { entities } = buildClusterEntities(
      {
        cluster,
        instances: [instanceSummary(cluster, 'flux-system', ['main'])],
        shards: [shardSummary(cluster, 'flux-system', 'main')],
        objects: [
          fleetObject({
            cluster,
            namespace: 'apps',
            kind: 'Kustomization',
            name: 'api',
            owner: 'flux-system/main',
            sourceRef: { kind: 'GitRepository', namespace: 'apps', name: 'gone' },
            dependsOn: [{ kind: 'Kustomization', namespace: 'apps', name: 'never-created' }],
          }),
        ],
      },
      options,
    );
    const api = entities.find(e => e.metadata.name.endsWith('.api'))!;
    expect(api.spec).not.toHaveProperty('dependsOn');
    // Its shard is a label, never a relation: a shard would be the target of every object it reconciles.
    expect(api.metadata.labels?.['flux-fleet.io/shard']).toBe('main');
  });

  it('skips a shard whose instance the index does not list, and says so', () => {
    const cluster = 'prod-eu-1';
    const { entities, problems } = buildClusterEntities(
      {
        cluster,
        instances: [],
        shards: [shardSummary(cluster, 'flux-system', 'main')],
        objects: [],
      },
      options,
    );
    expect(entities.map(e => e.metadata.name)).toEqual(['prod-eu-1']);
    expect(problems).toEqual([
      'Shard main of cluster prod-eu-1 names instance flux-system, which the index does not list; skipped',
    ]);
  });
});
