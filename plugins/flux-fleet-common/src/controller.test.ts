import {
  compareControllers,
  controllerFromDeployment,
  imageTag,
  parseControllerFlags,
  shardNameOfSelector,
} from './controller';
import {
  fluxDeployment,
  shardedInstanceDeployments,
} from './fixtures/deployments';
import type { FluxController } from './types';

function controllerOf(deployment: unknown): FluxController {
  const result = controllerFromDeployment('prod-eu', deployment);
  if (!result.controller) throw new Error(result.reason);
  return result.controller;
}

describe('controllerFromDeployment', () => {
  it('reads a main kustomize-controller of flux install', () => {
    const controller = controllerOf(
      fluxDeployment({
        name: 'kustomize-controller',
        args: [
          '--events-addr=http://notification-controller.flux-system.svc.cluster.local./',
          '--watch-all-namespaces=true',
          '--log-level=info',
          '--enable-leader-election',
          '--concurrent=10',
          '--watch-label-selector=!sharding.fluxcd.io/key',
        ],
      }),
    );
    expect(controller).toEqual({
      cluster: 'prod-eu',
      instance: 'flux-system',
      name: 'kustomize-controller',
      component: 'kustomize-controller',
      shard: 'main',
      selector: '!sharding.fluxcd.io/key',
      watchAllNamespaces: true,
      concurrent: 10,
      defaultServiceAccount: undefined,
      noCrossNamespaceRefs: false,
      noRemoteBases: false,
      version: 'v2.8.3',
      imageVersion: 'v1.8.2',
      operatorManaged: false,
      replicas: 1,
      readyReplicas: 1,
    });
  });

  it('reads a shard controller and its lockdown flags', () => {
    const controller = controllerOf(
      fluxDeployment({
        name: 'helm-controller-shard2',
        namespace: 'flux-tenants',
        component: 'helm-controller',
        operatorManaged: true,
        args: [
          '--watch-label-selector',
          'sharding.fluxcd.io/key=shard2',
          '--no-cross-namespace-refs',
          '--default-service-account',
          'flux-tenant',
          '--watch-all-namespaces=false',
          '--no-remote-bases=true',
        ],
      }),
    );
    expect(controller).toMatchObject({
      instance: 'flux-tenants',
      name: 'helm-controller-shard2',
      component: 'helm-controller',
      shard: 'shard2',
      selector: 'sharding.fluxcd.io/key=shard2',
      watchAllNamespaces: false,
      concurrent: 4,
      defaultServiceAccount: 'flux-tenant',
      noCrossNamespaceRefs: true,
      noRemoteBases: true,
      operatorManaged: true,
    });
    expect(controller.problems).toBeUndefined();
  });

  it.each([
    ['source-controller', 2],
    ['kustomize-controller', 4],
    ['helm-controller', 4],
    ['notification-controller', 4],
    ['image-reflector-controller', 4],
    ['image-automation-controller', 4],
    ['source-watcher', 4],
  ])('defaults --concurrent of %s to %d', (name, concurrent) => {
    expect(controllerOf(fluxDeployment({ name })).concurrent).toBe(concurrent);
  });

  it('reads a source-watcher shard (Flux 2.9) like the other controllers', () => {
    const controller = controllerOf(
      fluxDeployment({
        name: 'source-watcher-shard1',
        component: null,
        image: 'ghcr.io/fluxcd/source-watcher:v2.2.3',
        args: ['--watch-label-selector=sharding.fluxcd.io/key in (shard1)'],
      }),
    );
    expect(controller).toMatchObject({
      component: 'source-watcher',
      shard: 'shard1',
      imageVersion: 'v2.2.3',
    });
  });

  it('finds the component from the name when the label is absent', () => {
    const controller = controllerOf(
      fluxDeployment({ name: 'source-controller-shard1', component: null }),
    );
    expect(controller.component).toBe('source-controller');
  });

  it("reads the image tag as the controller's own version, never as the Flux version (plain install.yaml)", () => {
    const deployment = fluxDeployment({
      name: 'kustomize-controller',
      image:
        'registry.example.com:5000/fluxcd/kustomize-controller:v1.7.0@sha256:4cc5babdb1279ad0177bf513292deadbfa3f7b7c3da0be7fa53b39ab434f7219',
    });
    delete deployment.metadata!.labels!['app.kubernetes.io/version'];
    const controller = controllerOf(deployment);
    expect(controller.imageVersion).toBe('v1.7.0');
    expect(controller.version).toBeUndefined();
  });

  it('reads the replicas and how many are ready', () => {
    const controller = controllerOf(
      fluxDeployment({
        name: 'helm-controller',
        replicas: 2,
        readyReplicas: 0,
      }),
    );
    expect(controller).toMatchObject({ replicas: 2, readyReplicas: 0 });
  });

  it('reads flags from command when the container has no args', () => {
    const deployment = fluxDeployment({ name: 'kustomize-controller' });
    const container = deployment.spec!.template!.spec!.containers![0];
    delete container.args;
    container.command = [
      '/manager',
      '--concurrent=20',
      '--no-cross-namespace-refs=true',
    ];
    expect(controllerOf(deployment)).toMatchObject({
      concurrent: 20,
      noCrossNamespaceRefs: true,
    });
  });

  it('reads odd flags as their defaults and says why', () => {
    const controller = controllerOf(
      fluxDeployment({
        name: 'kustomize-controller',
        args: [
          '--concurrent=lots',
          '--watch-all-namespaces=yes',
          '--no-cross-namespace-refs=maybe',
        ],
      }),
    );
    expect(controller).toMatchObject({
      concurrent: 4,
      watchAllNamespaces: true,
      noCrossNamespaceRefs: false,
    });
    expect(controller.problems).toEqual([
      'Deployment flux-system/kustomize-controller in cluster prod-eu: --concurrent=lots is not a positive whole number; read as the default 4',
      'Deployment flux-system/kustomize-controller in cluster prod-eu: --watch-all-namespaces=yes is not true or false (the controller would refuse to start); read as true',
      'Deployment flux-system/kustomize-controller in cluster prod-eu: --no-cross-namespace-refs=maybe is not true or false (the controller would refuse to start); read as false',
    ]);
  });

  it('keeps a controller with a malformed selector but says it watches nothing', () => {
    const controller = controllerOf(
      fluxDeployment({
        name: 'kustomize-controller-shard9',
        component: 'kustomize-controller',
        args: ['--watch-label-selector=sharding.fluxcd.io/key in (shard9'],
      }),
    );
    expect(controller.shard).toBe('sharding.fluxcd.io/keyin(shard9');
    expect(controller.selectorError).toContain('invalid label selector');
    expect(controller.problems?.[0]).toContain('watches nothing');
  });

  it.each([
    [
      'a Deployment without the part-of label',
      {
        metadata: {
          name: 'podinfo',
          namespace: 'apps',
          labels: { app: 'podinfo' },
        },
      },
      'Deployment apps/podinfo in cluster prod-eu is not a Flux controller: it is not labelled app.kubernetes.io/part-of=flux',
    ],
    [
      'a part of Flux that is not a controller',
      fluxDeployment({ name: 'flux-operator', component: 'operator' }),
      "Deployment flux-system/flux-operator in cluster prod-eu is not a Flux controller: its app.kubernetes.io/component label 'operator' is not a Flux controller",
    ],
    [
      'an unknown name without a component label',
      fluxDeployment({ name: 'tf-controller', component: null }),
      'Deployment flux-system/tf-controller in cluster prod-eu is not a Flux controller: it has no app.kubernetes.io/component label and its name is not that of a Flux controller',
    ],
    [
      'a Deployment without a name',
      { metadata: { namespace: 'flux-system' } },
      'cluster prod-eu: Deployment flux-system/? has no name or namespace',
    ],
    [
      'null',
      null,
      'cluster prod-eu: a Deployment should be an object, got null',
    ],
    [
      'text',
      'kustomize-controller',
      'cluster prod-eu: a Deployment should be an object, got string',
    ],
  ])('says why %s is not a controller', (_, deployment, reason) => {
    expect(controllerFromDeployment('prod-eu', deployment)).toEqual({ reason });
  });

  it('never throws on Deployments of the wrong shape', () => {
    const odd: unknown[] = [
      { metadata: 'x' },
      {
        metadata: {
          name: 'kustomize-controller',
          namespace: 'f',
          labels: { 'app.kubernetes.io/part-of': 'flux' },
        },
        spec: [],
      },
      {
        metadata: {
          name: 'kustomize-controller',
          namespace: 'f',
          labels: { 'app.kubernetes.io/part-of': 'flux' },
        },
        spec: { template: { spec: { containers: 'no' } } },
      },
      {
        metadata: {
          name: 'kustomize-controller',
          namespace: 'f',
          labels: { 'app.kubernetes.io/part-of': 'flux' },
        },
        spec: {
          template: {
            spec: { containers: [{ args: [1, null, '--concurrent=3'] }] },
          },
        },
      },
    ];
    for (const deployment of odd) {
      expect(() => controllerFromDeployment('c', deployment)).not.toThrow();
    }
    expect(controllerOf(odd[3]).concurrent).toBe(3);
  });
});

