import { controllerFromDeployment } from './controller';
import {
  fluxDeployment,
  shardedInstanceDeployments,
} from './fixtures/deployments';
import { createOwnerResolver, deriveOwner, OwnedObject } from './owner';
import type { FluxController } from './types';

function controllersOf(deployments: unknown[]): FluxController[] {
  return deployments.map(d => {
    const result = controllerFromDeployment('prod-eu', d);
    if (!result.controller) throw new Error(result.reason);
    return result.controller;
  });
}

const sharded = controllersOf(shardedInstanceDeployments());

function object(
  kind: string,
  namespace: string,
  labels: Record<string, string> = {},
): OwnedObject {
  return { kind: kind as OwnedObject['kind'], namespace, labels };
}

describe('deriveOwner', () => {
  it.each<[string, OwnedObject, readonly FluxController[], object]>([
    [
      'an unsharded Kustomization: the main kustomize-controller',
      object('Kustomization', 'team-payments'),
      sharded,
      {
        status: 'ok',
        instance: 'flux-system',
        shard: 'main',
        controller: 'kustomize-controller',
      },
    ],
    [
      'a Kustomization labelled for shard1: the shard1 controller',
      object('Kustomization', 'team-payments', {
        'sharding.fluxcd.io/key': 'shard1',
      }),
      sharded,
      {
        status: 'ok',
        instance: 'flux-system',
        shard: 'shard1',
        controller: 'kustomize-controller-shard1',
      },
    ],
    [
      'a GitRepository on shard2: the shard2 source-controller',
      object('GitRepository', 'team-shop', {
        'sharding.fluxcd.io/key': 'shard2',
      }),
      sharded,
      {
        status: 'ok',
        instance: 'flux-system',
        shard: 'shard2',
        controller: 'source-controller-shard2',
      },
    ],
    [
      'a HelmRelease labelled for a shard that does not exist: orphan',
      object('HelmRelease', 'team-shop', {
        'sharding.fluxcd.io/key': 'shard3',
      }),
      sharded,
      { status: 'orphan', instance: null, shard: null, controller: null },
    ],
    [
      'an Alert on shard1: notification-controller is never sharded and watches it',
      object('Alert', 'flux-system', { 'sharding.fluxcd.io/key': 'shard1' }),
      sharded,
      {
        status: 'ok',
        instance: 'flux-system',
        shard: 'main',
        controller: 'notification-controller',
      },
    ],
    [
      'an ImagePolicy in a cluster without image controllers: orphan',
      object('ImagePolicy', 'team-shop'),
      sharded,
      { status: 'orphan', instance: null, shard: null, controller: null },
    ],
    [
      'a FluxInstance in the instance namespace: the operator, main shard',
      object('FluxInstance', 'flux-system'),
      sharded,
      {
        status: 'ok',
        instance: 'flux-system',
        shard: 'main',
        controller: 'flux-operator',
      },
    ],
    [
      'a ResourceSet where no instance runs: the operator, no instance',
      object('ResourceSet', 'team-payments'),
      sharded,
      {
        status: 'ok',
        instance: null,
        shard: null,
        controller: 'flux-operator',
      },
    ],
    [
      'an ExternalArtifact: written by its producer, no controller',
      object('ExternalArtifact', 'flux-system'),
      sharded,
      {
        status: 'ok',
        instance: 'flux-system',
        shard: 'main',
        controller: null,
      },
    ],
    [
      'any object in a cluster without controllers: orphan',
      object('Kustomization', 'flux-system'),
      [],
      { status: 'orphan', instance: null, shard: null, controller: null },
    ],
  ])('%s', (_, obj, controllers, expected) => {
    expect(deriveOwner(obj, controllers)).toEqual(expected);
  });

  it('finds two instances that both watch every namespace without a selector: contested', () => {
    const controllers = controllersOf([
      fluxDeployment({
        name: 'kustomize-controller',
        namespace: 'flux-system',
      }),
      fluxDeployment({
        name: 'kustomize-controller',
        namespace: 'flux-tenants',
      }),
    ]);
    expect(deriveOwner(object('Kustomization', 'apps'), controllers)).toEqual({
      status: 'contested',
      instance: null,
      shard: null,
      controller: null,
      candidates: [
        {
          instance: 'flux-system',
          shard: 'main',
          controller: 'kustomize-controller',
        },
        {
          instance: 'flux-tenants',
          shard: 'main',
          controller: 'kustomize-controller',
        },
      ],
    });
  });

  it('finds overlapping shard selectors: contested', () => {
    const controllers = controllersOf([
      fluxDeployment({
        name: 'helm-controller-shard1',
        component: 'helm-controller',
        args: [
          '--watch-label-selector=sharding.fluxcd.io/key in (shard1,shard2)',
        ],
      }),
      fluxDeployment({
        name: 'helm-controller-shard2',
        component: 'helm-controller',
        args: ['--watch-label-selector=sharding.fluxcd.io/key=shard2'],
      }),
    ]);
    const owner = deriveOwner(
      object('HelmRelease', 'a', { 'sharding.fluxcd.io/key': 'shard2' }),
      controllers,
    );
    expect(owner.status).toBe('contested');
    expect(owner.candidates?.map(c => c.shard)).toEqual([
      'shard1+shard2',
      'shard2',
    ]);
    expect(
      deriveOwner(
        object('HelmRelease', 'a', { 'sharding.fluxcd.io/key': 'shard1' }),
        controllers,
      ),
    ).toMatchObject({ status: 'ok', shard: 'shard1+shard2' });
  });

  it('separates instances that watch only their own namespace', () => {
    const controllers = controllersOf([
      fluxDeployment({
        name: 'kustomize-controller',
        namespace: 'team-a',
        args: ['--watch-all-namespaces=false'],
      }),
      fluxDeployment({
        name: 'kustomize-controller',
        namespace: 'team-b',
        args: ['--watch-all-namespaces=false'],
      }),
    ]);
    expect(
      deriveOwner(object('Kustomization', 'team-a'), controllers),
    ).toMatchObject({ status: 'ok', instance: 'team-a' });
    expect(
      deriveOwner(object('Kustomization', 'team-b'), controllers),
    ).toMatchObject({ status: 'ok', instance: 'team-b' });
    expect(
      deriveOwner(object('Kustomization', 'team-c'), controllers),
    ).toMatchObject({ status: 'orphan' });
  });

  it('makes objects of a controller whose selector does not parse orphans', () => {
    const controllers = controllersOf([
      fluxDeployment({
        name: 'kustomize-controller',
        args: ['--watch-label-selector=sharding.fluxcd.io/key in ('],
      }),
    ]);
    expect(deriveOwner(object('Kustomization', 'a'), controllers).status).toBe(
      'orphan',
    );
  });
});

