import {
  ANNOTATION_LOCATION,
  ANNOTATION_ORIGIN_LOCATION,
  Entity,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import {
  ANNOTATIONS,
  clusterEntityName,
  compareText,
  ENTITY_ANNOTATIONS,
  entityLabels,
  FleetObject,
  FluxKind,
  instanceEntityName,
  InstanceSummary,
  objectEntityName,
  shardEntityName,
  ShardSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { clusterLocationKey, PROVIDER_ANNOTATION } from './entityLocation';
import { TenantOwners } from './TenantOwners';

/** The structure of one cluster, as the fleet index holds it. */
export interface ClusterStructure {
  cluster: string;
  instances: InstanceSummary[];
  shards: ShardSummary[];
  objects: FleetObject[];
}

/** What the entities of a cluster depend on beside its structure. */
export interface ClusterEntityOptions {
  providerId: string;
  /** Flux kinds emitted as entities. */
  kinds: ReadonlySet<FluxKind>;
  owners: TenantOwners;
  /** The catalog Components of a service (full refs, sorted); empty when the service names no valid entity. */
  serviceComponents(service: string): string[];
}

/** The entities of a cluster, and the objects that could not be turned into one. */
export interface ClusterEntities {
  entities: Entity[];
  /** Messages naming each object that was skipped and why. */
  problems: string[];
}

/** The `spec.type` of the `Resource` of a Flux kind, e.g. `flux-kustomization`. */
export function resourceTypeOfKind(kind: FluxKind): string {
  return `flux-${kind.toLowerCase()}`;
}

const resourceRef = (name: string) =>
  stringifyEntityRef({ kind: 'Resource', namespace: 'default', name });

/**
 * Turns the structure of one cluster into catalog entities: a `Resource` for the cluster, each Flux instance, each
 * shard, and each Flux object of the configured kinds, with their relations. Only structure: no condition,
 * revision or time, so an entity changes only when the structure does. The output is sorted and stable.
 */
export function buildClusterEntities(
  structure: ClusterStructure,
  options: ClusterEntityOptions,
): ClusterEntities {
  const { cluster } = structure;
  const common = commonMetadata(cluster, options.providerId);
  const entities: Entity[] = [];
  const problems: string[] = [];

  const instanceNames = new Set(structure.instances.map(i => i.name));

  entities.push(clusterEntity(structure, options, common));
  for (const instance of structure.instances) {
    entities.push(instanceEntity(cluster, instance, options, common));
  }
  for (const shard of structure.shards) {
    if (!instanceNames.has(shard.instance)) {
      problems.push(
        `Shard ${shard.name} of cluster ${cluster} names instance ${shard.instance}, which the index does not list; skipped`,
      );
      continue;
    }
    entities.push(shardEntity(cluster, shard, options, common));
  }

  const skip = (object: FleetObject, error: unknown) =>
    problems.push(
      `Flux object ${object.key} of cluster ${cluster} could not be turned into an entity, skipped: ${error}`,
    );
  // First the names of every emitted object, so that relations only point at entities that are emitted.
  const emitted: FleetObject[] = [];
  const objectRefs = new Map<string, string>();
  for (const object of structure.objects) {
    if (!options.kinds.has(object.ref?.kind)) continue;
    try {
      objectRefs.set(
        referenceKey(object.ref.kind, object.ref.namespace, object.ref.name),
        resourceRef(objectEntityName(object.ref)),
      );
      emitted.push(object);
    } catch (error) {
      skip(object, error);
    }
  }
  for (const object of emitted) {
    try {
      entities.push(
        objectEntity(object, options, common, objectRefs),
      );
    } catch (error) {
      skip(object, error);
    }
  }

  return { entities: sortEntities(entities), problems };
}

/** Sorts entities by reference, so that the same structure always gives the same mutation. */
export function sortEntities(entities: Entity[]): Entity[] {
  return entities
    .map(entity => ({ ref: stringifyEntityRef(entity), entity }))
    .sort((a, b) => compareText(a.ref, b.ref))
    .map(({ entity }) => entity);
}

interface CommonMetadata {
  annotations: Record<string, string>;
}

function commonMetadata(cluster: string, providerId: string): CommonMetadata {
  const location = clusterLocationKey(cluster);
  return {
    annotations: {
      [ANNOTATION_LOCATION]: location,
      [ANNOTATION_ORIGIN_LOCATION]: location,
      [PROVIDER_ANNOTATION]: providerId,
    },
  };
}

/** Joins words for a sentence; a list reads `a, b and c`. */
function list(values: string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
}

function clusterEntity(
  structure: ClusterStructure,
  options: ClusterEntityOptions,
  common: CommonMetadata,
): Entity {
  const { cluster } = structure;
  const { labels, annotations } = entityLabels({ cluster });
  const instances = structure.instances.map(i => i.name).sort();
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name: clusterEntityName(cluster),
      title: cluster,
      description: [
        `Kubernetes cluster ${cluster}, watched by Flux Fleet.`,
        instances.length > 0
          ? `Flux ${instances.length === 1 ? 'instance' : 'instances'} ${list(instances)}.`
          : 'No Flux instance found.',
      ].join(' '),
      labels,
      annotations: { ...common.annotations, ...annotations },
      tags: ['flux', 'kubernetes-cluster'],
    },
    spec: {
      type: 'kubernetes-cluster',
      owner: options.owners.defaultOwner,
    },
  };
}

