import type { WatchedResource } from './WatchedResource';

/* What a cluster watcher watches besides the Flux kinds it discovers. */

/** The Flux controllers' Deployments (Flux labels them part-of=flux). */
export const FLUX_CONTROLLERS: WatchedResource = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  labelSelector: 'app.kubernetes.io/part-of=flux',
};

/** Workloads that carry the service label, read by a label-selected watch (rules §6). */
export const WORKLOADS: WatchedResource[] = [
  ['apps', 'Deployment', 'deployments'],
  ['apps', 'StatefulSet', 'statefulsets'],
  ['apps', 'DaemonSet', 'daemonsets'],
  ['batch', 'CronJob', 'cronjobs'],
].map(([group, kind, plural]) => ({
  group,
  version: 'v1',
  kind,
  plural,
  labelSelector: 'backstage.io/kubernetes-id',
  // their labels are all the index keeps (rules §6)
  metadataOnly: true,
}));

/** The Flux CRDs (Flux labels them part-of=flux), for their `status.storedVersions` (rules §10). */
export const FLUX_CRDS: WatchedResource = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  labelSelector: 'app.kubernetes.io/part-of=flux',
};

/** Every namespace, for tenancy (rules §5). */
export const NAMESPACES: WatchedResource = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  // their names and labels are all the index keeps (rules §5)
  metadataOnly: true,
};

/**
 * A field selector that leaves out the Events of the kinds that make most of a cluster's Events (Pods,
 * ReplicaSets, Nodes…), which are never about a Flux object. Field selectors cannot say "group is one of", so
 * what remains is filtered on arrival by the store.
 */
const EVENTS_FIELD_SELECTOR = [
  'Pod',
  'ReplicaSet',
  'Node',
  'Job',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'Service',
  'Endpoints',
  'PersistentVolumeClaim',
  'HorizontalPodAutoscaler',
  'Lease',
]
  .map(kind => `involvedObject.kind!=${kind}`)
  .join(',');

/** Events about Flux objects (and some others, filtered on arrival). */
export const EVENTS: WatchedResource = {
  group: '',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  fieldSelector: EVENTS_FIELD_SELECTOR,
};
