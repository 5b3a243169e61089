import { mockServices } from '@backstage/backend-test-utils';
import type { AnalysisSettings } from '../config/FleetConfig';
import { FleetClusters } from '../index/FleetClusters';
import { FleetIndex } from '../index/FleetIndex';
import type { WatchedResource } from '../watch/WatchedResource';
import type { ClusterWatchHealth } from '../watch/ClusterWatcher';
import type { WatchHealthProbe } from '../watch/startWatching';

/** The Kustomization resource as a watch of it is set up. */
export const KUSTOMIZATIONS: WatchedResource = {
  group: 'kustomize.toolkit.fluxcd.io',
  version: 'v1',
  kind: 'Kustomization',
  plural: 'kustomizations',
};

/** The Deployment workloads resource. */
export const DEPLOYMENTS: WatchedResource = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
};

/** A Kustomization in namespace `apps`, Ready unless the status says otherwise. */
export function kustomization(
  name: string,
  options: {
    labels?: Record<string, string>;
    inventory?: string[];
    spec?: Record<string, unknown>;
    ready?: { status: string; reason: string; message: string };
    generation?: number;
  } = {},
) {
  const generation = options.generation ?? 1;
  const ready = options.ready ?? { status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied' };
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name, namespace: 'apps', generation, labels: options.labels ?? {} },
    spec: { interval: '10m', sourceRef: { kind: 'GitRepository', name: 'apps' }, ...options.spec },
    status: {
      observedGeneration: generation,
      conditions: [{ type: 'Ready', ...ready }],
      inventory: { entries: (options.inventory ?? []).map(id => ({ id, v: 'v1' })) },
    },
  };
}

/** A Deployment in namespace `apps`. */
export function deployment(name: string, labels: Record<string, string>) {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'apps', labels } };
}

/** The kustomize-controller Deployment of the `flux-system` instance (4 concurrent reconciles). */
export function kustomizeControllerDeployment() {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'kustomize-controller',
      namespace: 'flux-system',
      labels: { 'app.kubernetes.io/part-of': 'flux', 'app.kubernetes.io/component': 'kustomize-controller' },
    },
    spec: { template: { spec: { containers: [{ name: 'manager', args: ['--concurrent=4'] }] } } },
  };
}

/** The analysis settings of the unit tests: short, so that fake timers reach them in a few steps. */
export const TEST_ANALYSIS: AnalysisSettings = { debounceMs: 100, maxDelayMs: 500, refreshIntervalMs: 60_000 };

/** A fleet index of some clusters, with no watch, on the (fake or real) clock. */
export function testFleet(clusters: string[], analysis: AnalysisSettings = TEST_ANALYSIS) {
  const logger = mockServices.logger.mock();
  const fleet = new FleetClusters({ clusters, tenants: [], analysis, eventsPerObject: 5, logger });
  return { fleet, index: new FleetIndex(fleet, []), logger };
}

/** A fleet index of one cluster watched by a fake watch; `setHealth` changes its health and pushes it, as a watcher does. */
export function watchedTestFleet(cluster: string, initial: ClusterWatchHealth) {
  const { fleet, index } = testFleet([cluster]);
  let health = initial;
  fleet.attachWatch(cluster, watchProbe(() => health));
  const setHealth = (next: ClusterWatchHealth) => {
    health = next;
    fleet.connectionChanged(cluster);
  };
  return { fleet, index, setHealth };
}

/** The health a watch reports: every watch live and listed, or still listing (discovery not done). */
export function watchHealth(listed: boolean, over: Partial<ClusterWatchHealth['connection']> = {}): ClusterWatchHealth {
  return {
    connection: { status: listed ? 'synced' : 'syncing', since: 0, ...over },
    listed,
    discovered: listed,
    watches: [],
    servedVersions: { 'kustomize.toolkit.fluxcd.io': 'v1' },
  };
}

/** A watch probe answering from a health the test sets, as a watcher's answers from its informers. */
export function watchProbe(health: () => ClusterWatchHealth): WatchHealthProbe {
  return { health, listed: () => health().listed };
}
