/**
 * One simulated cluster at run time: its store, what it serves, its faults and tokens, and its simulated Flux
 * controllers, which react to writes like Flux does in the small: a reconcile request is echoed into
 * `status.lastHandledReconcileAt` after ~0.5–1 s (never for orphans, contested objects or scaled-down
 * controllers), a spec change is observed, suspension stops all of that, deletion waits for the finalizer, and a
 * new object gets its first status.
 */
import { randomBytes } from 'node:crypto';
import { randomHex } from './randomHex';
import {
  coreResourceType,
  groupVersion,
  type ResourceType,
  type ServedResource,
} from '../api/resourceTypes';
import { ClusterMetrics } from '../capacity/clusterMetrics';
import { objectLoadOf } from '../capacity/objectLoad';
import { conditionsFor, readyCondition } from '../fleet/conditions';
import type { GeneratedCluster } from '../fleet/clusterGenerator';
import {
  recordKey,
  type SimulatedObject,
  type MalformedRecord,
} from '../fleet/model';
import { parseStored, type ClusterStore } from '../store/clusterStore';
import { ControlPlane, controllerOfDeployment } from './controlPlane';
import { ControllerPods } from './controllerPods';
import { NO_FAULTS, type Faults } from './faults';
import { isSuspended, readRecord, type ClusterLookup } from './objectReading';

const TENANT_LABEL = 'toolkit.fluxcd.io/tenant';
const KUBERNETES_ID = 'backstage.io/kubernetes-id';
const FINALIZERS = new Set([
  'finalizers.fluxcd.io',
  'fluxcd.controlplane.io/finalizer',
]);
const MAX_RUNTIME_EVENTS = 500;
/** Kinds whose status lists what they applied. */
const INVENTORY_KINDS = new Set([
  'Kustomization',
  'HelmRelease',
  'FluxInstance',
  'ResourceSet',
]);

/** How long the simulated controllers take to react to a write. */
export interface ReactionTiming {
  minDelayMs: number;
  maxDelayMs: number;
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A simulated cluster at run time. */
export class SimulatedCluster implements ClusterLookup {
  readonly name: string;
  readonly fluxVersion: string;
  readonly kubernetesVersion: string;
  readonly store: ClusterStore;
  readonly served: ServedResource[];
  readonly records: Map<string, SimulatedObject>;
  readonly controlPlane: ControlPlane;
  /** The Flux controllers' Pods (what serves their metrics). */
  readonly pods: ControllerPods;
  /** The controller pods' simulated metrics. */
  readonly metrics: ClusterMetrics;
  readonly adminToken = randomBytes(24).toString('hex');
  readonly readOnlyToken = randomBytes(24).toString('hex');
  readonly gitCommit = randomHex(20);
  malformed: MalformedRecord[] = [];
  faults: Faults = { ...NO_FAULTS };
  private readonly byPath = new Map<
    string,
    { served: ServedResource; version: string }
  >();
  private readonly byKind = new Map<string, ServedResource>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly runtimeEvents: string[] = [];
  private closed = false;

  constructor(
    generated: GeneratedCluster,
    private readonly timing: ReactionTiming,
  ) {
    this.name = generated.name;
    this.fluxVersion = generated.fluxVersion;
    this.kubernetesVersion = generated.kubernetesVersion;
    this.store = generated.store;
    this.served = generated.served;
    this.records = generated.records;
    for (const served of this.served) {
      this.byKind.set(served.type.kind, served);
      for (const version of served.versions) {
        this.byPath.set(
          `${served.type.group}/${version}/${served.type.plural}`,
          { served, version },
        );
      }
    }
    this.controlPlane = new ControlPlane(
      generated.plan
        ? generated.plan.instances.flatMap(i => i.controllers)
        : [],
    );
    this.pods = new ControllerPods(this.store, generated.podSeed);
    this.pods.syncAll();
    this.metrics = new ClusterMetrics(this);
  }

