/**
 * Objects of a Flux installation: the controller Deployments (labels and container args Flux and the Flux
 * Operator set), the flux-operator Deployment, the CRDs, and the Flux Operator kinds (FluxInstance, FluxReport,
 * ResourceSet, ResourceSetInputProvider). `@kubernetes-models/flux-cd` has no `fluxcd.controlplane.io` kinds:
 * their shapes here are typed by hand from the CRDs in shared/crds.
 */
import { FLUX_OPERATOR_VERSION, type FluxRelease } from '../api/fluxReleases';
import { groupVersion, type ServedResource } from '../api/resourceTypes';
import { conditionsFor } from './conditions';
import type { ControllerSpec } from './model';
import type { InstancePlan } from './clusterPlan';
import type { Meta, StatusFacts } from './fluxObjects';

/** The container args of a controller, as `flux install` / the Flux Operator render them. */
export function controllerArgs(
  spec: ControllerSpec,
  defaultConcurrency: number,
): string[] {
  const args: string[] = [];
  if (spec.component !== 'notification-controller') {
    args.push(
      `--events-addr=http://notification-controller.${spec.instance}.svc.cluster.local./`,
    );
  }
  args.push(`--watch-all-namespaces=${spec.watchAllNamespaces}`);
  args.push(
    '--log-level=info',
    '--log-encoding=json',
    '--enable-leader-election',
  );
  if (spec.component === 'source-controller') {
    args.push(
      '--storage-path=/data',
      `--storage-adv-addr=${spec.name}.$(RUNTIME_NAMESPACE).svc.cluster.local.`,
    );
  }
  if (spec.concurrent !== defaultConcurrency)
    args.push(`--concurrent=${spec.concurrent}`);
  if (
    spec.component === 'kustomize-controller' ||
    spec.component === 'helm-controller'
  ) {
    args.push('--requeue-dependency=5s');
  }
  if (spec.noCrossNamespaceRefs) args.push('--no-cross-namespace-refs=true');
  if (spec.noRemoteBases) args.push('--no-remote-bases=true');
  if (spec.defaultServiceAccount) {
    args.push(`--default-service-account=${spec.defaultServiceAccount}`);
  }
  if (spec.selector !== undefined)
    args.push(`--watch-label-selector=${spec.selector}`);
  return args;
}

/** A controller Deployment. */
export function controllerDeployment(
  spec: ControllerSpec,
  release: FluxRelease,
  meta: { uid: string; created: string },
  defaultConcurrency: number,
): Record<string, unknown> {
  const labels: Record<string, string> = {
    'app.kubernetes.io/component': spec.component,
    'app.kubernetes.io/instance': spec.instance,
    'app.kubernetes.io/part-of': 'flux',
    ...(spec.version ? { 'app.kubernetes.io/version': spec.version } : {}),
    'control-plane': 'controller',
  };
  if (spec.operatorManaged) {
    labels['app.kubernetes.io/managed-by'] = 'flux-operator';
    labels['fluxcd.controlplane.io/name'] = 'flux';
    labels['fluxcd.controlplane.io/namespace'] = spec.instance;
  }
  const annotations: Record<string, string> = {};
  if (spec.name !== spec.component)
    annotations['sharding.fluxcd.io/role'] = 'shard';
  const tag = release.controllerTags[spec.component] ?? release.version;
  const ready = spec.replicas;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: spec.name,
      namespace: spec.instance,
      uid: meta.uid,
      generation: 1,
      creationTimestamp: meta.created,
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: { app: spec.name } },
      template: {
        metadata: {
          labels: { app: spec.name },
          annotations: {
            'prometheus.io/port': '8080',
            'prometheus.io/scrape': 'true',
          },
        },
        spec: {
          serviceAccountName: spec.component,
          containers: [
            {
              name: 'manager',
              image: `ghcr.io/fluxcd/${spec.component}:${tag}`,
              args: controllerArgs(spec, defaultConcurrency),
              env: [
                {
                  name: 'RUNTIME_NAMESPACE',
                  valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } },
                },
              ],
              ports: [
                { containerPort: 8080, name: 'http-prom', protocol: 'TCP' },
                { containerPort: 9440, name: 'healthz', protocol: 'TCP' },
              ],
              resources: {
                limits: { cpu: '1000m', memory: '1Gi' },
                requests: { cpu: '100m', memory: '64Mi' },
              },
            },
          ],
        },
      },
    },
    status: {
      observedGeneration: 1,
      ...(ready > 0
        ? {
            replicas: ready,
            readyReplicas: ready,
            availableReplicas: ready,
            updatedReplicas: ready,
          }
        : {}),
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
          lastUpdateTime: meta.created,
          lastTransitionTime: meta.created,
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${spec.name}-7d9c6b5f4d" has successfully progressed.`,
          lastUpdateTime: meta.created,
          lastTransitionTime: meta.created,
        },
      ],
    },
  };
}

