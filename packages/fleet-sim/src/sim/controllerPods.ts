/**
 * The Pods of the Flux controller Deployments, as a ReplicaSet would run them: `<deployment>-<hash>-<suffix>`,
 * labelled with the Deployment's selector and `pod-template-hash`, owned by the ReplicaSet `<deployment>-<hash>`,
 * Running with a pod IP. Names are deterministic from the fleet's seed and the pod template, so the same fleet
 * has the same pods; a template change (args, resources) rolls the pods to a new hash, a `replicas` change scales.
 * Only Flux controllers get Pods: they are what serves metrics (workload Deployments would only cost memory).
 */
import { createHash } from 'node:crypto';
import { coreResourceType } from '../api/resourceTypes';
import { parseStored, type ClusterStore } from '../store/clusterStore';
import { controllerOfDeployment } from './controlPlane';

/** The Pod resource type. */
export const POD_TYPE = coreResourceType('Pod');
const DEPLOYMENT_TYPE = coreResourceType('Deployment');
/** kube-controller-manager's alphabet for generated name suffixes (no vowels, no look-alike digits). */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** One controller Pod, as the metrics side needs it. */
export interface ControllerPod {
  namespace: string;
  name: string;
  /** The Deployment that runs it. */
  deployment: string;
  component: string;
  /** Pod IP (simulated). */
  podIP: string;
}

function digest(...parts: string[]): Buffer {
  return createHash('sha256').update(parts.join('\u0000')).digest();
}

/** The `pod-template-hash` of a Deployment: 10 hex digits of its template (and the fleet seed). */
export function podTemplateHash(seed: string, deployment: any): string {
  return digest(seed, JSON.stringify(deployment?.spec?.template ?? {}))
    .toString('hex')
    .slice(0, 10);
}

function suffix(bytes: Buffer): string {
  let out = '';
  for (let i = 0; i < 5; i++)
    out += SUFFIX_ALPHABET[bytes[i] % SUFFIX_ALPHABET.length];
  return out;
}