  /** Whether the Flux Operator runs here (it reconciles the fluxcd.controlplane.io kinds). */
  get operatorPresent(): boolean {
    return (
      this.store.get(
        coreResourceType('Deployment'),
        'flux-system',
        'flux-operator',
      ) !== undefined
    );
  }

  /** The served resource of a URL's group, version and plural. */
  resolve(
    group: string,
    version: string,
    plural: string,
  ): { served: ServedResource; version: string } | undefined {
    return this.byPath.get(`${group}/${version}/${plural}`);
  }

  /** The served resource of a kind. */
  servedKind(kind: string): ServedResource | undefined {
    return this.byKind.get(kind);
  }

  /** The preferred API version of a served kind. */
  preferredApiVersion(kind: string): string {
    const served = this.byKind.get(kind)!;
    return groupVersion(served.type.group, served.versions[0]);
  }

  namespaceTenant(namespace: string): string | null {
    const ns = this.store.get(coreResourceType('Namespace'), '', namespace);
    return ns?.labels?.[TENANT_LABEL] ?? null;
  }

  workloadService(
    namespace: string,
    name: string,
    group: string,
    kind: string,
  ): string | undefined {
    if (group !== 'apps' || kind !== 'Deployment') return undefined;
    return this.store.get(coreResourceType('Deployment'), namespace, name)
      ?.labels?.[KUBERNETES_ID];
  }

  /** Reads the current object of a Flux kind, or undefined. */
  read(kind: string, namespace: string, name: string): any {
    const served = this.byKind.get(kind);
    if (!served) return undefined;
    const stored = this.store.get(served.type, namespace, name);
    return stored
      ? parseStored(stored, this.preferredApiVersion(kind), kind)
      : undefined;
  }

  /** Stores a Flux object written by a simulated controller, and re-reads its record. */
  writeFlux(kind: string, object: any, options: { statusOnly?: boolean } = {}): void {
    const served = this.byKind.get(kind)!;
    this.store.put(served.type, object, options);
    this.refreshRecord(kind, object);
  }

  private refreshRecord(kind: string, object: any): void {
    const key = recordKey(
      kind,
      object.metadata.namespace,
      object.metadata.name,
    );
    const previous = this.records.get(key);
    const read = readRecord(kind, object, this);
    const load = objectLoadOf(
      this.name,
      kind,
      object,
      previous?.load?.reconcileSeconds,
    );
    this.records.set(key, {
      ...read,
      ...(load ? { load } : {}),
      steadyState: read.state,
      generated: previous?.generated ?? false,
      problems: previous?.problems,
      ...(previous?.behindSource !== undefined && {
        behindSource: previous.behindSource,
      }),
      churnable:
        previous?.churnable === true &&
        read.placement.status === 'ok' &&
        !read.suspended &&
        read.state !== 'terminating',
    });
  }

  /**
   * Called after every write through the API: keeps the records and the simulated controllers in step with
   * what the client wrote.
   */
  afterWrite(
    type: ResourceType,
    before: any | undefined,
    after: any | undefined,
  ): void {
    if (type.kind === 'Deployment') {
      if (controllerOfDeployment(before) || controllerOfDeployment(after)) {
        this.controllersChanged();
        const { namespace, name } = (after ?? before).metadata;
        this.pods.sync(namespace, name, { deployment: after });
      }
      const was = before?.metadata?.labels?.[KUBERNETES_ID];
      const is = after?.metadata?.labels?.[KUBERNETES_ID];
      const workload = after ?? before;
      if (was !== is)
        this.workloadRelabelled(
          workload.metadata.namespace,
          workload.metadata.name,
        );
      return;
    }
    if (type.kind === 'Namespace') {
      const name = (after ?? before)?.metadata?.name;
      const was = before?.metadata?.labels?.[TENANT_LABEL];
      const is = after?.metadata?.labels?.[TENANT_LABEL];
      if (name && was !== is) this.tenantChanged(name);
      return;
    }
    if (!type.flux) return;
    const object = after ?? before;
    const key = recordKey(
      type.kind,
      object.metadata.namespace,
      object.metadata.name,
    );
    if (
      this.malformed.some(m => recordKey(m.kind, m.namespace, m.name) === key)
    )
      return;
    if (!after) {
      this.records.delete(key);
      this.cancel(key);
      return;
    }
    this.refreshRecord(type.kind, after);
    if (this.needsReconcile(type, after))
      this.schedule(type.kind, after.metadata.namespace, after.metadata.name);
  }

