/**
 * Which revision a Flux object shows (rules §2), read from its status by shape rather than by API version:
 * CRDs have no conversion webhook, so an object read at a new version may still carry a status written in an
 * older shape (a HelmRelease read at v2 whose status still has only `lastAppliedRevision`).
 */
import type { FieldReader } from './readUnknown';
import type { FluxKind } from './vocabulary';

const ARTIFACT_KINDS: ReadonlySet<FluxKind> = new Set([
  'GitRepository',
  'OCIRepository',
  'HelmRepository',
  'HelmChart',
  'Bucket',
  'ExternalArtifact',
]);

/**
 * The revision an object shows:
 * - Kustomization, FluxInstance, ResourceSet: `status.lastAppliedRevision`;
 * - HelmRelease: `status.history[0].chartVersion` (v2beta2+), else `status.lastAppliedRevision` (v2beta1);
 * - sources and ExternalArtifact: `status.artifact.revision`;
 * - ImagePolicy: `status.latestRef.tag` (v1), else `status.latestImage` (v1beta2);
 * - ImageUpdateAutomation: `status.lastPushCommit`;
 * - FluxReport: `spec.distribution.version`, the Flux release the operator found installed (it writes the report's
 *   spec itself, from what runs).
 */
export function appliedRevisionOf(
  kind: FluxKind,
  status: FieldReader,
  spec?: FieldReader,
): string | undefined {
  if (ARTIFACT_KINDS.has(kind)) {
    return status.object('artifact').string('revision');
  }
  switch (kind) {
    case 'Kustomization':
    case 'FluxInstance':
    case 'ResourceSet':
      return status.string('lastAppliedRevision');
    case 'HelmRelease': {
      const history = status.list('history');
      if (history && history.length > 0) {
        const chartVersion = status
          .child(history[0], '.history[0]')
          .string('chartVersion');
        if (chartVersion) return chartVersion;
      }
      return status.string('lastAppliedRevision');
    }
    case 'ImagePolicy': {
      const tag = status.object('latestRef').string('tag');
      return tag ?? status.string('latestImage');
    }
    case 'ImageUpdateAutomation':
      return status.string('lastPushCommit');
    case 'FluxReport':
      return spec?.object('distribution').string('version');
    default:
      return undefined;
  }
}

/** `status.lastAttemptedRevision` of the kinds that have it (Kustomization, HelmRelease, FluxInstance). */
export function attemptedRevisionOf(
  kind: FluxKind,
  status: FieldReader,
): string | undefined {
  switch (kind) {
    case 'Kustomization':
    case 'HelmRelease':
    case 'FluxInstance':
      return status.string('lastAttemptedRevision');
    default:
      return undefined;
  }
}
