/**
 * Builders of Flux objects as real clusters hold them (flux-domain.md, shared/docs/examples): spec and the
 * status a controller writes for the requested reconcile state. Pure functions of the facts they are given;
 * the generator decides the facts.
 */
import { conditionsFor, type ConditionDetail } from './conditions';
import { compareStrings } from '../ordering';
import type { ReconcileStateName } from './model';

/** Metadata common to every built object. */
export interface Meta {
  name: string;
  namespace: string;
  uid: string;
  created: string;
  generation: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: boolean;
}

/** The status a builder renders. */
export interface StatusFacts {
  /**
   * The state the status shows. `suspended` objects pass the state they were in when suspended; objects that
   * were never reconciled get no status.
   */
  state: ReconcileStateName;
  /** Conditions' lastTransitionTime. */
  since: string;
  /** status.observedGeneration (defaults to the generation; lower = a spec change not yet seen). */
  observedGeneration?: number;
  detail: ConditionDetail;
  lastHandledReconcileAt?: string;
}

/** Artifact facts of a source. */
export interface ArtifactFacts {
  revision: string;
  digest: string;
  path: string;
  url: string;
  lastUpdateTime: string;
  size: number;
}

function metadata(meta: Meta): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: meta.name,
    namespace: meta.namespace,
    uid: meta.uid,
    generation: meta.generation,
    creationTimestamp: meta.created,
  };
  if (meta.labels && Object.keys(meta.labels).length > 0)
    out.labels = meta.labels;
  if (meta.annotations && Object.keys(meta.annotations).length > 0) {
    out.annotations = meta.annotations;
  }
  if (meta.finalizers !== false) out.finalizers = ['finalizers.fluxcd.io'];
  return out;
}

/** The status common part: observedGeneration, lastHandledReconcileAt, conditions. */
function baseStatus(
  kind: string,
  meta: Meta,
  facts: StatusFacts,
): Record<string, unknown> {
  const observed = facts.observedGeneration ?? meta.generation;
  const status: Record<string, unknown> = { observedGeneration: observed };
  if (facts.lastHandledReconcileAt) {
    status.lastHandledReconcileAt = facts.lastHandledReconcileAt;
  }
  status.conditions = conditionsFor(
    kind,
    facts.state,
    facts.detail,
    observed,
    facts.since,
  );
  return status;
}

function object(
  apiVersion: string,
  kind: string,
  meta: Meta,
  spec: Record<string, unknown>,
  status: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    apiVersion,
    kind,
    metadata: metadata(meta),
    spec,
  };
  if (status) out.status = status;
  return out;
}

function hasStatus(facts: StatusFacts | undefined): facts is StatusFacts {
  return facts !== undefined && facts.state !== 'never-reconciled';
}

/** A GitRepository. */
export function gitRepository(
  apiVersion: string,
  meta: Meta,
  spec: {
    url: string;
    branch: string;
    interval: string;
    secretRef?: string;
    suspend?: boolean;
  },
  facts?: StatusFacts,
  artifact?: ArtifactFacts,
): Record<string, unknown> {
  const specOut: Record<string, unknown> = {
    interval: spec.interval,
    timeout: '60s',
    url: spec.url,
    ref: { branch: spec.branch },
  };
  if (spec.secretRef) specOut.secretRef = { name: spec.secretRef };
  if (spec.suspend) specOut.suspend = true;
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('GitRepository', meta, facts);
    if (artifact) status.artifact = artifact;
  }
  return object(apiVersion, 'GitRepository', meta, specOut, status);
}

/** An OCIRepository. */
export function ociRepository(
  apiVersion: string,
  meta: Meta,
  spec: {
    url: string;
    tag?: string;
    semver?: string;
    interval: string;
    suspend?: boolean;
  },
  facts?: StatusFacts,
  artifact?: ArtifactFacts,
): Record<string, unknown> {
  const specOut: Record<string, unknown> = {
    interval: spec.interval,
    url: spec.url,
    ref: spec.semver ? { semver: spec.semver } : { tag: spec.tag ?? 'latest' },
    provider: 'generic',
  };
  if (spec.suspend) specOut.suspend = true;
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('OCIRepository', meta, facts);
    if (artifact) {
      status.artifact = artifact;
      status.url = artifact.url.replace(/\/[^/]+$/, '/latest.tar.gz');
    }
  }
  return object(apiVersion, 'OCIRepository', meta, specOut, status);
}

