/**
 * The status conditions Flux controllers write for each kind and reconcile state, with their real reasons and
 * message shapes (flux-domain.md §2, the examples). The generator renders statuses with them, and the
 * simulated controllers (churn, reconcile requests) rewrite statuses with them, so a state always reads back
 * as the state that was meant (a test checks this for every generated object).
 */
import type { ReconcileStateName } from './model';

/** A `metav1.Condition`. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime: string;
}

/** What a condition set says beyond the state: why it failed, what revision, which dependency. */
export interface ConditionDetail {
  /** The revision the object serves or applied (sources: artifact revision). */
  revision?: string;
  /** A failure reason and message (failed, stalled). */
  reason?: string;
  message?: string;
  /** `namespace/name` of the dependency a blocked object waits for. */
  dependency?: string;
  /** Extra text for ready messages (chart name and version, tag count, …). */
  readyMessage?: string;
  readyReason?: string;
}

const SOURCE_KINDS = new Set([
  'GitRepository',
  'OCIRepository',
  'HelmRepository',
  'HelmChart',
  'Bucket',
  'ExternalArtifact',
]);

/** The Ready reason and message a kind reports when it reconciled successfully. */
export function readyCondition(
  kind: string,
  detail: ConditionDetail,
): { reason: string; message: string } {
  if (detail.readyMessage) {
    return {
      reason: detail.readyReason ?? 'Succeeded',
      message: detail.readyMessage,
    };
  }
  const revision = detail.revision ?? '';
  switch (kind) {
    case 'GitRepository':
      return {
        reason: 'Succeeded',
        message: `stored artifact for revision '${revision}'`,
      };
    case 'OCIRepository':
      return {
        reason: 'Succeeded',
        message: `stored artifact for digest '${revision}'`,
      };
    case 'HelmRepository':
    case 'Bucket':
      return {
        reason: 'Succeeded',
        message: `stored artifact: revision '${revision}'`,
      };
    case 'Kustomization':
      return {
        reason: 'ReconciliationSucceeded',
        message: `Applied revision: ${revision}`,
      };
    case 'FluxInstance':
    case 'ResourceSet':
    case 'ResourceSetInputProvider':
      return {
        reason: 'ReconciliationSucceeded',
        message: 'Reconciliation finished in 2s',
      };
    default:
      return { reason: 'Succeeded', message: 'Reconciliation succeeded' };
  }
}

function condition(
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
  generation: number,
  time: string,
): Condition {
  return {
    type,
    status,
    reason,
    message,
    observedGeneration: generation,
    lastTransitionTime: time,
  };
}

/**
 * The conditions of an object in a state. `suspended` and `terminating` are not status states (they come from
 * `spec.suspend` and `deletionTimestamp`): render the state the object was in before.
 */
export function conditionsFor(
  kind: string,
  state: ReconcileStateName,
  detail: ConditionDetail,
  generation: number,
  time: string,
): Condition[] {
  const source = SOURCE_KINDS.has(kind);
  const applier = kind === 'Kustomization' || kind === 'HelmRelease';
  switch (state) {
    case 'ready': {
      const { reason, message } = readyCondition(kind, detail);
      const out = [
        condition('Ready', 'True', reason, message, generation, time),
      ];
      if (source && kind !== 'ExternalArtifact') {
        out.push(
          condition(
            'ArtifactInStorage',
            'True',
            reason,
            message,
            generation,
            time,
          ),
        );
      }
      if (kind === 'HelmRelease') {
        out.push(
          condition('Released', 'True', reason, message, generation, time),
        );
      }
      return out;
    }
    case 'failed': {
      const reason = detail.reason ?? 'ReconciliationFailed';
      const message = detail.message ?? 'reconciliation failed';
      const out = [
        condition('Ready', 'False', reason, message, generation, time),
      ];
      if (source) {
        out.push(
          condition('FetchFailed', 'True', reason, message, generation, time),
        );
        if (detail.revision) {
          const stored = readyCondition(kind, detail);
          out.push(
            condition(
              'ArtifactInStorage',
              'True',
              stored.reason,
              stored.message,
              generation,
              time,
            ),
          );
        }
      }
      if (kind === 'HelmRelease' && /Install|Upgrade|Test/.test(reason)) {
        out.push(
          condition('Released', 'False', reason, message, generation, time),
        );
      }
      if (reason === 'HealthCheckFailed') {
        out.push(
          condition('Healthy', 'False', reason, message, generation, time),
        );
      }
      if (applier) {
        out.push(
          condition(
            'Reconciling',
            'True',
            'ProgressingWithRetry',
            `Detecting drift for revision ${
              detail.revision ?? ''
            } with a timeout of 5m0s`,
            generation,
            time,
          ),
        );
      }
      return out;
    }
    case 'blocked': {
      const message =
        detail.message ?? `dependency '${detail.dependency}' is not ready`;
      return [
        condition(
          'Ready',
          'False',
          'DependencyNotReady',
          message,
          generation,
          time,
        ),
      ];
    }
    case 'stalled': {
      const reason = detail.reason ?? 'RetriesExceeded';
      const message = detail.message ?? 'Failed to reconcile after retries';
      return [
        condition('Ready', 'False', reason, message, generation, time),
        condition('Stalled', 'True', reason, message, generation, time),
      ];
    }
    case 'progressing': {
      const message = source
        ? `building artifact: new upstream revision '${detail.revision ?? ''}'`
        : 'Reconciliation in progress';
      return [
        condition(
          'Reconciling',
          'True',
          'Progressing',
          message,
          generation,
          time,
        ),
        condition('Ready', 'Unknown', 'Progressing', message, generation, time),
      ];
    }
    default:
      return [];
  }
}

