import { controllerFromDeployment } from './controller';
import {
  fluxDeployment,
  shardedInstanceDeployments,
} from './fixtures/deployments';
import {
  fluxInstance,
  gitRepository,
  imagePolicy,
  readyKustomization,
} from './fixtures/fluxObjects';
import { normalizeFluxObject } from './normalize';
import { deriveOwner } from './owner';
import type { FluxObjectRecord } from './record';
import {
  BOUNDARY_REASONS,
  deriveTenancyBoundary,
  tenantFromMapping,
  tenantOf,
} from './tenancy';
import type { FluxController, TenantMapping } from './types';

function controllersOf(deployments: unknown[]): FluxController[] {
  return deployments.map(d => {
    const result = controllerFromDeployment('prod-eu', d);
    if (!result.controller) throw new Error(result.reason);
    return result.controller;
  });
}

function recordOf(raw: unknown): FluxObjectRecord {
  const result = normalizeFluxObject('prod-eu', raw);
  if (!result.record) throw new Error(result.error);
  return result.record;
}

/** A Kustomization on shard1 with or without its own service account. */
function kustomization(
  serviceAccountName?: string,
  labels?: Record<string, string>,
) {
  const k = readyKustomization() as any;
  if (serviceAccountName) k.spec.serviceAccountName = serviceAccountName;
  else delete k.spec.serviceAccountName;
  Object.assign(k.metadata.labels, labels);
  return recordOf(k);
}

const instances = {
  open: controllersOf(shardedInstanceDeployments()),
  lockdown: controllersOf(shardedInstanceDeployments({ lockdown: true })),
  defaultSa: controllersOf(
    shardedInstanceDeployments({ defaultServiceAccount: 'flux-tenant' }),
  ),
  lockdownAndDefaultSa: controllersOf(
    shardedInstanceDeployments({
      lockdown: true,
      defaultServiceAccount: 'flux-tenant',
    }),
  ),
};

function boundary(
  record: FluxObjectRecord,
  controllers: FluxController[],
  nsLabels?: Record<string, string>,
  mapping?: TenantMapping,
) {
  return deriveTenancyBoundary(
    record,
    deriveOwner(record, controllers),
    controllers,
    nsLabels,
    mapping,
  );
}

describe('deriveTenancyBoundary of Kustomizations and HelmReleases', () => {
  it.each<[string, FluxObjectRecord, FluxController[], object]>([
    [
      'lockdown and spec.serviceAccountName: enforced',
      kustomization('team-payments'),
      instances.lockdown,
      {
        enforcement: 'enforced',
        serviceAccount: 'team-payments',
        serviceAccountSource: 'object',
        lockdown: true,
        reasons: [],
      },
    ],
    [
      'lockdown and the default service account: enforced',
      kustomization(),
      instances.lockdownAndDefaultSa,
      {
        enforcement: 'enforced',
        serviceAccount: 'flux-tenant',
        serviceAccountSource: 'default',
        lockdown: true,
        reasons: [],
      },
    ],
    [
      'spec.serviceAccountName wins over the default',
      kustomization('team-payments'),
      instances.lockdownAndDefaultSa,
      {
        enforcement: 'enforced',
        serviceAccount: 'team-payments',
        serviceAccountSource: 'object',
      },
    ],
    [
      'lockdown without any service account: partial, runs as the controller',
      kustomization(),
      instances.lockdown,
      {
        enforcement: 'partial',
        serviceAccount: null,
        serviceAccountSource: 'controller',
        lockdown: true,
        reasons: [BOUNDARY_REASONS.controllerIdentity],
      },
    ],
    [
      'a service account without lockdown: partial',
      kustomization('team-payments'),
      instances.open,
      {
        enforcement: 'partial',
        lockdown: false,
        reasons: [BOUNDARY_REASONS.crossNamespaceRefs],
      },
    ],
    [
      'neither: none, with both reasons',
      kustomization(),
      instances.open,
      {
        enforcement: 'none',
        serviceAccount: null,
        reasons: [
          BOUNDARY_REASONS.controllerIdentity,
          BOUNDARY_REASONS.crossNamespaceRefs,
        ],
      },
    ],
    [
      'an orphan with a service account: partial, no controller watches it',
      kustomization('team-payments', { 'sharding.fluxcd.io/key': 'shard9' }),
      instances.lockdownAndDefaultSa,
      {
        instance: null,
        enforcement: 'partial',
        serviceAccount: 'team-payments',
        lockdown: false,
        reasons: [BOUNDARY_REASONS.orphan],
      },
    ],
    [
      'an orphan without a service account: none (no default applies)',
      kustomization(undefined, { 'sharding.fluxcd.io/key': 'shard9' }),
      instances.lockdownAndDefaultSa,
      {
        enforcement: 'none',
        serviceAccount: null,
        serviceAccountSource: 'controller',
        reasons: [
          BOUNDARY_REASONS.orphan,
          BOUNDARY_REASONS.orphanWithoutServiceAccount,
        ],
      },
    ],
  ])('%s', (_, record, controllers, expected) => {
    expect(boundary(record, controllers)).toMatchObject({
      cluster: 'prod-eu',
      namespace: 'team-payments',
      ...expected,
    });
  });

  it('gives contested objects the weakest boundary of their candidates, and says so', () => {
    const controllers = controllersOf([
      fluxDeployment({
        name: 'kustomize-controller',
        namespace: 'flux-locked',
        args: [
          '--no-cross-namespace-refs=true',
          '--default-service-account=flux',
        ],
      }),
      fluxDeployment({ name: 'kustomize-controller', namespace: 'flux-open' }),
    ]);
    expect(boundary(kustomization(), controllers)).toMatchObject({
      instance: 'flux-open',
      enforcement: 'none',
      serviceAccount: null,
      reasons: [
        'reconciled by 2 controllers; the weakest boundary among them is shown (instance flux-open)',
        BOUNDARY_REASONS.controllerIdentity,
        BOUNDARY_REASONS.crossNamespaceRefs,
      ],
    });
  });

  it('takes the first candidate in instance order when candidates are equally weak', () => {
    const controllers = controllersOf([
      fluxDeployment({
        name: 'kustomize-controller',
        namespace: 'flux-b',
        args: ['--default-service-account=b'],
      }),
      fluxDeployment({
        name: 'kustomize-controller',
        namespace: 'flux-a',
        args: ['--default-service-account=a'],
      }),
    ]);
    expect(boundary(kustomization(), controllers)).toMatchObject({
      instance: 'flux-a',
      enforcement: 'partial',
      serviceAccount: 'a',
      serviceAccountSource: 'default',
    });
  });
});

