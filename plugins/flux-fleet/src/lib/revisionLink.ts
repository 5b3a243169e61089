// TODO(common): use revisionLink.ts from @flux-fleet/plugin-flux-fleet-common once it lands, and delete this file.

/**
 * A revision as people read it: the ref and the first characters of the hash (`main@sha1:4f1c2d0`), chart versions
 * as they are. Formats: `docs/flux-domain.md` §2 (`main@sha1:<40hex>`, `refs/heads/main@sha1:…`, `sha1:…`,
 * `<tag>@sha256:…`, `sha256:…`, `6.7.0`).
 */
export function shortRevision(revision: string): string {
  return revision.replace(
    /(sha1|sha256|sha384|sha512|blake3):([0-9a-f]+)/i,
    (_all, algorithm: string, hash: string) =>
      `${algorithm}:${hash.slice(0, algorithm === 'sha1' ? 7 : 12)}`,
  );
}

/** The Git commit of a revision, when the revision names one (`…sha1:<hex>`). */
export function revisionCommit(revision: string): string | undefined {
  return /(?:^|@)sha1:([0-9a-f]{7,40})$/i.exec(revision)?.[1];
}

/** `https://host/path` of a Git URL written as `https://`, `ssh://git@host/path` or `git@host:path`, without `.git`. */
function webUrlOf(sourceUrl: string): URL | undefined {
  const scpLike = /^[\w.-]+@([\w.-]+):(?!\d+\/)(.+)$/.exec(sourceUrl);
  const text = scpLike
    ? `https://${scpLike[1]}/${scpLike[2]}`
    : sourceUrl.replace(/^ssh:\/\//, 'https://');
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return undefined;
    }
    url.username = '';
    url.password = '';
    url.port = '';
    url.pathname = url.pathname.replace(/\.git$/, '').replace(/\/$/, '');
    return url;
  } catch {
    return undefined;
  }
}

/**
 * The web page of the commit a revision was built from, when the source URL is on a Git host whose commit URLs
 * are known (GitHub, GitLab, Bitbucket, Azure DevOps, Gitea/Codeberg); undefined otherwise, so no link is guessed.
 */
export function revisionUrl(
  sourceUrl: string | undefined,
  revision: string | undefined,
): string | undefined {
  if (!sourceUrl || !revision) {
    return undefined;
  }
  const commit = revisionCommit(revision);
  const url = webUrlOf(sourceUrl);
  if (!commit || !url) {
    return undefined;
  }
  const base = `${url.origin}${url.pathname}`;
  const host = url.hostname;
  if (host.includes('gitlab')) {
    return `${base}/-/commit/${commit}`;
  }
  if (host === 'bitbucket.org') {
    return `${base}/commits/${commit}`;
  }
  if (
    host.includes('github') ||
    host === 'dev.azure.com' ||
    host.endsWith('.visualstudio.com') ||
    host.includes('gitea') ||
    host === 'codeberg.org'
  ) {
    return `${base}/commit/${commit}`;
  }
  return undefined;
}
