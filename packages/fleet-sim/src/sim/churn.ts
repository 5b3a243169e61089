/**
 * Churn: reconciliations that change conditions, revisions and times, as a live fleet does. Only plain
 * generated objects churn (no deliberate problem, owned by a running controller, not suspended), so that the
 * problems stay in place; the truth follows because records are re-read after each change.
 */
import {
  conditionsFor,
  typicalFailure,
  type ConditionDetail,
} from '../fleet/conditions';
import type { SimulatedObject, ReconcileStateName } from '../fleet/model';
import { randomHex } from './randomHex';
import type { SimulatedCluster } from './simulatedCluster';

const CHURN_KINDS = new Set([
  'GitRepository',
  'OCIRepository',
  'HelmRepository',
  'Bucket',
  'Kustomization',
  'HelmRelease',
]);

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A new revision in the format of an old one (`main@sha1:<hex>`, `<tag>@sha256:<hex>`, `sha256:<hex>`). */
function nextRevision(previous: string | undefined): string {
  if (!previous) return `main@sha1:${randomHex(20)}`;
  return previous.replace(/([0-9a-f]{40,64})$/, hex =>
    randomHex(hex.length / 2),
  );
}

function nextPatch(version: string): string {
  return version.replace(/(\d+)$/, patch => String(Number(patch) + 1));
}

/** Picks the next state of a churnable object. */
function nextState(
  current: ReconcileStateName,
  draw: number,
): ReconcileStateName {
  switch (current) {
    case 'ready':
      if (draw < 0.8) return 'ready';
      return draw < 0.9 ? 'failed' : 'progressing';
    case 'failed':
      return draw < 0.7 ? 'ready' : 'failed';
    default:
      return 'ready';
  }
}

/** A source reconcile finds a new commit, tag digest or chart index this often; otherwise its artifact stays. */
const NEW_SOURCE_REVISION = 0.3;

/**
 * Applies one reconciliation outcome to an object; returns the event its controller would emit.
 * `sourceRevision` is what the reconciler's source holds now: a reconciler applies exactly that (so it follows
 * its source, as Flux does), a source moves to a new revision only sometimes.
 */
function applyOutcome(
  object: any,
  state: ReconcileStateName,
  draw: number,
  sourceRevision: string | undefined,
): { type: 'Normal' | 'Warning'; reason: string; message: string } {
  const kind: string = object.kind;
  const status = object.status ?? (object.status = {});
  const generation = object.metadata.generation ?? 1;
  const time = now();
  const namespace = object.metadata.namespace;
  const name = object.metadata.name;
  const detail: ConditionDetail = {};

  if (kind === 'Kustomization') {
    const revision =
      sourceRevision ??
      nextRevision(status.lastAttemptedRevision ?? status.lastAppliedRevision);
    status.lastAttemptedRevision = revision;
    if (state === 'ready') status.lastAppliedRevision = revision;
    detail.revision = state === 'ready' ? revision : status.lastAppliedRevision;
    const history = Array.isArray(status.history) ? status.history : undefined;
    if (history?.[0]) {
      history[0].lastReconciled = time;
      history[0].totalReconciliations =
        (history[0].totalReconciliations ?? 0) + 1;
      history[0].lastReconciledStatus =
        state === 'ready' ? 'ReconciliationSucceeded' : 'ReconciliationFailed';
      history[0].metadata = { revision };
    }
  } else if (kind === 'HelmRelease') {
    const history: any[] = Array.isArray(status.history)
      ? status.history
      : (status.history = []);
    const latest = history[0] ?? {
      chartName: name,
      chartVersion: '1.0.0',
      version: 0,
    };
    // the chart its source holds (a HelmChart's version, an OCIRepository's tag), never one of its own making
    const version =
      sourceRevision?.split('@')[0] ??
      nextPatch(String(latest.chartVersion ?? '1.0.0'));
    status.lastAttemptedRevision = version;
    if (state === 'ready') {
      history.unshift({
        ...latest,
        version: (latest.version ?? 0) + 1,
        status: 'deployed',
        chartVersion: version,
        appVersion: version,
        lastDeployed: time,
        digest: `sha256:${randomHex(32)}`,
      });
      if (history[1]) history[1].status = 'superseded';
      history.splice(5);
      status.lastAttemptedReleaseAction = 'upgrade';
      delete status.failures;
      delete status.upgradeFailures;
      detail.readyReason = 'UpgradeSucceeded';
      detail.readyMessage = `Helm upgrade succeeded for release ${namespace}/${name}.v${
        (latest.version ?? 0) + 1
      } with chart ${latest.chartName}@${version}`;
    } else {
      status.failures = (status.failures ?? 0) + 1;
      status.upgradeFailures = (status.upgradeFailures ?? 0) + 1;
    }
    detail.revision = version;
    Object.assign(
      detail,
      state === 'failed'
        ? typicalFailure('HelmRelease', 0, {
            namespace,
            name,
            chart: latest.chartName,
            version,
          })
        : {},
    );
  } else {
    const artifact = status.artifact;
    const moved = draw < NEW_SOURCE_REVISION || !artifact?.revision;
    const revision = moved
      ? nextRevision(artifact?.revision)
      : artifact.revision;
    if (state === 'ready' && artifact && moved) {
      artifact.revision = revision;
      artifact.digest = `sha256:${randomHex(32)}`;
      artifact.lastUpdateTime = time;
    }
    detail.revision = state === 'ready' ? revision : artifact?.revision;
  }
  if (state === 'failed' && kind !== 'HelmRelease') {
    Object.assign(
      detail,
      typicalFailure(kind, Math.floor(draw * 10), {
        namespace,
        name,
        url: object.spec?.url,
        workload: name,
      }),
    );
  }
  status.conditions = conditionsFor(
    kind,
    state,
    detail,
    status.observedGeneration ?? generation,
    time,
  );
  if (state === 'ready') {
    const ready = status.conditions[0];
    return { type: 'Normal', reason: ready.reason, message: ready.message };
  }
  if (state === 'failed') {
    return {
      type: 'Warning',
      reason: detail.reason!,
      message: detail.message!,
    };
  }
  return {
    type: 'Normal',
    reason: 'Progressing',
    message: status.conditions[1].message,
  };
}

