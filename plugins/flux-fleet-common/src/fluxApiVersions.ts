/**
 * Which API versions each Flux minor release serves for each Flux kind, and which it removes (rules §10).
 * Decided from the CRDs each release ships (`config/crd/bases` of every controller at the tag the Flux release
 * pins, read 2026-12-01): 2.7 removed every `v1beta1` (and HelmRelease `v2beta1`); 2.8 removed the source and
 * kustomize `v1beta2` and HelmRelease `v2beta2`; 2.9 removed the image and notification `v1beta2`.
 */
import { compareText } from './order';
import { FLUX_KIND_GROUP, type FluxKind } from './vocabulary';

/** One API version of a Flux kind: the minor that first served it and the one that removed it. */
interface VersionSpan {
  version: string;
  /** First Flux 2 minor serving it (0 = since 2.0). */
  since: number;
  /** First Flux 2 minor no longer serving it; absent while served. */
  removedIn?: number;
}

const span = (
  version: string,
  since: number,
  removedIn?: number,
): VersionSpan => ({
  version,
  since,
  ...(removedIn !== undefined ? { removedIn } : {}),
});

const SOURCE_BETAS = [span('v1beta1', 0, 7), span('v1beta2', 0, 8)];
const NOTIFICATION_BETAS = [span('v1beta1', 0, 7), span('v1beta2', 0, 9)];
const IMAGE_POLICY_SPANS = [
  span('v1beta1', 0, 7),
  span('v1beta2', 0, 9),
  span('v1', 7),
];

/** Flux kinds reconciled by Flux's own controllers; the Flux Operator's kinds have only ever served `v1`. */
const SPANS: Readonly<Partial<Record<FluxKind, readonly VersionSpan[]>>> = {
  GitRepository: [...SOURCE_BETAS, span('v1', 0)],
  HelmRepository: [...SOURCE_BETAS, span('v1', 3)],
  HelmChart: [...SOURCE_BETAS, span('v1', 3)],
  Bucket: [...SOURCE_BETAS, span('v1', 4)],
  OCIRepository: [span('v1beta2', 0, 8), span('v1', 6)],
  ExternalArtifact: [span('v1', 7)],
  Kustomization: [...SOURCE_BETAS, span('v1', 0)],
  HelmRelease: [span('v2beta1', 0, 7), span('v2beta2', 2, 8), span('v2', 3)],
  Alert: [...NOTIFICATION_BETAS, span('v1beta3', 2)],
  Provider: [...NOTIFICATION_BETAS, span('v1beta3', 2)],
  Receiver: [...NOTIFICATION_BETAS, span('v1', 0)],
  ImageRepository: IMAGE_POLICY_SPANS,
  ImagePolicy: IMAGE_POLICY_SPANS,
  ImageUpdateAutomation: [
    span('v1beta1', 0, 7),
    span('v1beta2', 3, 9),
    span('v1', 7),
  ],
  ArtifactGenerator: [span('v1beta1', 7)],
};

const OPERATOR_SPANS: readonly VersionSpan[] = [span('v1', 0)];

/** GA above beta above alpha. */
const LEVELS: Readonly<Record<string, number>> = { '': 3, beta: 2, alpha: 1 };

/**
 * Kubernetes' version priority (as `kubectl` and discovery sort them): GA above beta above alpha, then the
 * higher number first. Negative when `a` is preferred.
 */
export function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0];
    const level = LEVELS[m[2] ?? ''];
    return [level, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [la, ma, na] = rank(a);
  const [lb, mb, nb] = rank(b);
  return lb - la || mb - ma || nb - na || compareText(a, b);
}

function spansOf(kind: FluxKind): readonly VersionSpan[] {
  return (
    SPANS[kind] ??
    (FLUX_KIND_GROUP[kind] === 'fluxcd.controlplane.io' ? OPERATOR_SPANS : [])
  );
}

/** API versions of a kind that Flux 2.`minor` serves, preferred (the storage version) first. */
export function servedApiVersions(kind: FluxKind, minor: number): string[] {
  return spansOf(kind)
    .filter(
      s =>
        s.since <= minor && (s.removedIn === undefined || minor < s.removedIn),
    )
    .map(s => s.version)
    .sort(compareKubeVersions);
}

/** The version Flux 2.`minor` stores a kind at (its preferred version); undefined when it does not serve it. */
export function storageApiVersion(
  kind: FluxKind,
  minor: number,
): string | undefined {
  return servedApiVersions(kind, minor)[0];
}

/** The Flux 2 minor that removed an API version of a kind, if one has. */
export function removedInMinor(
  kind: FluxKind,
  version: string,
): number | undefined {
  return spansOf(kind).find(s => s.version === version)?.removedIn;
}

/** The API versions of a kind that Flux 2.`minor` removes (served by 2.`minor - 1`, not by 2.`minor`). */
export function removedApiVersions(kind: FluxKind, minor: number): string[] {
  return spansOf(kind)
    .filter(s => s.removedIn === minor)
    .map(s => s.version);
}

/** Whether Flux knows this API version of the kind at all (any minor since 2.0). */
export function isKnownApiVersion(kind: FluxKind, version: string): boolean {
  return spansOf(kind).some(s => s.version === version);
}