/** A HelmRepository (HTTPS index). */
export function helmRepository(
  apiVersion: string,
  meta: Meta,
  spec: { url: string; interval: string; suspend?: boolean },
  facts?: StatusFacts,
  artifact?: ArtifactFacts,
): Record<string, unknown> {
  const specOut: Record<string, unknown> = {
    interval: spec.interval,
    url: spec.url,
  };
  if (spec.suspend) specOut.suspend = true;
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('HelmRepository', meta, facts);
    if (artifact) {
      status.artifact = artifact;
      status.url = artifact.url.replace(/\/[^/]+$/, '/index.yaml');
    }
  }
  return object(apiVersion, 'HelmRepository', meta, specOut, status);
}

/** A HelmChart, as helm-controller generates it from a HelmRelease's `spec.chart`. */
export function helmChart(
  apiVersion: string,
  meta: Meta,
  spec: {
    chart: string;
    version: string;
    repository: string;
    suspend?: boolean;
  },
  facts?: StatusFacts,
  artifact?: ArtifactFacts,
  sourceRevision?: string,
): Record<string, unknown> {
  const specOut: Record<string, unknown> = {
    chart: spec.chart,
    version: spec.version,
    sourceRef: { kind: 'HelmRepository', name: spec.repository },
    interval: '1h',
    reconcileStrategy: 'ChartVersion',
  };
  if (spec.suspend) specOut.suspend = true;
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('HelmChart', meta, facts);
    status.observedChartName = spec.chart;
    if (sourceRevision) status.observedSourceArtifactRevision = sourceRevision;
    if (artifact) {
      status.artifact = artifact;
      status.url = artifact.url.replace(
        /\/[^/]+$/,
        `/${spec.chart}-latest.tgz`,
      );
    }
  }
  return object(apiVersion, 'HelmChart', meta, specOut, status);
}

/** A Bucket. */
export function bucket(
  apiVersion: string,
  meta: Meta,
  spec: { bucketName: string; endpoint: string; interval: string },
  facts?: StatusFacts,
  artifact?: ArtifactFacts,
): Record<string, unknown> {
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('Bucket', meta, facts);
    if (artifact) status.artifact = artifact;
  }
  return object(
    apiVersion,
    'Bucket',
    meta,
    {
      interval: spec.interval,
      provider: 'generic',
      bucketName: spec.bucketName,
      endpoint: spec.endpoint,
      insecure: true,
      secretRef: { name: `${spec.bucketName}-credentials` },
    },
    status,
  );
}

/** An inventory entry id: `<namespace>_<name>_<group>_<kind>`. */
export function inventoryId(
  namespace: string,
  name: string,
  group: string,
  kind: string,
): string {
  return `${namespace}_${name.replace(/:/g, '__')}_${group}_${kind}`;
}

/** Inventory entries sorted by id, as the controllers store them. */
export function inventory(
  entries: Array<{
    namespace: string;
    name: string;
    group: string;
    kind: string;
    version: string;
  }>,
): { entries: Array<{ id: string; v: string }> } {
  return {
    entries: entries
      .map(e => ({
        id: inventoryId(e.namespace, e.name, e.group, e.kind),
        v: e.version,
      }))
      .sort((a, b) => compareStrings(a.id, b.id)),
  };
}

/** Facts of a Kustomization's last reconciliations. */
export interface KustomizationFacts {
  lastAppliedRevision?: string;
  lastAttemptedRevision?: string;
  inventory?: ReturnType<typeof inventory>;
  /** `status.history` (Flux 2.7+). */
  history?: Array<Record<string, unknown>>;
}