function uidOf(bytes: Buffer): string {
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(
    17,
    20,
  )}-${h.slice(20, 32)}`;
}

function replicasOf(deployment: any): number {
  const replicas = deployment?.spec?.replicas;
  return typeof replicas === 'number' && replicas >= 0
    ? Math.floor(replicas)
    : 1;
}

/** The Pod object of replica `index` of a Deployment. */
function podObject(
  seed: string,
  deployment: any,
  hash: string,
  index: number,
  created: string,
): any {
  const { name, namespace } = deployment.metadata;
  const replicaSet = `${name}-${hash}`;
  const bytes = digest(seed, namespace, replicaSet, String(index));
  const podName = `${replicaSet}-${suffix(bytes)}`;
  const template = deployment.spec?.template ?? {};
  const matchLabels = deployment.spec?.selector?.matchLabels ?? {};
  const containers: any[] = Array.isArray(template.spec?.containers)
    ? template.spec.containers
    : [];
  const podIP = `10.244.${bytes[5] % 64}.${2 + (bytes[6] % 250)}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName,
      namespace,
      uid: uidOf(digest(seed, namespace, podName)),
      creationTimestamp: created,
      generateName: `${replicaSet}-`,
      labels: {
        ...(template.metadata?.labels ?? {}),
        ...matchLabels,
        'pod-template-hash': hash,
      },
      ...(template.metadata?.annotations
        ? { annotations: template.metadata.annotations }
        : {}),
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: replicaSet,
          uid: uidOf(digest(seed, namespace, replicaSet)),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      ...(template.spec ?? {}),
      nodeName: `node-${1 + (bytes[7] % 3)}`,
      restartPolicy: 'Always',
    },
    status: {
      phase: 'Running',
      hostIP: `10.0.0.${11 + (bytes[7] % 3)}`,
      podIP,
      podIPs: [{ ip: podIP }],
      startTime: created,
      qosClass: 'Burstable',
      conditions: [
        'Initialized',
        'Ready',
        'ContainersReady',
        'PodScheduled',
      ].map(type => ({ type, status: 'True', lastTransitionTime: created })),
      containerStatuses: containers.map(c => ({
        name: c.name,
        image: c.image,
        imageID: `${String(c.image).split(':')[0]}@sha256:${digest(
          String(c.image),
        ).toString('hex')}`,
        ready: true,
        started: true,
        restartCount: 0,
        state: { running: { startedAt: created } },
      })),
    },
  };
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The controller Pods of one cluster, kept in its store in step with the Deployments. */
export class ControllerPods {
  /** `namespace/deployment` → its pods' names. */
  private readonly byDeployment = new Map<string, string[]>();
  /** `namespace/pod` → the pod. */
  private readonly pods = new Map<string, ControllerPod>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly store: ClusterStore,
    private readonly seed: string,
  ) {
    // Adopt the pods the generator stored.
    for (const stored of this.store.table(POD_TYPE).objects.values()) {
      const pod = parseStored(stored);
      const owner = pod.metadata?.ownerReferences?.[0]?.name as string;
      const deployment = owner?.replace(/-[0-9a-f]{10}$/, '');
      const component = controllerOfDeployment(
        this.deploymentObject(pod.metadata.namespace, deployment),
      )?.component;
      if (!deployment || !component) continue;
      this.index(pod, deployment, component);
    }
  }

  private deploymentObject(namespace: string, name: string): any {
    const stored = this.store.get(DEPLOYMENT_TYPE, namespace, name);
    return stored ? parseStored(stored) : undefined;
  }

  private index(pod: any, deployment: string, component: string): void {
    const { namespace, name } = pod.metadata;
    const key = `${namespace}/${deployment}`;
    const list = this.byDeployment.get(key) ?? [];
    list.push(name);
    this.byDeployment.set(key, list);
    this.pods.set(`${namespace}/${name}`, {
      namespace,
      name,
      deployment,
      component,
      podIP: pod.status.podIP,
    });
  }

  /** Every controller pod. */
  all(): ControllerPod[] {
    return [...this.pods.values()];
  }

  /** A pod by namespace and name. */
  get(namespace: string, name: string): ControllerPod | undefined {
    return this.pods.get(`${namespace}/${name}`);
  }

  /** Calls the listener after pods were added or removed; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Creates the pods of every controller Deployment that has none (generation, and start). */
  syncAll(created?: (deployment: any) => string): void {
    for (const stored of this.store.table(DEPLOYMENT_TYPE).objects.values()) {
      // Workload Deployments (thousands at fleet M) get no pods: skip them unparsed.
      if (
        stored.labels?.['app.kubernetes.io/part-of'] !== 'flux' &&
        !this.byDeployment.has(`${stored.namespace}/${stored.name}`)
      )
        continue;
      const deployment = parseStored(stored);
      this.sync(deployment.metadata.namespace, deployment.metadata.name, {
        deployment,
        created: created?.(deployment),
      });
    }
  }

  /**
   * Brings the pods of one Deployment in step with it (after a write through the API, or at start): pods of an
   * old template hash are replaced, the count follows `replicas`, a deleted or non-Flux Deployment has none.
   */
  sync(
    namespace: string,
    name: string,
    options: { deployment?: any; created?: string } = {},
  ): void {
    const deployment =
      options.deployment ?? this.deploymentObject(namespace, name);
    const component = controllerOfDeployment(deployment)?.component;
    const key = `${namespace}/${name}`;
    const existing = this.byDeployment.get(key) ?? [];
    const wanted: any[] = [];
    if (deployment && component) {
      const hash = podTemplateHash(this.seed, deployment);
      const created = options.created ?? now();
      for (let i = 0; i < replicasOf(deployment); i++)
        wanted.push(podObject(this.seed, deployment, hash, i, created));
    }
    const wantedNames = new Set(wanted.map(p => p.metadata.name));
    let changed = false;
    for (const podName of existing) {
      if (wantedNames.has(podName)) continue;
      this.store.remove(POD_TYPE, namespace, podName);
      this.pods.delete(`${namespace}/${podName}`);
      changed = true;
    }
    this.byDeployment.delete(key);
    for (const pod of wanted) {
      if (!existing.includes(pod.metadata.name)) {
        this.store.put(POD_TYPE, pod);
        changed = true;
      }
      this.index(pod, name, component!);
    }
    if (changed) for (const listener of this.listeners) listener();
  }
}
