/**
 * Every Flux release from 2.0.0 to the latest, with the image version of each controller it ships (rules §10).
 * Data from Flux's release manifests: `manifests/bases/<controller>/kustomization.yaml` at each `fluxcd/flux2`
 * release tag (read 2026-12-01; newest tag v2.9.4 of 2026-08-07). Used to tell the Flux release of an
 * installation whose Deployments carry no `app.kubernetes.io/version` label (a plain `install.yaml`, a Helm
 * chart): a controller's image tag is its own version (`helm-controller:v1.3.0`), never Flux's.
 */
import type { ControllerComponent } from './vocabulary';

/** One Flux release and the controller image versions it ships. */
export interface FluxReleaseInfo {
  /** e.g. `v2.6.0` */
  version: string;
  /** e.g. 6 for `v2.6.0` (every release here is Flux 2). */
  minor: number;
  patch: number;
  /** The image version of each controller the release ships; source-watcher from 2.7. */
  controllers: Partial<Record<ControllerComponent, string>>;
}

/** Column order of {@link ROWS} after the release version. */
const COLUMNS: readonly ControllerComponent[] = [
  'source-controller',
  'kustomize-controller',
  'helm-controller',
  'notification-controller',
  'image-reflector-controller',
  'image-automation-controller',
  'source-watcher',
];

// One row per release: Flux version, then the controllers' image versions in the order of COLUMNS.
const ROWS: ReadonlyArray<readonly string[]> = [
  ['v2.0.0', 'v1.0.0', 'v1.0.0', 'v0.35.0', 'v1.0.0', 'v0.29.0', 'v0.35.0'],
  ['v2.0.1', 'v1.0.1', 'v1.0.1', 'v0.35.0', 'v1.0.0', 'v0.29.1', 'v0.35.0'],
  ['v2.1.0', 'v1.1.0', 'v1.1.0', 'v0.36.0', 'v1.1.0', 'v0.30.0', 'v0.36.0'],
  ['v2.1.1', 'v1.1.1', 'v1.1.0', 'v0.36.1', 'v1.1.0', 'v0.30.0', 'v0.36.1'],
  ['v2.1.2', 'v1.1.2', 'v1.1.1', 'v0.36.2', 'v1.1.0', 'v0.30.0', 'v0.36.1'],
  ['v2.2.0', 'v1.2.2', 'v1.2.0', 'v0.37.0', 'v1.2.2', 'v0.31.1', 'v0.37.0'],
  ['v2.2.1', 'v1.2.3', 'v1.2.1', 'v0.37.1', 'v1.2.3', 'v0.31.1', 'v0.37.0'],
  ['v2.2.2', 'v1.2.3', 'v1.2.1', 'v0.37.2', 'v1.2.3', 'v0.31.1', 'v0.37.0'],
  ['v2.2.3', 'v1.2.4', 'v1.2.2', 'v0.37.4', 'v1.2.4', 'v0.31.2', 'v0.37.1'],
  ['v2.3.0', 'v1.3.0', 'v1.3.0', 'v1.0.1', 'v1.3.0', 'v0.32.0', 'v0.38.0'],
  ['v2.4.0', 'v1.4.1', 'v1.4.0', 'v1.1.0', 'v1.4.0', 'v0.33.0', 'v0.39.0'],
  ['v2.5.0', 'v1.5.0', 'v1.5.0', 'v1.2.0', 'v1.5.0', 'v0.34.0', 'v0.40.0'],
  ['v2.5.1', 'v1.5.0', 'v1.5.1', 'v1.2.0', 'v1.5.0', 'v0.34.0', 'v0.40.0'],
  ['v2.6.0', 'v1.6.0', 'v1.6.0', 'v1.3.0', 'v1.6.0', 'v0.35.0', 'v0.41.0'],
  ['v2.6.1', 'v1.6.0', 'v1.6.0', 'v1.3.0', 'v1.6.0', 'v0.35.1', 'v0.41.0'],
  ['v2.6.2', 'v1.6.1', 'v1.6.0', 'v1.3.0', 'v1.6.0', 'v0.35.2', 'v0.41.1'],
  ['v2.6.3', 'v1.6.2', 'v1.6.0', 'v1.3.0', 'v1.6.0', 'v0.35.2', 'v0.41.2'],
  ['v2.6.4', 'v1.6.2', 'v1.6.1', 'v1.3.0', 'v1.6.0', 'v0.35.2', 'v0.41.2'],
  [
    'v2.7.0',
    'v1.7.0',
    'v1.7.0',
    'v1.4.0',
    'v1.7.1',
    'v1.0.1',
    'v1.0.1',
    'v2.0.1',
  ],
  [
    'v2.7.1',
    'v1.7.1',
    'v1.7.0',
    'v1.4.1',
    'v1.7.2',
    'v1.0.1',
    'v1.0.1',
    'v2.0.1',
  ],
  [
    'v2.7.2',
    'v1.7.2',
    'v1.7.1',
    'v1.4.2',
    'v1.7.3',
    'v1.0.2',
    'v1.0.2',
    'v2.0.2',
  ],
  [
    'v2.7.3',
    'v1.7.3',
    'v1.7.2',
    'v1.4.3',
    'v1.7.4',
    'v1.0.3',
    'v1.0.3',
    'v2.0.2',
  ],
  [
    'v2.7.4',
    'v1.7.4',
    'v1.7.3',
    'v1.4.4',
    'v1.7.5',
    'v1.0.4',
    'v1.0.4',
    'v2.0.3',
  ],
  [
    'v2.7.5',
    'v1.7.4',
    'v1.7.3',
    'v1.4.5',
    'v1.7.5',
    'v1.0.4',
    'v1.0.4',
    'v2.0.3',
  ],
  [
    'v2.8.0',
    'v1.8.0',
    'v1.8.0',
    'v1.5.0',
    'v1.8.0',
    'v1.1.0',
    'v1.1.0',
    'v2.1.0',
  ],
  [
    'v2.8.1',
    'v1.8.0',
    'v1.8.1',
    'v1.5.1',
    'v1.8.1',
    'v1.1.0',
    'v1.1.0',
    'v2.1.0',
  ],
  [
    'v2.8.2',
    'v1.8.1',
    'v1.8.2',
    'v1.5.2',
    'v1.8.2',
    'v1.1.1',
    'v1.1.1',
    'v2.1.1',
  ],
  [
    'v2.8.3',
    'v1.8.1',
    'v1.8.2',
    'v1.5.3',
    'v1.8.2',
    'v1.1.1',
    'v1.1.1',
    'v2.1.1',
  ],
  [
    'v2.8.4',
    'v1.8.1',
    'v1.8.2',
    'v1.5.3',
    'v1.8.2',
    'v1.1.1',
    'v1.1.1',
    'v2.1.1',
  ],
  [
    'v2.8.5',
    'v1.8.2',
    'v1.8.3',
    'v1.5.3',
    'v1.8.3',
    'v1.1.1',
    'v1.1.1',
    'v2.1.1',
  ],
  [
    'v2.8.6',
    'v1.8.3',
    'v1.8.4',
    'v1.5.4',
    'v1.8.4',
    'v1.1.1',
    'v1.1.2',
    'v2.1.1',
  ],
  [
    'v2.8.7',
    'v1.8.4',
    'v1.8.5',
    'v1.5.4',
    'v1.8.4',
    'v1.1.1',
    'v1.1.3',
    'v2.1.1',
  ],
  [
    'v2.8.8',
    'v1.8.5',
    'v1.8.5',
    'v1.5.5',
    'v1.8.4',
    'v1.1.2',
    'v1.1.4',
    'v2.1.1',
  ],
  [
    'v2.9.0',
    'v1.9.1',
    'v1.9.1',
    'v1.6.1',
    'v1.9.1',
    'v1.2.1',
    'v1.2.1',
    'v2.2.1',
  ],
  [
    'v2.9.1',
    'v1.9.2',
    'v1.9.2',
    'v1.6.2',
    'v1.9.2',
    'v1.2.2',
    'v1.2.2',
    'v2.2.2',
  ],
  [
    'v2.9.2',
    'v1.9.3',
    'v1.9.3',
    'v1.6.2',
    'v1.9.2',
    'v1.2.3',
    'v1.2.3',
    'v2.2.2',
  ],
  [
    'v2.9.3',
    'v1.9.3',
    'v1.9.4',
    'v1.6.3',
    'v1.9.2',
    'v1.2.3',
    'v1.2.3',
    'v2.2.2',
  ],
  [
    'v2.9.4',
    'v1.9.4',
    'v1.9.4',
    'v1.6.3',
    'v1.9.3',
    'v1.2.4',
    'v1.2.4',
    'v2.2.3',
  ],
];