/** A Kustomization. */
export function kustomization(
  apiVersion: string,
  meta: Meta,
  spec: {
    interval: string;
    path: string;
    sourceRef: { kind: string; name: string; namespace?: string };
    prune?: boolean;
    wait?: boolean;
    targetNamespace?: string;
    serviceAccountName?: string | null;
    dependsOn?: Array<{ name: string; namespace?: string }>;
    suspend?: boolean;
  },
  facts?: StatusFacts,
  applied?: KustomizationFacts,
): Record<string, unknown> {
  const specOut: Record<string, unknown> = {
    interval: spec.interval,
    retryInterval: '2m',
    timeout: '5m',
    path: spec.path,
    prune: spec.prune ?? true,
    sourceRef: spec.sourceRef,
  };
  if (spec.wait) specOut.wait = true;
  if (spec.targetNamespace) specOut.targetNamespace = spec.targetNamespace;
  if (spec.serviceAccountName)
    specOut.serviceAccountName = spec.serviceAccountName;
  if (spec.dependsOn && spec.dependsOn.length > 0)
    specOut.dependsOn = spec.dependsOn;
  if (spec.suspend) specOut.suspend = true;
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('Kustomization', meta, facts);
    if (applied?.lastAppliedRevision)
      status.lastAppliedRevision = applied.lastAppliedRevision;
    if (applied?.lastAttemptedRevision) {
      status.lastAttemptedRevision = applied.lastAttemptedRevision;
    }
    if (applied?.inventory) status.inventory = applied.inventory;
    if (applied?.history) status.history = applied.history;
  }
  return object(apiVersion, 'Kustomization', meta, specOut, status);
}

/** Facts of a HelmRelease's releases. */
export interface HelmReleaseFacts {
  chart: string;
  /** The version of the deployed release (history[0]). */
  chartVersion: string;
  /** Release number of the deployed release. */
  releaseVersion: number;
  attemptedVersion?: string;
  action: 'install' | 'upgrade';
  firstDeployed: string;
  lastDeployed: string;
  digest: string;
  configDigest: string;
  failures?: number;
  inventory?: ReturnType<typeof inventory>;
  helmChart?: string;
}

/** A HelmRelease (v2 shape, also served at v2beta2/v2beta1 where the cluster serves them). */
export function helmRelease(
  apiVersion: string,
  meta: Meta,
  spec: {
    interval: string;
    releaseName?: string;
    chart?: {
      chart: string;
      version: string;
      repository: string;
      labels?: Record<string, string>;
    };
    chartRef?: { kind: 'OCIRepository'; name: string };
    serviceAccountName?: string | null;
    dependsOn?: Array<{ name: string; namespace?: string }>;
    suspend?: boolean;
    values?: Record<string, unknown>;
  },
  facts?: StatusFacts,
  release?: HelmReleaseFacts,
): Record<string, unknown> {
  const specOut: Record<string, unknown> = { interval: spec.interval };
  if (spec.releaseName) specOut.releaseName = spec.releaseName;
  if (spec.chart) {
    const chartSpec: Record<string, unknown> = {
      spec: {
        chart: spec.chart.chart,
        version: spec.chart.version,
        sourceRef: { kind: 'HelmRepository', name: spec.chart.repository },
        interval: '1h',
      },
    };
    if (spec.chart.labels) chartSpec.metadata = { labels: spec.chart.labels };
    specOut.chart = chartSpec;
  }
  if (spec.chartRef) specOut.chartRef = spec.chartRef;
  specOut.install = { remediation: { retries: 3 } };
  specOut.upgrade = { remediation: { retries: 3, remediateLastFailure: true } };
  if (spec.serviceAccountName)
    specOut.serviceAccountName = spec.serviceAccountName;
  if (spec.dependsOn && spec.dependsOn.length > 0)
    specOut.dependsOn = spec.dependsOn;
  if (spec.values) specOut.values = spec.values;
  if (spec.suspend) specOut.suspend = true;
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts) && release) {
    status = baseStatus('HelmRelease', meta, facts);
    const attempted = release.attemptedVersion ?? release.chartVersion;
    Object.assign(status, {
      lastAttemptedGeneration: facts.observedGeneration ?? meta.generation,
      lastAttemptedRevision: attempted,
      lastAttemptedConfigDigest: release.configDigest,
      lastAttemptedReleaseAction: release.action,
      storageNamespace: meta.namespace,
    });
    if (release.helmChart) status.helmChart = release.helmChart;
    const releaseName = spec.releaseName ?? meta.name;
    const history: Array<Record<string, unknown>> = [
      {
        name: releaseName,
        namespace: meta.namespace,
        version: release.releaseVersion,
        status: 'deployed',
        chartName: release.chart,
        chartVersion: release.chartVersion,
        appVersion: release.chartVersion,
        firstDeployed: release.firstDeployed,
        lastDeployed: release.lastDeployed,
        configDigest: release.configDigest,
        digest: release.digest,
      },
    ];
    if (release.releaseVersion > 1) {
      history.push({
        name: releaseName,
        namespace: meta.namespace,
        version: release.releaseVersion - 1,
        status: 'superseded',
        chartName: release.chart,
        chartVersion: release.chartVersion.replace(/\d+$/, p =>
          String(Math.max(0, Number(p) - 1)),
        ),
        appVersion: release.chartVersion,
        firstDeployed: release.firstDeployed,
        lastDeployed: release.firstDeployed,
        configDigest: release.configDigest,
        digest: release.digest,
      });
    }
    status.history = history;
    if (release.failures) {
      status.failures = release.failures;
      status[
        release.action === 'install' ? 'installFailures' : 'upgradeFailures'
      ] = release.failures;
    }
    if (release.inventory) status.inventory = release.inventory;
  }
  return object(apiVersion, 'HelmRelease', meta, specOut, status);
}