  private controllersChanged(): void {
    const deployments = this.store.table(coreResourceType('Deployment'));
    const controllers = [];
    for (const stored of deployments.objects.values()) {
      const controller = controllerOfDeployment(parseStored(stored));
      if (controller) controllers.push(controller);
    }
    this.controlPlane.set(controllers);
    for (const record of this.records.values()) {
      const served = this.byKind.get(record.kind);
      const stored =
        served && this.store.get(served.type, record.namespace, record.name);
      if (!stored) continue;
      record.placement = this.controlPlane.placementOf(
        record.kind,
        record.namespace,
        stored.labels,
      );
      // A controller that starts reconciles everything it watches that is not up to date.
      const object = parseStored(stored, undefined);
      if (this.needsReconcile(served.type, object))
        this.schedule(record.kind, record.namespace, record.name);
    }
  }

  /** Re-links the Flux objects whose inventory lists a workload whose service label changed (rules §6). */
  private workloadRelabelled(namespace: string, name: string): void {
    const id = `${namespace}_${name}_apps_Deployment`;
    for (const record of [...this.records.values()]) {
      if (!INVENTORY_KINDS.has(record.kind)) continue;
      const object = this.read(record.kind, record.namespace, record.name);
      const entries = object?.status?.inventory?.entries;
      if (Array.isArray(entries) && entries.some((e: any) => e?.id === id)) {
        this.refreshRecord(record.kind, object);
      }
    }
  }

  private tenantChanged(namespace: string): void {
    const tenant = this.namespaceTenant(namespace);
    for (const record of this.records.values()) {
      if (record.namespace !== namespace) continue;
      const stored = this.store.get(
        this.byKind.get(record.kind)!.type,
        record.namespace,
        record.name,
      );
      if (!stored?.labels?.[TENANT_LABEL]) record.tenant = tenant;
    }
  }

  private reconciles(record: SimulatedObject | undefined): boolean {
    return (
      record !== undefined &&
      record.kind !== 'ExternalArtifact' &&
      ControlPlane.reconciles(record.placement, this.operatorPresent)
    );
  }

  private needsReconcile(type: ResourceType, object: any): boolean {
    const record = this.records.get(
      recordKey(type.kind, object.metadata.namespace, object.metadata.name),
    );
    if (!this.reconciles(record)) return false;
    const finalizers: string[] = object.metadata.finalizers ?? [];
    if (object.metadata.deletionTimestamp)
      return finalizers.some(f => FINALIZERS.has(f));
    if (isSuspended(type.kind, object) || !type.statusSubresource) return false;
    const status = object.status;
    if (!status || typeof status !== 'object') return true;
    if (status.observedGeneration !== object.metadata.generation) return true;
    const annotations = object.metadata.annotations ?? {};
    const requested = annotations['reconcile.fluxcd.io/requestedAt'];
    if (requested !== undefined && requested !== status.lastHandledReconcileAt)
      return true;
    if (type.kind === 'HelmRelease') {
      const force = annotations['reconcile.fluxcd.io/forceAt'];
      const reset = annotations['reconcile.fluxcd.io/resetAt'];
      if (force !== undefined && force !== status.lastHandledForceAt)
        return true;
      if (reset !== undefined && reset !== status.lastHandledResetAt)
        return true;
    }
    return false;
  }

  private schedule(kind: string, namespace: string, name: string): void {
    const key = recordKey(kind, namespace, name);
    if (this.closed || this.pending.has(key)) return;
    const { minDelayMs, maxDelayMs } = this.timing;
    const delay = minDelayMs + Math.random() * (maxDelayMs - minDelayMs);
    const timer = setTimeout(() => {
      this.pending.delete(key);
      this.reconcile(kind, namespace, name);
    }, delay);
    timer.unref();
    this.pending.set(key, timer);
  }