describe('deriveTenancyBoundary of other kinds', () => {
  it('has no service account and is enforced only under lockdown', () => {
    const policy = recordOf(imagePolicy());
    const controllers = controllersOf([
      fluxDeployment({
        name: 'image-reflector-controller',
        args: ['--no-cross-namespace-refs=true'],
      }),
    ]);
    expect(boundary(policy, controllers)).toMatchObject({
      enforcement: 'enforced',
      serviceAccount: null,
      serviceAccountSource: null,
      lockdown: true,
      reasons: [],
    });
  });

  it("locks sources down when the instance's controllers that have the flag all run with it", () => {
    expect(
      boundary(recordOf(gitRepository()), instances.lockdown),
    ).toMatchObject({
      instance: 'flux-system',
      enforcement: 'enforced',
      lockdown: true,
    });
    expect(boundary(recordOf(gitRepository()), instances.open)).toMatchObject({
      enforcement: 'none',
      lockdown: false,
      reasons: [BOUNDARY_REASONS.instanceWithoutLockdown],
    });
  });

  it('says that the flux-operator enforces no boundary on its own kinds', () => {
    expect(
      boundary(recordOf(fluxInstance()), instances.lockdown),
    ).toMatchObject({
      instance: 'flux-system',
      enforcement: 'none',
      lockdown: false,
      reasons: [BOUNDARY_REASONS.operator],
    });
  });
});

describe('tenants', () => {
  const mapping: TenantMapping = [
    { tenant: 'payments', namespaces: ['team-payments', 'payments-*'] },
    { tenant: 'edge', namespaces: ['*'], clusters: ['edge-1'] },
  ];

  it.each<
    [
      string,
      Record<string, string>,
      Record<string, string> | undefined,
      string,
      string | null,
    ]
  >([
    [
      'the label on the object first',
      { 'toolkit.fluxcd.io/tenant': 'platform' },
      { 'toolkit.fluxcd.io/tenant': 'payments-ns' },
      'team-payments',
      'platform',
    ],
    [
      'then the label on its namespace',
      {},
      { 'toolkit.fluxcd.io/tenant': 'payments-ns' },
      'team-payments',
      'payments-ns',
    ],
    ['then the configured mapping', {}, undefined, 'team-payments', 'payments'],
    [
      'with * matching any run of characters',
      {},
      {},
      'payments-batch',
      'payments',
    ],
    ['else none', {}, {}, 'kube-system', null],
  ])('come from %s', (_, labels, nsLabels, namespace, expected) => {
    expect(
      tenantOf({ cluster: 'prod-eu', namespace, labels }, nsLabels, mapping),
    ).toBe(expected);
  });

  it('apply a mapping entry only in its clusters', () => {
    expect(tenantFromMapping(mapping, 'edge-1', 'kube-system')).toBe('edge');
    expect(tenantFromMapping(mapping, 'prod-eu', 'kube-system')).toBeNull();
    expect(tenantFromMapping(undefined, 'prod-eu', 'x')).toBeNull();
  });

  it('treat regular-expression characters in namespaces literally', () => {
    expect(
      tenantFromMapping([{ tenant: 't', namespaces: ['a.b'] }], 'c', 'axb'),
    ).toBeNull();
    expect(
      tenantFromMapping([{ tenant: 't', namespaces: ['a.b'] }], 'c', 'a.b'),
    ).toBe('t');
  });

  it('end up in the boundary', () => {
    const record = kustomization('team-payments');
    expect(
      boundary(record, instances.lockdown, {
        'toolkit.fluxcd.io/tenant': 'payments',
      }).tenant,
    ).toBe('payments');
    expect(
      boundary(record, instances.lockdown, undefined, mapping).tenant,
    ).toBe('payments');
    expect(boundary(record, instances.lockdown).tenant).toBeNull();
  });
});
