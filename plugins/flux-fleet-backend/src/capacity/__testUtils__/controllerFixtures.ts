import type { ControllerComponent, FluxController, InstanceSummary } from '@flux-fleet/plugin-flux-fleet-common';

/** A controller Deployment of instance `flux-system`, shard `main`, `--concurrent=4`, as `flux install` makes it. */
export function testController(cluster: string, name: string, component: ControllerComponent): FluxController {
  return {
    cluster,
    instance: 'flux-system',
    name,
    component,
    shard: 'main',
    watchAllNamespaces: true,
    concurrent: 4,
    noCrossNamespaceRefs: false,
    noRemoteBases: false,
    operatorManaged: false,
  };
}

/** Instance `flux-system` of `cluster` with these controllers. */
export function testInstance(cluster: string, controllers: FluxController[]): InstanceSummary {
  return {
    cluster,
    name: 'flux-system',
    operatorManaged: false,
    watchAllNamespaces: true,
    lockdown: false,
    shards: ['main'],
    controllers,
    objectCount: 0,
  };
}
