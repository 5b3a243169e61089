/**
 * How the revision a reconciler applied stands against what its source's artifact holds now (rules §2,
 * "Applied revision against the source"): current, behind, ahead, from a different source ref, or unknown.
 */
import { compare, valid } from 'semver';

/**
 * - `current`: the applied revision is the source's artifact revision;
 * - `behind`: the source holds a newer revision than the one applied;
 * - `ahead`: the applied chart or tag version is higher than the source's (its version constraint was lowered);
 * - `different-source`: the applied revision names another Git ref or tag than the source now does (its
 *   `spec.ref` changed), so neither is older;
 * - `unknown`: one of them is missing or they cannot be compared.
 */
export type RevisionComparison =
  | 'current'
  | 'behind'
  | 'ahead'
  | 'different-source'
  | 'unknown';

/** A Flux artifact revision split into the ref or tag it names and the digest that pins it. */
interface ParsedRevision {
  /** Branch, tag, OCI tag or chart version; absent for a bare digest (`sha256:…`, Bucket, ExternalArtifact). */
  ref?: string;
  /** `sha1:<hex>`, `sha256:<hex>`…; absent for a chart version. */
  digest?: string;
}

const DIGEST = /^(sha1|sha256|sha384|sha512|blake3):[0-9a-f]+$/i;
// Flux before 2.0 wrote Git revisions as `<branch>/<sha>`
const LEGACY_GIT = /^(.+)\/([0-9a-f]{40})$/i;

function parseRevision(revision: string): ParsedRevision {
  const text = revision.trim().replace(/^refs\/(heads|tags)\//, '');
  const at = text.lastIndexOf('@');
  if (at > 0 && DIGEST.test(text.slice(at + 1))) {
    return { ref: text.slice(0, at), digest: text.slice(at + 1).toLowerCase() };
  }
  if (DIGEST.test(text)) return { digest: text.toLowerCase() };
  const legacy = LEGACY_GIT.exec(text);
  if (legacy)
    return { ref: legacy[1], digest: `sha1:${legacy[2].toLowerCase()}` };
  return { ref: text };
}

/** A strict semantic version (a leading `v` allowed), or undefined: `latest`, `main` and `1.x` are not. */
function semverOf(ref: string | undefined): string | undefined {
  if (!ref) return undefined;
  return valid(ref) ?? undefined;
}

function compareVersions(applied: string, source: string): RevisionComparison {
  const order = compare(applied, source);
  if (order === 0) return 'current';
  return order < 0 ? 'behind' : 'ahead';
}

/**
 * Compares the revision a reconciler applied (`appliedRevisionOf`: a Kustomization's `lastAppliedRevision`, a
 * HelmRelease's chart version) with the artifact revision of its source (for a HelmRelease: its HelmChart's, a
 * chart version, or its OCIRepository's, `<tag>@sha256:<digest>`).
 *
 * *(decided)* Chart versions and semver tags compare by semantic version (build metadata ignored, as Helm does);
 * the same ref with another digest is `behind` *(inferred: a reconciler only ever applies an artifact its source
 * served, and the source's artifact is the newest it served)*; another ref that is not a version is
 * `different-source`; anything else that differs is `unknown`, never guessed.
 */
export function compareRevisions(
  kind: string,
  applied: string | undefined,
  source: string | undefined,
): RevisionComparison {
  if (!applied || !source) return 'unknown';
  if (applied.trim() === source.trim()) return 'current';
  const a = parseRevision(applied);
  const s = parseRevision(source);
  // A HelmRelease shows its chart version; an OCIRepository of the chart its tag with a digest.
  if (kind === 'HelmRelease' && a.digest === undefined) {
    const av = semverOf(a.ref);
    const sv = semverOf(s.ref);
    if (av && sv) return compareVersions(av, sv);
    return a.ref !== undefined && a.ref === s.ref ? 'current' : 'unknown';
  }
  if (a.digest === undefined || s.digest === undefined) return 'unknown';
  if (a.ref === s.ref) return a.digest === s.digest ? 'current' : 'behind';
  const av = semverOf(a.ref);
  const sv = semverOf(s.ref);
  if (av && sv) {
    const order = compareVersions(av, sv);
    // the same version under two spellings (v1.2.0 and 1.2.0) with another digest: the tag moved
    return order === 'current' ? 'behind' : order;
  }
  if (a.ref === undefined || s.ref === undefined) return 'unknown';
  return 'different-source';
}
