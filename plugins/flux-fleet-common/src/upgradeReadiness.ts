/**
 * Upgrade readiness (rules §10): what stands between a Flux instance and the next Flux minor, and which objects
 * are written at API versions Flux removed or deprecated. `upgrade-blocked` comes from the Flux CRDs'
 * `status.storedVersions`; `deprecated-api` from the version each object was last written with.
 */
import type { FluxCrdRecord } from './apiVersionFacts';
import {
  removedInMinor,
  servedApiVersions,
  storageApiVersion,
} from './fluxApiVersions';
import { LATEST_KNOWN_FLUX_RELEASE, parseFluxVersion } from './fluxReleases';
import { compareText } from './order';
import type { Finding, FluxObjectRef } from './types';
import { FINDING_SEVERITY, FLUX_KIND_GROUP, type FluxKind } from './vocabulary';

/** One stored version that the next minor removes. */
export interface UpgradeBlocker {
  crd: string;
  kind: FluxKind;
  /** The stored version that is (or will be) removed. */
  version: string;
  /** The Flux 2 minor that removes it. */
  removedIn: number;
}

/**
 * The stored versions of a cluster's Flux CRDs that Flux 2.`minor + 1` (or an earlier minor) no longer serves:
 * objects still stored at them cannot be read after the upgrade. Empty when the instance runs the newest minor
 * the table knows of, or when every stored version stays served.
 */
export function upgradeBlockers(
  currentMinor: number,
  crds: readonly FluxCrdRecord[],
): UpgradeBlocker[] {
  const nextMinor = currentMinor + 1;
  if (nextMinor > LATEST_KNOWN_FLUX_RELEASE.minor) return [];
  const blockers: UpgradeBlocker[] = [];
  for (const crd of crds) {
    for (const version of crd.storedVersions) {
      const removedIn = removedInMinor(crd.kind, version);
      if (removedIn !== undefined && removedIn <= nextMinor) {
        blockers.push({ crd: crd.name, kind: crd.kind, version, removedIn });
      }
    }
  }
  return blockers.sort(
    (a, b) => compareText(a.crd, b.crd) || compareText(a.version, b.version),
  );
}

/** `upgrade-blocked`: the instance cannot move to the next minor before `flux migrate` has run. */
export function upgradeBlockedFinding(
  cluster: string,
  instance: string,
  version: string,
  crds: readonly FluxCrdRecord[],
): Finding | undefined {
  const parsed = parseFluxVersion(version);
  if (!parsed) return undefined;
  const blockers = upgradeBlockers(parsed.minor, crds);
  if (blockers.length === 0) return undefined;
  const next = `2.${parsed.minor + 1}`;
  const list = blockers
    .map(b => `${b.crd} stores ${b.version} (removed in Flux 2.${b.removedIn})`)
    .join('; ');
  return {
    type: 'upgrade-blocked',
    severity: FINDING_SEVERITY['upgrade-blocked'],
    instance: { cluster, instance },
    message:
      `Instance ${instance} in cluster ${cluster} (Flux ${version}) cannot be upgraded to Flux ${next} yet: ` +
      `its CRDs still list removed API versions in status.storedVersions: ${list}. ` +
      `Run \`flux migrate\` against cluster ${cluster} first (it rewrites the stored objects at the current ` +
      `version and drops the old ones from storedVersions), and \`flux migrate -f <path>\` on the manifests in Git`,
    related: [],
  };
}

/** What an object's written API version means for upgrades. */
export interface DeprecatedApiUse {
  written: string;
  /** The version to write instead: the newest Flux release's storage version of the kind. */
  writeInstead: string;
  /** The Flux 2 minor that removed (or removes) the written version; undefined when only deprecated. */
  removedIn?: number;
}

/**
 * Whether an object written at `written` uses a removed or deprecated API version, judged against the newest
 * Flux release the table knows (the one every upgrade heads for). Undefined when the version is current, or
 * not one Flux ever served for the kind (nothing to advise).
 */
export function deprecatedApiUse(
  kind: FluxKind,
  written: string | undefined,
): DeprecatedApiUse | undefined {
  if (written === undefined) return undefined;
  const latest = LATEST_KNOWN_FLUX_RELEASE.minor;
  const writeInstead = storageApiVersion(kind, latest);
  if (writeInstead === undefined || written === writeInstead) return undefined;
  const removedIn = removedInMinor(kind, written);
  if (
    removedIn === undefined &&
    !servedApiVersions(kind, latest).includes(written)
  ) {
    return undefined;
  }
  return {
    written,
    writeInstead,
    ...(removedIn !== undefined ? { removedIn } : {}),
  };
}

/** `deprecated-api`: the object was last written at a version Flux removed or deprecated. */
export function deprecatedApiFinding(
  object: FluxObjectRef,
  written: string | undefined,
): Finding | undefined {
  const use = deprecatedApiUse(object.kind, written);
  if (!use) return undefined;
  const group = FLUX_KIND_GROUP[object.kind];
  const what =
    use.removedIn !== undefined
      ? `which Flux 2.${use.removedIn} removed`
      : 'which is deprecated';
  return {
    type: 'deprecated-api',
    severity: FINDING_SEVERITY['deprecated-api'],
    object,
    message:
      `${object.kind} ${object.namespace}/${object.name} in cluster ${object.cluster} was last written as ` +
      `${group}/${use.written} (metadata.managedFields), ${what}: write it as ${group}/${use.writeInstead} ` +
      `instead (\`flux migrate -f <path>\` rewrites the manifests in Git)`,
    related: [],
  };
}