/** A notification Provider (v1beta3: no status). */
export function provider(
  apiVersion: string,
  meta: Meta,
  spec: { type: string; channel?: string; secretRef?: string },
): Record<string, unknown> {
  const specOut: Record<string, unknown> = { type: spec.type };
  if (spec.channel) specOut.channel = spec.channel;
  if (spec.secretRef) specOut.secretRef = { name: spec.secretRef };
  return object(
    apiVersion,
    'Provider',
    { ...meta, finalizers: false },
    specOut,
    undefined,
  );
}

/** A notification Alert (v1beta3: no status). */
export function alert(
  apiVersion: string,
  meta: Meta,
  spec: {
    provider: string;
    severity: 'info' | 'error';
    sources: Array<{ kind: string; name: string; namespace?: string }>;
  },
): Record<string, unknown> {
  return object(
    apiVersion,
    'Alert',
    { ...meta, finalizers: false },
    {
      providerRef: { name: spec.provider },
      eventSeverity: spec.severity,
      eventSources: spec.sources,
    },
    undefined,
  );
}

/** A notification Receiver. */
export function receiver(
  apiVersion: string,
  meta: Meta,
  spec: {
    type: string;
    resources: Array<{ kind: string; name: string }>;
    webhookPath: string;
  },
  facts?: StatusFacts,
): Record<string, unknown> {
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('Receiver', meta, facts);
    status.webhookPath = spec.webhookPath;
  }
  return object(
    apiVersion,
    'Receiver',
    meta,
    {
      type: spec.type,
      events: ['ping', 'push'],
      secretRef: { name: 'webhook-token' },
      resources: spec.resources.map(r => ({
        apiVersion: 'source.toolkit.fluxcd.io/v1',
        ...r,
      })),
    },
    status,
  );
}

/** An ImageRepository. */
export function imageRepository(
  apiVersion: string,
  meta: Meta,
  spec: { image: string; interval: string },
  facts?: StatusFacts,
  scan?: { tagCount: number; scanTime: string; latestTags: string[] },
): Record<string, unknown> {
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('ImageRepository', meta, facts);
    status.canonicalImageName = spec.image;
    if (scan) status.lastScanResult = scan;
  }
  return object(
    apiVersion,
    'ImageRepository',
    meta,
    { image: spec.image, interval: spec.interval },
    status,
  );
}