  private cancel(key: string): void {
    const timer = this.pending.get(key);
    if (timer) clearTimeout(timer);
    this.pending.delete(key);
  }

  /** One reconciliation by the simulated controller that owns the object. */
  private reconcile(kind: string, namespace: string, name: string): void {
    const served = this.byKind.get(kind);
    if (!served || this.closed) return;
    const object = this.read(kind, namespace, name);
    const key = recordKey(kind, namespace, name);
    if (!object || !this.reconciles(this.records.get(key))) return;
    const type = served.type;

    if (object.metadata.deletionTimestamp) {
      const finalizers: string[] = (object.metadata.finalizers ?? []).filter(
        (f: string) => !FINALIZERS.has(f),
      );
      if (finalizers.length === 0) {
        this.store.remove(type, namespace, name);
        this.records.delete(key);
      } else {
        object.metadata.finalizers = finalizers;
        this.writeFlux(kind, object);
      }
      return;
    }
    if (isSuspended(kind, object)) return;

    const generation = object.metadata.generation ?? 1;
    const status: Record<string, any> =
      object.status && typeof object.status === 'object' ? object.status : {};
    const conditions = Array.isArray(status.conditions)
      ? status.conditions
      : undefined;
    let event:
      | { reason: string; message: string; type: 'Normal' | 'Warning' }
      | undefined;
    if (!conditions?.some((c: any) => c?.type === 'Ready')) {
      event = this.firstStatus(kind, object, status, generation);
    }
    status.observedGeneration = generation;
    for (const condition of Array.isArray(status.conditions)
      ? status.conditions
      : []) {
      if (
        condition &&
        typeof condition === 'object' &&
        'observedGeneration' in condition
      ) {
        condition.observedGeneration = generation;
      }
    }
    if (
      kind === 'HelmRelease' &&
      status.lastAttemptedGeneration !== undefined
    ) {
      status.lastAttemptedGeneration = generation;
    }
    const annotations = object.metadata.annotations ?? {};
    const requested = annotations['reconcile.fluxcd.io/requestedAt'];
    if (
      requested !== undefined &&
      requested !== status.lastHandledReconcileAt
    ) {
      status.lastHandledReconcileAt = requested;
      event ??= {
        type: 'Normal',
        reason: 'ReconciliationSucceeded',
        message: `Reconciliation finished in ${(
          0.2 +
          Math.random() * 3
        ).toFixed(1)}s, next run in ${object.spec?.interval ?? '10m'}`,
      };
    }
    if (kind === 'HelmRelease') {
      const force = annotations['reconcile.fluxcd.io/forceAt'];
      const reset = annotations['reconcile.fluxcd.io/resetAt'];
      if (force !== undefined) status.lastHandledForceAt = force;
      if (reset !== undefined) status.lastHandledResetAt = reset;
    }
    object.status = status;
    this.writeFlux(kind, object);
    if (event) this.emitEvent(object, event);
  }