/** Churns one cluster: picks a plain object and reconciles it to a new outcome. */
export class ClusterChurn {
  private keys: string[] | undefined;

  constructor(private readonly cluster: SimulatedCluster) {}

  private candidates(): string[] {
    if (!this.keys) {
      this.keys = [];
      for (const [key, record] of this.cluster.records) {
        if (record.churnable && CHURN_KINDS.has(record.kind))
          this.keys.push(key);
      }
    }
    return this.keys;
  }

  private usable(
    record: SimulatedObject | undefined,
  ): record is SimulatedObject {
    return (
      record !== undefined &&
      record.churnable === true &&
      !record.suspended &&
      record.placement.status === 'ok' &&
      (record.placement.controllers[0]?.replicas ?? 1) > 0 &&
      (record.state === 'ready' ||
        record.state === 'failed' ||
        record.state === 'progressing')
    );
  }

  /** The artifact revision of the source a reconciler applies, when the cluster has it. */
  private sourceRevisionOf(
    record: SimulatedObject,
    object: any,
  ): string | undefined {
    const read = (kind: string, namespace: string, name: string) =>
      this.cluster.read(kind, namespace, name)?.status?.artifact?.revision as
        | string
        | undefined;
    if (record.kind === 'Kustomization') {
      const source = record.sources[0];
      return source && read(source.kind, source.namespace, source.name);
    }
    if (record.kind !== 'HelmRelease') return undefined;
    const chartRef = object.spec?.chartRef;
    if (chartRef?.name) {
      return read(
        chartRef.kind ?? 'OCIRepository',
        chartRef.namespace ?? record.namespace,
        chartRef.name,
      );
    }
    // helm-controller names the HelmChart it builds in status.helmChart (`<namespace>/<name>`)
    const [namespace, name] = String(object.status?.helmChart ?? '').split('/');
    return name ? read('HelmChart', namespace, name) : undefined;
  }

  /**
   * The truth of which ready reconcilers have not applied their source's newest revision: a source that moved
   * leaves the reconcilers of it behind until they reconcile; a reconciler that applied it is current.
   */
  private followSources(
    record: SimulatedObject,
    before: string | undefined,
    object: any,
  ): void {
    if (record.kind === 'Kustomization' || record.kind === 'HelmRelease') {
      if (record.state === 'ready') record.behindSource = false;
      return;
    }
    if (object.status?.artifact?.revision === before) return;
    for (const other of this.cluster.records.values()) {
      if (
        other.kind === 'Kustomization' &&
        other.state === 'ready' &&
        other.sources.some(
          s =>
            s.kind === record.kind &&
            s.namespace === record.namespace &&
            s.name === record.name,
        )
      ) {
        other.behindSource = true;
      }
    }
  }

  /** One reconciliation; returns false when no object could churn. */
  step(): boolean {
    const keys = this.candidates();
    for (let attempt = 0; attempt < 20 && keys.length > 0; attempt++) {
      const key = keys[Math.floor(Math.random() * keys.length)];
      const record = this.cluster.records.get(key);
      if (!this.usable(record)) continue;
      const object = this.cluster.read(
        record.kind,
        record.namespace,
        record.name,
      );
      if (!object || object.metadata.deletionTimestamp) continue;
      const draw = Math.random();
      const state = nextState(record.state, draw);
      const before = object.status?.artifact?.revision;
      const event = applyOutcome(
        object,
        state,
        Math.random(),
        this.sourceRevisionOf(record, object),
      );
      this.cluster.writeFlux(record.kind, object, { statusOnly: true });
      this.followSources(this.cluster.records.get(key)!, before, object);
      if (event.type === 'Warning' || Math.random() < 0.2)
        this.cluster.emitEvent(object, event);
      return true;
    }
    return false;
  }
}