/** An ImagePolicy: `latestRef` at v1, `latestImage` at v1beta2. */
export function imagePolicy(
  apiVersion: string,
  meta: Meta,
  spec: { repository: string; range: string },
  facts?: StatusFacts,
  latest?: { image: string; tag: string },
): Record<string, unknown> {
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('ImagePolicy', meta, facts);
    if (latest) {
      if (apiVersion.endsWith('/v1')) {
        status.latestRef = { name: latest.image, tag: latest.tag };
      } else {
        status.latestImage = `${latest.image}:${latest.tag}`;
      }
    }
  }
  return object(
    apiVersion,
    'ImagePolicy',
    meta,
    {
      imageRepositoryRef: { name: spec.repository },
      policy: { semver: { range: spec.range } },
    },
    status,
  );
}

/** An ImageUpdateAutomation. */
export function imageUpdateAutomation(
  apiVersion: string,
  meta: Meta,
  spec: { repository: string; path: string },
  facts?: StatusFacts,
  run?: { lastRun: string; lastPushCommit?: string; lastPushTime?: string },
): Record<string, unknown> {
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('ImageUpdateAutomation', meta, facts);
    if (run) {
      status.lastAutomationRunTime = run.lastRun;
      if (run.lastPushCommit) status.lastPushCommit = run.lastPushCommit;
      if (run.lastPushTime) status.lastPushTime = run.lastPushTime;
    }
  }
  return object(
    apiVersion,
    'ImageUpdateAutomation',
    meta,
    {
      interval: '30m',
      sourceRef: { kind: 'GitRepository', name: spec.repository },
      git: {
        checkout: { ref: { branch: 'main' } },
        commit: {
          author: {
            name: 'fluxcdbot',
            email: 'fluxcdbot@users.noreply.github.com',
          },
          messageTemplate:
            '{{range .Changed.Changes}}{{print .OldValue}} -> {{println .NewValue}}{{end}}',
        },
        push: { branch: 'main' },
      },
      update: { path: spec.path, strategy: 'Setters' },
    },
    status,
  );
}

/** An ArtifactGenerator (source-watcher, Flux 2.7+; typed by hand, not in @kubernetes-models/flux-cd). */
export function artifactGenerator(
  apiVersion: string,
  meta: Meta,
  spec: { source: { kind: string; name: string }; artifact: string },
  facts?: StatusFacts,
  generated?: { namespace: string; digest: string },
): Record<string, unknown> {
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = baseStatus('ArtifactGenerator', meta, facts);
    if (generated) {
      status.inventory = [
        {
          name: spec.artifact,
          namespace: generated.namespace,
          digest: generated.digest,
          filename: `${generated.digest.slice(7, 19)}.tar.gz`,
        },
      ];
      status.observedSourcesDigest = generated.digest;
    }
  }
  return object(
    apiVersion,
    'ArtifactGenerator',
    meta,
    {
      sources: [
        { alias: 'platform', kind: spec.source.kind, name: spec.source.name },
      ],
      artifacts: [
        {
          name: spec.artifact,
          copy: [{ from: '@platform/policies/**', to: '@artifact/' }],
        },
      ],
    },
    status,
  );
}

/** An ExternalArtifact written by its producer (here an ArtifactGenerator). */
export function externalArtifact(
  apiVersion: string,
  meta: Meta,
  spec: { producer: string },
  facts?: StatusFacts,
  artifact?: ArtifactFacts,
): Record<string, unknown> {
  let status: Record<string, unknown> | undefined;
  if (hasStatus(facts)) {
    status = {
      conditions: conditionsFor(
        'ExternalArtifact',
        facts.state,
        facts.detail,
        meta.generation,
        facts.since,
      ),
    };
    if (artifact) status.artifact = artifact;
  }
  return object(
    apiVersion,
    'ExternalArtifact',
    { ...meta, finalizers: false },
    {
      sourceRef: {
        apiVersion: 'source.extensions.fluxcd.io/v1beta1',
        kind: 'ArtifactGenerator',
        name: spec.producer,
      },
    },
    status,
  );
}