  /** The first status of an object a client created: ready, or failed/blocked when a reference is missing. */
  private firstStatus(
    kind: string,
    object: any,
    status: Record<string, any>,
    generation: number,
  ): { reason: string; message: string; type: 'Normal' | 'Warning' } {
    const record = this.records.get(
      recordKey(kind, object.metadata.namespace, object.metadata.name),
    )!;
    const time = now();
    const missingSource = record.sources.find(
      s => !this.records.has(recordKey(s.kind, s.namespace, s.name)),
    );
    let state: 'ready' | 'failed' | 'blocked' = 'ready';
    let reason: string | undefined;
    let message: string | undefined;
    if (
      missingSource &&
      (kind === 'Kustomization' ||
        kind === 'HelmRelease' ||
        kind === 'HelmChart')
    ) {
      state = 'failed';
      reason = 'ArtifactFailed';
      message = `Source '${missingSource.kind}/${missingSource.namespace}/${missingSource.name}' not found`;
    } else {
      for (const dep of record.dependsOn) {
        const target = this.records.get(
          recordKey(dep.kind, dep.namespace, dep.name),
        );
        if (!target) {
          state = 'blocked';
          message = `unable to get '${dep.namespace}/${dep.name}' dependency: ${
            dep.kind
          }.${this.byKind.get(dep.kind)?.type.group} "${dep.name}" not found`;
          break;
        }
        if (target.state !== 'ready' && target.state !== 'suspended') {
          state = 'blocked';
          message = `dependency '${dep.namespace}/${dep.name}' is not ready`;
          break;
        }
      }
    }
    let revision: string | undefined;
    const source = record.sources[0];
    if (kind === 'Kustomization' && source) {
      revision = this.read(source.kind, source.namespace, source.name)?.status
        ?.artifact?.revision;
    } else if (kind === 'GitRepository') {
      revision = `${object.spec?.ref?.branch ?? 'main'}@sha1:${randomHex(20)}`;
    } else if (kind === 'OCIRepository') {
      revision = `${object.spec?.ref?.tag ?? 'latest'}@sha256:${randomHex(32)}`;
    } else if (kind === 'HelmRepository' || kind === 'Bucket') {
      revision = `sha256:${randomHex(32)}`;
    }
    status.conditions = conditionsFor(
      kind,
      state,
      { revision, reason, message },
      generation,
      time,
    );
    if (revision && state === 'ready') {
      if (kind === 'Kustomization') {
        status.lastAppliedRevision = revision;
        status.lastAttemptedRevision = revision;
      } else if (kind !== 'HelmRelease') {
        const path = `${kind.toLowerCase()}/${object.metadata.namespace}/${
          object.metadata.name
        }/${randomHex(8)}.tar.gz`;
        status.artifact = {
          revision,
          digest: `sha256:${randomHex(32)}`,
          path,
          url: `http://source-controller.${
            record.placement.controllers[0]?.instance ?? 'flux-system'
          }.svc.cluster.local./${path}`,
          lastUpdateTime: time,
          size: 1024 + Math.floor(Math.random() * 50_000),
        };
      }
    }
    if (state === 'ready') {
      const ready = readyCondition(kind, { revision });
      return { type: 'Normal', reason: ready.reason, message: ready.message };
    }
    return {
      type: 'Warning',
      reason: reason ?? 'DependencyNotReady',
      message: message!,
    };
  }

  /** Emits a core Event about a Flux object, as its controller would (bounded: old ones are removed). */
  emitEvent(
    object: any,
    event: { type: 'Normal' | 'Warning'; reason: string; message: string },
  ): void {
    const eventType = coreResourceType('Event');
    const namespace = object.metadata.namespace;
    const name = `${object.metadata.name}.${randomHex(8)}`;
    const time = now();
    const component =
      (
        {
          Kustomization: 'kustomize-controller',
          HelmRelease: 'helm-controller',
        } as Record<string, string>
      )[object.kind] ?? 'source-controller';
    this.store.put(eventType, {
      metadata: { name, namespace, uid: uuid(), creationTimestamp: time },
      involvedObject: {
        kind: object.kind,
        namespace,
        name: object.metadata.name,
        uid: object.metadata.uid,
        apiVersion: object.apiVersion,
        resourceVersion: object.metadata.resourceVersion,
      },
      reason: event.reason,
      message: event.message,
      source: { component },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      type: event.type,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: '',
    });
    this.runtimeEvents.push(`${namespace}/${name}`);
    while (this.runtimeEvents.length > MAX_RUNTIME_EVENTS) {
      const [ns, old] = this.runtimeEvents.shift()!.split('/');
      this.store.remove(eventType, ns, old);
    }
  }

  /** Stops every timer of this cluster. */
  close(): void {
    this.closed = true;
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}

/** A random RFC 4122 v4 UUID. */
export function uuid(): string {
  const h = randomHex(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(
    17,
    20,
  )}-${h.slice(20, 32)}`;
}