function instanceEntity(
  cluster: string,
  instance: InstanceSummary,
  options: ClusterEntityOptions,
  common: CommonMetadata,
): Entity {
  const { labels, annotations } = entityLabels({
    cluster,
    instance: instance.name,
  });
  const shards = [...instance.shards].sort();
  const sentences = [
    `Flux instance ${instance.name} on cluster ${cluster}${
      instance.version ? `, Flux ${instance.version}` : ''
    }.`,
    `${shards.length === 1 ? 'Shard' : 'Shards'} ${list(shards)}.`,
  ];
  if (instance.operatorManaged) {
    sentences.push(
      `Managed by the Flux Operator${
        instance.fluxInstance ? ` (FluxInstance ${instance.fluxInstance})` : ''
      }.`,
    );
  }
  if (!instance.watchAllNamespaces) {
    sentences.push(`Watches only namespace ${instance.name}.`);
  }
  sentences.push(
    instance.lockdown
      ? 'Cross-namespace references locked down.'
      : 'Cross-namespace references allowed.',
  );
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name: instanceEntityName(cluster, instance.name),
      title: `${instance.name} on ${cluster}`,
      description: sentences.join(' '),
      labels,
      annotations: { ...common.annotations, ...annotations },
      tags: ['flux', 'flux-instance'],
    },
    spec: {
      type: 'flux-instance',
      owner: options.owners.defaultOwner,
      dependsOn: [resourceRef(clusterEntityName(cluster))],
    },
  };
}

function shardEntity(
  cluster: string,
  shard: ShardSummary,
  options: ClusterEntityOptions,
  common: CommonMetadata,
): Entity {
  const { labels, annotations } = entityLabels({
    cluster,
    instance: shard.instance,
    shard: shard.name,
  });
  const controllers = [...shard.controllers].sort();
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name: shardEntityName(cluster, shard.instance, shard.name),
      title: `${shard.name} of ${shard.instance} on ${cluster}`,
      description: [
        `Flux shard ${shard.name} of instance ${shard.instance} on cluster ${cluster}.`,
        shard.selector
          ? `Watch selector ${shard.selector}.`
          : 'No watch selector: it watches every object.',
        controllers.length > 0 ? `Controllers ${list(controllers)}.` : '',
      ]
        .filter(Boolean)
        .join(' '),
      labels,
      annotations: { ...common.annotations, ...annotations },
      tags: ['flux', 'flux-shard'],
    },
    spec: {
      type: 'flux-shard',
      owner: options.owners.defaultOwner,
      dependsOn: [resourceRef(instanceEntityName(cluster, shard.instance))],
    },
  };
}

