/**
 * The Flux version of an instance (rules §10), right for every way of installing Flux: the Flux Operator's own
 * word (FluxReport `spec.distribution.version`, FluxInstance `status.lastAppliedRevision`), else the
 * Deployments' `app.kubernetes.io/version` label (`flux bootstrap`, `flux install`), else the controllers' image
 * versions mapped to the Flux release that shipped them (a plain `install.yaml`, a Helm chart).
 */
import {
  FLUX_RELEASE_TABLE,
  parseFluxVersion,
  releasesShipping,
} from './fluxReleases';
import { compareText } from './order';
import type { Finding, FluxController } from './types';
import { FINDING_SEVERITY } from './vocabulary';

/** Where an instance's Flux version comes from. */
export type FluxVersionSource =
  | 'flux-operator'
  | 'version-label'
  | 'controller-images';

/** One controller and the Flux releases its image version shipped in. */
export interface ControllerRelease {
  /** The Deployment's name. */
  controller: string;
  component: FluxController['component'];
  imageVersion?: string;
  /** Its version label, normalised to `vX.Y.Z`, when it has one that is a Flux 2 version. */
  labelVersion?: string;
  /** Flux releases shipping the image version, oldest first; empty when the table knows none. */
  releases: string[];
}

/** The Flux version of one instance, with its evidence. */
export interface InstanceFluxVersion {
  /** e.g. `v2.6.0`; undefined when nothing tells it. */
  version?: string;
  source?: FluxVersionSource;
  /** Controllers of different Flux releases run side by side. */
  mixed: boolean;
  controllers: ControllerRelease[];
}

function normalised(version: string | undefined): string | undefined {
  const parsed = parseFluxVersion(version);
  if (!parsed || parsed.major !== 2) return undefined;
  return `v${parsed.major}.${parsed.minor}.${parsed.patch}`;
}

/** Oldest first, by the table's order, else by semantic version. */
function compareFluxVersions(a: string, b: string): number {
  const pa = parseFluxVersion(a);
  const pb = parseFluxVersion(b);
  if (!pa || !pb) return compareText(a, b);
  return pa.major - pb.major || pa.minor - pb.minor || pa.patch - pb.patch;
}

/**
 * The Flux version an operator object states: FluxReport `spec.distribution.version` (`v2.8.3`) or FluxInstance
 * `status.lastAppliedRevision` (`v2.8.3@sha256:…`). Undefined when it states none that is a Flux 2 version.
 */
export function operatorFluxVersion(
  text: string | undefined,
): string | undefined {
  return normalised(text?.split('@')[0]);
}

/**
 * The Flux version of an instance from its controllers (rules §10). `operatorVersion` is what the Flux Operator
 * states for it (see {@link operatorFluxVersion}); it wins when present. Controllers whose images point at
 * several releases (patch releases that did not change that controller) narrow each other down; the instance
 * then runs the newest release all its images agree on, since it runs exactly that release's images.
 */
export function deriveInstanceFluxVersion(
  controllers: readonly FluxController[],
  operatorVersion?: string,
): InstanceFluxVersion {
  const list: ControllerRelease[] = [...controllers]
    .sort((a, b) => compareText(a.name, b.name))
    .map(c => {
      const labelVersion = normalised(c.version);
      return {
        controller: c.name,
        component: c.component,
        ...(c.imageVersion !== undefined
          ? { imageVersion: c.imageVersion }
          : {}),
        ...(labelVersion !== undefined ? { labelVersion } : {}),
        releases: c.imageVersion
          ? releasesShipping(c.component, c.imageVersion).map(r => r.version)
          : [],
      };
    });

  const known = list.filter(c => c.releases.length > 0);
  let common: string[] | undefined;
  for (const c of known) {
    common = common
      ? common.filter(v => c.releases.includes(v))
      : [...c.releases];
  }
  const labels = [
    ...new Set(list.map(c => c.labelVersion).filter(v => v !== undefined)),
  ].sort(compareFluxVersions) as string[];
  const mixedImages = common !== undefined && common.length === 0;
  const mixed = mixedImages || labels.length > 1;

  const fromOperator = operatorFluxVersion(operatorVersion);
  if (fromOperator) {
    return {
      version: fromOperator,
      source: 'flux-operator',
      mixed,
      controllers: list,
    };
  }
  if (labels.length > 0) {
    // Mixed labels: the oldest release is the one an upgrade starts from.
    return {
      version: labels[0],
      source: 'version-label',
      mixed,
      controllers: list,
    };
  }
  if (common && common.length > 0) {
    return {
      version: common[common.length - 1],
      source: 'controller-images',
      mixed,
      controllers: list,
    };
  }
  if (known.length > 0) {
    // Mixed images: each controller's newest release, and the oldest of those for the instance.
    const newestEach = known
      .map(c => c.releases[c.releases.length - 1])
      .sort(compareFluxVersions);
    return {
      version: newestEach[0],
      source: 'controller-images',
      mixed,
      controllers: list,
    };
  }
  return { mixed, controllers: list };
}

/** `v2.6.0` or `v2.6.0–v2.6.1` for a run of releases. */
function releaseRange(releases: readonly string[]): string {
  if (releases.length === 0) return 'no known Flux release';
  if (releases.length === 1) return `Flux ${releases[0]}`;
  return `Flux ${releases[0]}–${releases[releases.length - 1]}`;
}

/** `mixed-versions`: the controllers of one instance come from different Flux releases. */
export function mixedVersionsFinding(
  cluster: string,
  instance: string,
  version: InstanceFluxVersion,
): Finding | undefined {
  if (!version.mixed) return undefined;
  const parts = version.controllers.map(c => {
    const image =
      c.imageVersion !== undefined
        ? `${c.imageVersion} (${releaseRange(c.releases)})`
        : 'no image version';
    const label =
      c.labelVersion !== undefined ? `, labelled ${c.labelVersion}` : '';
    return `${c.controller} ${image}${label}`;
  });
  return {
    type: 'mixed-versions',
    severity: FINDING_SEVERITY['mixed-versions'],
    instance: { cluster, instance },
    message:
      `Instance ${instance} in cluster ${cluster} runs controllers of different Flux releases, ` +
      `a combination Flux does not test: ${parts.join('; ')}. ` +
      `Install one release for all of them (flux install, or the Flux Operator)`,
    related: [],
  };
}

/**
 * The Flux versions of a cluster's instances, one per instance, sorted: what the cluster list shows. Takes the
 * controllers of every instance of the cluster.
 */
export function clusterFluxVersions(
  controllers: Iterable<FluxController>,
): string[] {
  const byInstance = new Map<string, FluxController[]>();
  for (const c of controllers) {
    const list = byInstance.get(c.instance);
    if (list) list.push(c);
    else byInstance.set(c.instance, [c]);
  }
  const versions = new Set<string>();
  for (const list of byInstance.values()) {
    const { version } = deriveInstanceFluxVersion(list);
    if (version !== undefined) versions.add(version);
  }
  return [...versions].sort(compareFluxVersions);
}

/** Releases of the table newer than `version` (how far behind the latest an instance is). */
export function releasesBehind(version: string): {
  minors: number;
  releases: number;
} {
  const parsed = parseFluxVersion(version);
  const latest = FLUX_RELEASE_TABLE[FLUX_RELEASE_TABLE.length - 1];
  if (!parsed) return { minors: 0, releases: 0 };
  return {
    minors: Math.max(0, latest.minor - parsed.minor),
    releases: FLUX_RELEASE_TABLE.filter(
      r => compareFluxVersions(r.version, version) > 0,
    ).length,
  };
}