/** The flux-operator Deployment (not a Flux controller: no `app.kubernetes.io/part-of=flux`). */
export function operatorDeployment(meta: {
  uid: string;
  created: string;
}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'flux-operator',
      namespace: 'flux-system',
      uid: meta.uid,
      generation: 1,
      creationTimestamp: meta.created,
      labels: {
        'app.kubernetes.io/name': 'flux-operator',
        'app.kubernetes.io/instance': 'flux-operator',
        'app.kubernetes.io/version': FLUX_OPERATOR_VERSION,
      },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'flux-operator' } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'flux-operator' } },
        spec: {
          serviceAccountName: 'flux-operator',
          containers: [
            {
              name: 'manager',
              image: `ghcr.io/controlplaneio-fluxcd/flux-operator:${FLUX_OPERATOR_VERSION}`,
              args: [
                '--log-level=info',
                '--log-encoding=json',
                '--enable-leader-election',
              ],
            },
          ],
        },
      },
    },
    status: {
      observedGeneration: 1,
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      updatedReplicas: 1,
    },
  };
}

/**
 * The CRD object of a served Flux resource (schemas are not served: clients never need them). `legacy`: the
 * cluster was installed long ago and never ran `flux migrate`, so every older version it still serves is also
 * in `status.storedVersions`.
 */
export function customResourceDefinition(
  served: ServedResource,
  release: FluxRelease,
  meta: { uid: string; created: string; legacy?: boolean },
  operator: boolean,
): Record<string, unknown> {
  const { type, versions } = served;
  const name = `${type.plural}.${type.group}`;
  const byOperator = type.group === 'fluxcd.controlplane.io';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name,
      uid: meta.uid,
      generation: 1,
      creationTimestamp: meta.created,
      labels: byOperator
        ? {
            'app.kubernetes.io/name': 'flux-operator',
            'app.kubernetes.io/version': FLUX_OPERATOR_VERSION,
          }
        : {
            'app.kubernetes.io/component': componentOfGroup(type.group),
            'app.kubernetes.io/instance': 'flux-system',
            'app.kubernetes.io/part-of': 'flux',
            'app.kubernetes.io/version': release.version,
            ...(operator
              ? { 'app.kubernetes.io/managed-by': 'flux-operator' }
              : {}),
          },
    },
    spec: {
      group: type.group,
      names: {
        kind: type.kind,
        listKind: type.listKind,
        plural: type.plural,
        singular: type.singular,
        ...(type.shortNames ? { shortNames: type.shortNames } : {}),
        ...(type.categories ? { categories: type.categories } : {}),
      },
      scope: 'Namespaced',
      versions: versions.map((version, i) => ({
        name: version,
        served: true,
        storage: i === 0,
        ...(i > 0 && version.includes('beta')
          ? {
              deprecated: true,
              deprecationWarning: `${groupVersion(type.group, version)} ${
                type.kind
              } is deprecated, upgrade to ${versions[0]}`,
            }
          : {}),
        schema: {
          openAPIV3Schema: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
        subresources: type.statusSubresource ? { status: {} } : {},
        additionalPrinterColumns: type.columns.map(c => ({
          name: c.name,
          type: c.type,
          jsonPath: c.jsonPath,
          ...(c.priority ? { priority: c.priority } : {}),
        })),
      })),
    },
    status: {
      acceptedNames: {
        kind: type.kind,
        listKind: type.listKind,
        plural: type.plural,
        singular: type.singular,
      },
      storedVersions: meta.legacy
        ? [...versions.slice(1).reverse(), versions[0]]
        : [versions[0]],
      conditions: [
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
          lastTransitionTime: meta.created,
        },
      ],
    },
  };
}

function componentOfGroup(group: string): string {
  switch (group) {
    case 'kustomize.toolkit.fluxcd.io':
      return 'kustomize-controller';
    case 'helm.toolkit.fluxcd.io':
      return 'helm-controller';
    case 'notification.toolkit.fluxcd.io':
      return 'notification-controller';
    case 'image.toolkit.fluxcd.io':
      return 'image-reflector-controller';
    case 'source.extensions.fluxcd.io':
      return 'source-watcher';
    default:
      return 'source-controller';
  }
}

function operatorStatus(
  kind: string,
  meta: Meta,
  facts: StatusFacts,
): Record<string, unknown> {
  return {
    observedGeneration: meta.generation,
    conditions: conditionsFor(
      kind,
      facts.state,
      facts.detail,
      meta.generation,
      facts.since,
    ),
  };
}