function referenceKey(kind: string, namespace: string, name: string): string {
  return `${namespace}/${kind}/${name}`;
}

function objectEntity(
  object: FleetObject,
  options: ClusterEntityOptions,
  common: CommonMetadata,
  objectRefs: Map<string, string>,
): Entity {
  const { ref, owner, boundary, service } = object;
  const tenant = boundary?.tenant ?? null;
  const ownedBy =
    owner?.status === 'ok' && owner.instance !== null ? owner : undefined;
  const { labels, annotations } = entityLabels({
    cluster: ref.cluster,
    instance: ownedBy?.instance,
    shard: ownedBy ? ownedBy.shard : undefined,
    tenant,
    namespace: ref.namespace,
    kind: ref.kind,
  });
  annotations[ENTITY_ANNOTATIONS.objectKey] = object.key;
  if (service) annotations[ANNOTATIONS.kubernetesId] = service;

  // No relation to the shard: every object of a shard would relate to it (a thousand and more each at fleet M), and
  // the catalog stitches a relation's target again each time one of its sources is processed, so the shards'
  // stitching took the catalog's time (README, Benchmark). The shard is in the labels, which catalog filters use.
  const dependsOn = new Set<string>();
  const sourceRef =
    object.sourceRef &&
    objectRefs.get(
      referenceKey(
        object.sourceRef.kind,
        object.sourceRef.namespace,
        object.sourceRef.name,
      ),
    );
  if (sourceRef) dependsOn.add(sourceRef);
  for (const dependency of object.dependsOn ?? []) {
    const target = objectRefs.get(
      referenceKey(
        dependency.kind || ref.kind,
        dependency.namespace,
        dependency.name,
      ),
    );
    if (target) dependsOn.add(target);
  }
  const dependencyOf = service ? options.serviceComponents(service) : [];

  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name: objectEntityName(ref),
      title: `${ref.name} (${ref.kind} in ${ref.namespace}, ${ref.cluster})`,
      description: objectDescription(object),
      labels,
      annotations: { ...common.annotations, ...annotations },
      tags: ['flux', ref.kind.toLowerCase()],
    },
    spec: {
      type: resourceTypeOfKind(ref.kind),
      owner: options.owners.ownerOf(tenant),
      ...(dependsOn.size > 0 ? { dependsOn: [...dependsOn].sort() } : {}),
      ...(dependencyOf.length > 0 ? { dependencyOf } : {}),
    },
  };
}

/** Sentences with the words people search for: service, cluster, instance, shard, tenant, namespace. */
function objectDescription(object: FleetObject): string {
  const { ref, owner, boundary, service } = object;
  const sentences = [
    `Flux ${ref.kind} ${ref.name} in namespace ${ref.namespace} on cluster ${ref.cluster}.`,
  ];
  if (owner?.status === 'ok' && owner.instance !== null) {
    sentences.push(
      `Reconciled by instance ${owner.instance}, shard ${owner.shard}.`,
    );
  } else if (owner?.status === 'orphan') {
    sentences.push('No controller watches it (orphan).');
  } else if (owner?.status === 'contested') {
    const candidates = (owner.candidates ?? [])
      .map(c => `${c.instance} shard ${c.shard}`)
      .sort();
    sentences.push(
      `Watched by several controllers (contested)${
        candidates.length > 0 ? `: ${list(candidates)}` : ''
      }.`,
    );
  }
  if (boundary?.tenant) sentences.push(`Tenant ${boundary.tenant}.`);
  if (service) sentences.push(`Service ${service}.`);
  if (object.sourceRef) {
    sentences.push(
      `Source ${object.sourceRef.kind} ${object.sourceRef.name} in namespace ${object.sourceRef.namespace}.`,
    );
  }
  const dependencies = (object.dependsOn ?? [])
    .map(d => `${d.name} in namespace ${d.namespace}`)
    .sort();
  if (dependencies.length > 0) {
    sentences.push(`Depends on ${list(dependencies)}.`);
  }
  return sentences.join(' ');
}