function parseRelease(row: readonly string[]): FluxReleaseInfo {
  const [version, ...tags] = row;
  const [, minor, patch] = version.slice(1).split('.').map(Number);
  const controllers: Partial<Record<ControllerComponent, string>> = {};
  tags.forEach((tag, i) => {
    controllers[COLUMNS[i]] = tag;
  });
  return { version, minor, patch, controllers };
}

/** Every Flux release since 2.0.0, oldest first. */
export const FLUX_RELEASE_TABLE: readonly FluxReleaseInfo[] =
  ROWS.map(parseRelease);

/** The newest Flux release the table knows. */
export const LATEST_KNOWN_FLUX_RELEASE =
  FLUX_RELEASE_TABLE[FLUX_RELEASE_TABLE.length - 1];

/** `v2.6.0` → `{ major: 2, minor: 6, patch: 0 }`; undefined for anything that is not `vX.Y.Z` (a `v` optional). */
export function parseFluxVersion(
  version: string | undefined,
): { major: number; minor: number; patch: number } | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(version ?? '');
  if (!match) return undefined;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
  };
}

/** The releases that ship a controller at an image version (several when patch releases did not change it). */
export function releasesShipping(
  component: ControllerComponent,
  imageVersion: string,
): FluxReleaseInfo[] {
  const wanted = imageVersion.startsWith('v')
    ? imageVersion
    : `v${imageVersion}`;
  return FLUX_RELEASE_TABLE.filter(r => r.controllers[component] === wanted);
}

/** The table row of a Flux version, e.g. `v2.8.3`; undefined when the table does not know it. */
export function fluxReleaseInfo(version: string): FluxReleaseInfo | undefined {
  const wanted = version.startsWith('v') ? version : `v${version}`;
  return FLUX_RELEASE_TABLE.find(r => r.version === wanted);
}

/** The newest release of a minor line, e.g. 8 → `v2.8.8`; undefined for a minor the table does not know. */
export function latestPatchOf(minor: number): FluxReleaseInfo | undefined {
  let found: FluxReleaseInfo | undefined;
  for (const release of FLUX_RELEASE_TABLE) {
    if (release.minor === minor) found = release;
  }
  return found;
}