/** The FluxInstance `flux` that makes the operator manage an instance (cf. examples/fluxinstance-sharded.json). */
export function fluxInstance(
  meta: Meta,
  instance: InstancePlan,
  release: FluxRelease,
  facts: StatusFacts,
  revisionDigest: string,
): Record<string, unknown> {
  const components = [...new Set(instance.controllers.map(c => c.component))];
  const spec: Record<string, unknown> = {
    distribution: {
      version: `2.${release.minor}.x`,
      registry: 'ghcr.io/fluxcd',
    },
    components,
    cluster: {
      type: 'kubernetes',
      size: 'medium',
      domain: 'cluster.local',
      networkPolicy: true,
      multitenant: instance.lockdown,
      ...(instance.lockdown && instance.defaultServiceAccount
        ? { tenantDefaultServiceAccount: instance.defaultServiceAccount }
        : {}),
    },
  };
  if (instance.shards.length > 0) {
    spec.sharding = {
      key: 'sharding.fluxcd.io/key',
      shards: instance.shards,
      storage: 'persistent',
    };
  }
  const status = operatorStatus('FluxInstance', meta, facts);
  const revision = `${release.version}@${revisionDigest}`;
  status.lastAppliedRevision = revision;
  status.lastAttemptedRevision = revision;
  status.components = components.map(component => ({
    name: component,
    repository: `ghcr.io/fluxcd/${component}`,
    tag: release.controllerTags[component] ?? release.version,
  }));
  status.inventory = {
    entries: instance.controllers
      .map(c => ({ id: `${c.instance}_${c.name}_apps_Deployment`, v: 'v1' }))
      .sort((a, b) => (a.id < b.id ? -1 : 1)),
  };
  return {
    apiVersion: 'fluxcd.controlplane.io/v1',
    kind: 'FluxInstance',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      generation: meta.generation,
      creationTimestamp: meta.created,
      annotations: { 'fluxcd.controlplane.io/reconcileEvery': '1h' },
      finalizers: ['fluxcd.controlplane.io/finalizer'],
    },
    spec,
    status,
  };
}

/** The FluxReport `flux` the operator writes about the installation. */
export function fluxReport(
  meta: Meta,
  release: FluxRelease,
  facts: StatusFacts,
  counts: Array<{
    kind: string;
    apiVersion: string;
    ready: number;
    failing: number;
    suspended: number;
    total: number;
  }>,
): Record<string, unknown> {
  return {
    apiVersion: 'fluxcd.controlplane.io/v1',
    kind: 'FluxReport',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      generation: meta.generation,
      creationTimestamp: meta.created,
    },
    spec: {
      distribution: {
        entitlement: 'Issued by controlplane',
        managedBy: 'flux-operator',
        status: 'Installed',
        version: release.version,
      },
      reconcilers: counts.map(c => ({
        apiVersion: c.apiVersion,
        kind: c.kind,
        stats: {
          running: c.ready,
          failing: c.failing,
          suspended: c.suspended,
          totalSize: `${c.total}`,
        },
      })),
    },
    status: operatorStatus('FluxReport', meta, facts),
  };
}

/** A ResourceSet generating per-pull-request preview environments from a ResourceSetInputProvider. */
export function resourceSet(
  meta: Meta,
  spec: { provider: string },
  facts: StatusFacts,
  generated: string[],
): Record<string, unknown> {
  const status = operatorStatus('ResourceSet', meta, facts);
  status.inventory = {
    entries: generated.map(name => ({
      id: `${meta.namespace}_${name}_kustomize.toolkit.fluxcd.io_Kustomization`,
      v: 'v1',
    })),
  };
  return {
    apiVersion: 'fluxcd.controlplane.io/v1',
    kind: 'ResourceSet',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      generation: meta.generation,
      creationTimestamp: meta.created,
      finalizers: ['fluxcd.controlplane.io/finalizer'],
    },
    spec: {
      inputsFrom: [{ kind: 'ResourceSetInputProvider', name: spec.provider }],
      resources: [
        {
          apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
          kind: 'Kustomization',
          metadata: {
            name: 'preview-<< inputs.id >>',
            namespace: meta.namespace,
          },
          spec: { interval: '10m', path: './deploy/preview', prune: true },
        },
      ],
    },
    status,
  };
}

/** A ResourceSetInputProvider exporting open pull requests. */
export function resourceSetInputProvider(
  meta: Meta,
  spec: { url: string },
  facts: StatusFacts,
  inputs: Array<{ id: string; sha: string }>,
): Record<string, unknown> {
  const status = operatorStatus('ResourceSetInputProvider', meta, facts);
  status.exportedInputs = inputs.map(i => ({
    id: i.id,
    sha: i.sha,
    branch: `feature-${i.id}`,
  }));
  return {
    apiVersion: 'fluxcd.controlplane.io/v1',
    kind: 'ResourceSetInputProvider',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      generation: meta.generation,
      creationTimestamp: meta.created,
    },
    spec: {
      type: 'GitHubPullRequest',
      url: spec.url,
      filter: { labels: ['deploy/preview'] },
    },
    status,
  };
}
