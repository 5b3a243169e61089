/**
 * The Flux releases the simulator deploys, and the API versions each release serves for every Flux kind
 * (preferred version first). Controller image tags are those each release's manifests pin
 * (`manifests/bases/<controller>/kustomization.yaml` at the `fluxcd/flux2` tag); served versions are those of
 * the CRDs those controller releases ship (checked 2026-12-01: notification and image `v1beta2` stay served
 * until Flux 2.9).
 */

/** A Flux component that runs as a controller Deployment. */
export type FluxComponent =
  | 'source-controller'
  | 'kustomize-controller'
  | 'helm-controller'
  | 'notification-controller'
  | 'image-reflector-controller'
  | 'image-automation-controller'
  | 'source-watcher';

/** One Flux release line as the simulator deploys it. */
export interface FluxRelease {
  /** e.g. `v2.8.3` */
  version: string;
  minor: number;
  /** Image tags of the controllers shipped with this release. */
  controllerTags: Partial<Record<FluxComponent, string>>;
  /** The Kubernetes version the clusters running this release report. */
  kubernetesVersion: string;
}

/** The releases of Flux 2.4 to 2.9 the generator spreads clusters over. */
export const FLUX_RELEASES: readonly FluxRelease[] = [
  {
    version: 'v2.4.0',
    minor: 4,
    kubernetesVersion: 'v1.30.9',
    controllerTags: {
      'source-controller': 'v1.4.1',
      'kustomize-controller': 'v1.4.0',
      'helm-controller': 'v1.1.0',
      'notification-controller': 'v1.4.0',
      'image-reflector-controller': 'v0.33.0',
      'image-automation-controller': 'v0.39.0',
    },
  },
  {
    version: 'v2.5.1',
    minor: 5,
    kubernetesVersion: 'v1.31.5',
    controllerTags: {
      'source-controller': 'v1.5.0',
      'kustomize-controller': 'v1.5.1',
      'helm-controller': 'v1.2.0',
      'notification-controller': 'v1.5.0',
      'image-reflector-controller': 'v0.34.0',
      'image-automation-controller': 'v0.40.0',
    },
  },
  {
    version: 'v2.6.4',
    minor: 6,
    kubernetesVersion: 'v1.32.6',
    controllerTags: {
      'source-controller': 'v1.6.2',
      'kustomize-controller': 'v1.6.1',
      'helm-controller': 'v1.3.0',
      'notification-controller': 'v1.6.0',
      'image-reflector-controller': 'v0.35.2',
      'image-automation-controller': 'v0.41.2',
    },
  },
  {
    version: 'v2.7.5',
    minor: 7,
    kubernetesVersion: 'v1.33.4',
    controllerTags: {
      'source-controller': 'v1.7.4',
      'kustomize-controller': 'v1.7.3',
      'helm-controller': 'v1.4.5',
      'notification-controller': 'v1.7.5',
      'image-reflector-controller': 'v1.0.4',
      'image-automation-controller': 'v1.0.4',
      'source-watcher': 'v2.0.3',
    },
  },
  {
    version: 'v2.8.3',
    minor: 8,
    kubernetesVersion: 'v1.34.2',
    controllerTags: {
      'source-controller': 'v1.8.1',
      'kustomize-controller': 'v1.8.2',
      'helm-controller': 'v1.5.3',
      'notification-controller': 'v1.8.2',
      'image-reflector-controller': 'v1.1.1',
      'image-automation-controller': 'v1.1.1',
      'source-watcher': 'v2.1.1',
    },
  },
  {
    version: 'v2.9.4',
    minor: 9,
    kubernetesVersion: 'v1.34.2',
    controllerTags: {
      'source-controller': 'v1.9.4',
      'kustomize-controller': 'v1.9.4',
      'helm-controller': 'v1.6.3',
      'notification-controller': 'v1.9.3',
      'image-reflector-controller': 'v1.2.4',
      'image-automation-controller': 'v1.2.4',
      'source-watcher': 'v2.2.3',
    },
  },
];

/** The newest release: what `--empty` clusters serve. */
export const LATEST_FLUX_RELEASE = FLUX_RELEASES[FLUX_RELEASES.length - 1];

/** The Flux Operator version deployed on operator-managed clusters. */
export const FLUX_OPERATOR_VERSION = 'v0.58.0';

/** Finds a release by its version, e.g. `v2.8.3`. */
export function fluxRelease(version: string): FluxRelease {
  const release = FLUX_RELEASES.find(r => r.version === version);
  if (!release) {
    throw new Error(
      `Unknown Flux release ${version}; known: ${FLUX_RELEASES.map(
        r => r.version,
      ).join(', ')}`,
    );
  }
  return release;
}

/**
 * API versions served for each Flux kind by a Flux minor release, preferred first; an empty list means the
 * release does not serve the kind (flux-domain.md §1).
 */
export function servedFluxVersions(kind: string, minor: number): string[] {
  switch (kind) {
    case 'GitRepository':
    case 'HelmRepository':
    case 'HelmChart':
    case 'Bucket':
      if (minor <= 6) return ['v1', 'v1beta2', 'v1beta1'];
      if (minor === 7) return ['v1', 'v1beta2'];
      return ['v1'];
    case 'OCIRepository':
      if (minor <= 5) return ['v1beta2'];
      if (minor <= 7) return ['v1', 'v1beta2'];
      return ['v1'];
    case 'ExternalArtifact':
      return minor >= 7 ? ['v1'] : [];
    case 'Kustomization':
      if (minor <= 6) return ['v1', 'v1beta2', 'v1beta1'];
      if (minor === 7) return ['v1', 'v1beta2'];
      return ['v1'];
    case 'HelmRelease':
      if (minor <= 6) return ['v2', 'v2beta2', 'v2beta1'];
      if (minor === 7) return ['v2', 'v2beta2'];
      return ['v2'];
    case 'Alert':
    case 'Provider':
      if (minor <= 6) return ['v1beta3', 'v1beta2', 'v1beta1'];
      if (minor <= 8) return ['v1beta3', 'v1beta2'];
      return ['v1beta3'];
    case 'Receiver':
      if (minor <= 6) return ['v1', 'v1beta2', 'v1beta1'];
      if (minor <= 8) return ['v1', 'v1beta2'];
      return ['v1'];
    case 'ImageRepository':
    case 'ImagePolicy':
    case 'ImageUpdateAutomation':
      if (minor <= 6) return ['v1beta2', 'v1beta1'];
      if (minor <= 8) return ['v1', 'v1beta2'];
      return ['v1'];
    case 'ArtifactGenerator':
      return minor >= 7 ? ['v1beta1'] : [];
    case 'FluxInstance':
    case 'FluxReport':
    case 'ResourceSet':
    case 'ResourceSetInputProvider':
      return ['v1'];
    default:
      return [];
  }
}