/** A failure (reason, message) typical for a kind, picked by an index (so the generator varies them). */
export function typicalFailure(
  kind: string,
  pick: number,
  facts: {
    namespace: string;
    name: string;
    url?: string;
    chart?: string;
    version?: string;
    workload?: string;
  },
): { reason: string; message: string } {
  const { namespace, name } = facts;
  const options: Array<{ reason: string; message: string }> = [];
  switch (kind) {
    case 'GitRepository':
      options.push(
        {
          reason: 'GitOperationFailed',
          message: `failed to checkout and determine revision: unable to clone '${facts.url}': authentication required: Invalid username or password`,
        },
        {
          reason: 'GitOperationFailed',
          message: `failed to checkout and determine revision: unable to clone '${facts.url}': couldn't find remote ref "refs/heads/release-2026.07"`,
        },
        {
          reason: 'AuthenticationFailed',
          message: `failed to get secret '${namespace}/${name}-git-auth': secrets "${name}-git-auth" not found`,
        },
      );
      break;
    case 'OCIRepository':
      options.push(
        {
          reason: 'OCIArtifactPullFailed',
          message: `failed to determine artifact digest: GET https://${(
            facts.url ?? ''
          ).replace(
            /^oci:\/\//,
            '',
          )}/manifests/latest: UNAUTHORIZED: authentication required`,
        },
        {
          reason: 'OCIArtifactPullFailed',
          message: `failed to pull artifact from '${facts.url}': MANIFEST_UNKNOWN: manifest unknown`,
        },
      );
      break;
    case 'HelmRepository':
      options.push({
        reason: 'IndexationFailed',
        message: `failed to fetch Helm repository index: failed to cache index to temporary file: failed to fetch ${facts.url}/index.yaml : 503 Service Unavailable`,
      });
      break;
    case 'HelmChart':
      options.push({
        reason: 'ChartPullFailed',
        message: `invalid chart reference: failed to get chart version for remote reference: no '${facts.chart}' chart with version matching '${facts.version}' found`,
      });
      break;
    case 'Bucket':
      options.push({
        reason: 'BucketOperationFailed',
        message: `failed to confirm existence of '${name}' bucket: The specified bucket does not exist`,
      });
      break;
    case 'Kustomization':
      options.push(
        {
          reason: 'HealthCheckFailed',
          message: `health check failed after 5m0.03s: timeout waiting for: [Deployment/${namespace}/${
            facts.workload ?? name
          } status: 'InProgress']`,
        },
        {
          reason: 'BuildFailed',
          message: `kustomize build failed: accumulating resources: accumulation err='accumulating resources from 'overlays/prod': evalsymlink failure on '/tmp/kustomization-1923814121/deploy/${name}/overlays/prod' : lstat /tmp/kustomization-1923814121/deploy/${name}/overlays: no such file or directory'`,
        },
        {
          reason: 'ReconciliationFailed',
          message: `Deployment/${namespace}/${
            facts.workload ?? name
          } dry-run failed (Invalid): Deployment.apps "${
            facts.workload ?? name
          }" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app.kubernetes.io/name":"${
            facts.workload ?? name
          }"}}: field is immutable`,
        },
      );
      break;
    case 'HelmRelease':
      options.push(
        {
          reason: 'UpgradeFailed',
          message: `Helm upgrade failed for release ${namespace}/${name} with chart ${facts.chart}@${facts.version}: context deadline exceeded`,
        },
        {
          reason: 'InstallFailed',
          message: `Helm install failed for release ${namespace}/${name} with chart ${facts.chart}@${facts.version}: failed pre-install: 1 error occurred:\n\t* timed out waiting for the condition`,
        },
        {
          reason: 'TestFailed',
          message: `Helm test failed for release ${namespace}/${name} with chart ${facts.chart}@${facts.version}: pod ${name}-test-connection failed`,
        },
      );
      break;
    case 'ImageRepository':
      options.push({
        reason: 'ReconciliationFailed',
        message: `GET https://ghcr.io/v2/acme/${name}/tags/list: UNAUTHORIZED: authentication required`,
      });
      break;
    default:
      options.push({
        reason: 'ReconciliationFailed',
        message: 'reconciliation failed',
      });
  }
  return options[pick % options.length];
}