describe('createOwnerResolver', () => {
  const resolver = createOwnerResolver(sharded);

  it('returns one shared, frozen owner per controller so half a million objects do not each hold a copy', () => {
    const a = resolver.ownerOf(object('Kustomization', 'a'));
    const b = resolver.ownerOf(object('Kustomization', 'b'));
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it('says why an object is an orphan, naming each controller and what it selects', () => {
    expect(
      resolver.whyOrphan(
        object('HelmRelease', 'team-shop', {
          'sharding.fluxcd.io/key': 'shard3',
        }),
      ),
    ).toBe(
      'no helm-controller watches it (labels: sharding.fluxcd.io/key=shard3): ' +
        'flux-system/helm-controller selects !sharding.fluxcd.io/key; ' +
        'flux-system/helm-controller-shard1 selects sharding.fluxcd.io/key=shard1; ' +
        'flux-system/helm-controller-shard2 selects sharding.fluxcd.io/key=shard2',
    );
    expect(resolver.whyOrphan(object('ImagePolicy', 'team-shop'))).toBe(
      'there is no image-reflector-controller in the cluster',
    );
  });

  it('explains namespace scope and broken selectors', () => {
    const controllers = controllersOf([
      fluxDeployment({
        name: 'kustomize-controller',
        namespace: 'team-a',
        args: ['--watch-all-namespaces=false'],
      }),
      fluxDeployment({
        name: 'kustomize-controller',
        namespace: 'team-b',
        args: ['--watch-label-selector=a in ('],
      }),
    ]);
    expect(
      createOwnerResolver(controllers).whyOrphan(
        object('Kustomization', 'team-c'),
      ),
    ).toBe(
      'no kustomize-controller watches it (labels: none): ' +
        'team-a/kustomize-controller watches only its own namespace (--watch-all-namespaces=false); ' +
        'team-b/kustomize-controller has a selector that does not parse, so it watches nothing',
    );
  });
});