describe('shardNameOfSelector', () => {
  it.each([
    [undefined, 'main'],
    ['', 'main'],
    ['!sharding.fluxcd.io/key', 'main'],
    ['!sharding.fluxcd.io/key,!team', 'main'],
    ['sharding.fluxcd.io/key=shard1', 'shard1'],
    ['sharding.fluxcd.io/key==shard1', 'shard1'],
    ['sharding.fluxcd.io/key in (shard1)', 'shard1'],
    ['sharding.fluxcd.io/key in (shard2, shard1)', 'shard1+shard2'],
    ['team = payments, tier=web', 'team=payments,tier=web'],
    [
      'sharding.fluxcd.io/key notin (shard1)',
      'sharding.fluxcd.io/keynotin(shard1)',
    ],
    ['sharding.fluxcd.io/key', 'sharding.fluxcd.io/key'],
  ])('names the shard of %j %j', (selector, shard) => {
    expect(shardNameOfSelector(selector)).toBe(shard);
  });
});

describe('parseControllerFlags', () => {
  it('reads --flag=value, --flag value and boolean --flag like pflag', () => {
    const flags = parseControllerFlags([
      '--concurrent=4',
      '--default-service-account',
      'tenant',
      '--no-cross-namespace-refs',
      'true',
      '--concurrent',
      '8',
      '--log-level',
      '--',
      '--no-remote-bases',
    ]);
    expect(Object.fromEntries(flags)).toEqual({
      concurrent: '8',
      'default-service-account': 'tenant',
      'no-cross-namespace-refs': 'true',
      'log-level': '',
    });
  });
});

describe('imageTag', () => {
  it.each([
    ['ghcr.io/fluxcd/kustomize-controller:v1.8.3', 'v1.8.3'],
    ['ghcr.io/fluxcd/kustomize-controller:v1.8.3@sha256:abc', 'v1.8.3'],
    ['localhost:5000/kustomize-controller', undefined],
    ['kustomize-controller', undefined],
    ['kustomize-controller:', undefined],
  ])('reads the tag of %j', (image, tag) => {
    expect(imageTag(image)).toBe(tag);
  });
});

describe('compareControllers', () => {
  it('orders a sharded instance by shard with main first', () => {
    const controllers = shardedInstanceDeployments()
      .map(controllerOf)
      .reverse()
      .sort(compareControllers);
    expect(controllers.map(c => `${c.shard}:${c.name}`)).toEqual([
      'main:helm-controller',
      'main:kustomize-controller',
      'main:notification-controller',
      'main:source-controller',
      'shard1:helm-controller-shard1',
      'shard1:kustomize-controller-shard1',
      'shard1:source-controller-shard1',
      'shard2:helm-controller-shard2',
      'shard2:kustomize-controller-shard2',
      'shard2:source-controller-shard2',
    ]);
  });
});
