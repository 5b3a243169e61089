/**
 * Revisions as people read them, and links from a revision to the commit it was built from. Revision formats
 * (flux-domain §2): `main@sha1:<40 hex>`, `refs/heads/main@sha1:…`, `v1.2.0@sha1:…`, `sha1:…`, OCI
 * `<tag>@sha256:…`, Helm and Bucket `sha256:…`, HelmChart `6.7.0` or `6.7.0+<12 chars>`, and the Flux 0.x form
 * `main/<40 hex>`.
 */

/** Kinds of Git hosting whose commit pages Flux Fleet knows how to link. */
export type GitHostKind =
  | 'github'
  | 'gitlab'
  | 'bitbucket-cloud'
  | 'bitbucket-server'
  | 'gitea'
  | 'azure-devops';

/** Options of {@link revisionUrl}. */
export interface RevisionUrlOptions {
  /**
   * The kind of self-hosted Git servers whose name does not say it, by host name (`git.acme.example: 'gitlab'`).
   * Hosts whose name contains github, gitlab, bitbucket, gitea or forgejo are recognised without it.
   */
  hosts?: Readonly<Record<string, GitHostKind>>;
}

/**
 * The Git commit a revision names: `…sha1:<hex>` (7 to 40 hex digits), the Flux 0.x form `<branch>/<40 hex>`, or
 * a bare 40-digit hash (ImageUpdateAutomation's last pushed commit); undefined otherwise (OCI and Helm digests
 * are not commits).
 */
export function revisionCommit(
  revision: string | undefined,
): string | undefined {
  if (!revision) return undefined;
  const text = revision.trim();
  return (
    /(?:^|@)sha1:([0-9a-f]{7,40})$/i.exec(text)?.[1] ??
    /^[^@\s]+\/([0-9a-f]{40})$/i.exec(text)?.[1] ??
    /^([0-9a-f]{40})$/i.exec(text)?.[1]
  )?.toLowerCase();
}

/**
 * A revision as people read it: `refs/heads/` and `refs/tags/` dropped, hashes shortened (sha1 to 8 digits,
 * longer digests to 12): `main@sha1:4f1c2d0b`, `1.8.2@sha256:0cc9a8446c95`, `main/4f1c2d0b`. Chart versions and
 * anything else stay as they are.
 */
export function shortRevision(revision: string): string {
  let text = revision.trim().replace(/^refs\/(heads|tags)\//, '');
  text = text.replace(
    /(^|@)(sha1|sha256|sha384|sha512|blake3):([0-9a-f]+)$/i,
    (_all, at: string, algorithm: string, hash: string) =>
      `${at}${algorithm}:${hash.slice(
        0,
        algorithm.toLowerCase() === 'sha1' ? 8 : 12,
      )}`,
  );
  return text.replace(
    /^([^@\s]+)\/([0-9a-f]{40})$/i,
    (_all, ref: string, hash: string) => `${ref}/${hash.slice(0, 8)}`,
  );
}

interface GitRemote {
  host: string;
  /** The path on the host, without leading `/` nor `.git`. */
  path: string;
}

/** Host and path of a Git URL: `https://host/path`, `ssh://user@host:port/path`, `user@host:path` (scp form). */
export function parseGitRemote(url: string): GitRemote | undefined {
  const text = url.trim();
  const withScheme =
    /^(?:https?|ssh|git):\/\/(?:[^@/]*@)?([^/:?#]+)(?::\d+)?\/([^?#]+)/i.exec(
      text,
    );
  const scpLike = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)([^?#\s]+)$/.exec(text);
  const match = withScheme ?? scpLike;
  if (!match) return undefined;
  const path = match[2]
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/^\/+/, '');
  if (!path) return undefined;
  return { host: match[1].toLowerCase(), path };
}

function hostKind(
  host: string,
  options?: RevisionUrlOptions,
): GitHostKind | undefined {
  const configured = options?.hosts?.[host];
  if (configured) return configured;
  if (host === 'bitbucket.org') return 'bitbucket-cloud';
  if (
    host === 'dev.azure.com' ||
    host === 'ssh.dev.azure.com' ||
    host.endsWith('.visualstudio.com')
  ) {
    return 'azure-devops';
  }
  if (host === 'codeberg.org') return 'gitea';
  if (host.includes('github')) return 'github';
  if (host.includes('gitlab')) return 'gitlab';
  if (host.includes('bitbucket')) return 'bitbucket-server';
  if (host.includes('gitea') || host.includes('forgejo')) return 'gitea';
  return undefined;
}

function commitPage(
  remote: GitRemote,
  kind: GitHostKind,
  commit: string,
): string | undefined {
  const { host, path } = remote;
  switch (kind) {
    case 'github':
    case 'gitea':
      return `https://${host}/${path}/commit/${commit}`;
    case 'gitlab':
      return `https://${host}/${path}/-/commit/${commit}`;
    case 'bitbucket-cloud':
      return `https://${host}/${path}/commits/${commit}`;
    case 'bitbucket-server': {
      // Clone URLs: https://host/scm/PROJ/repo or ssh://git@host:7999/proj/repo.
      const parts = path.replace(/^scm\//i, '').split('/');
      if (parts.length !== 2) return undefined;
      return `https://${host}/projects/${parts[0].toUpperCase()}/repos/${
        parts[1]
      }/commits/${commit}`;
    }
    case 'azure-devops': {
      // https://dev.azure.com/org/project/_git/repo, or SSH ssh.dev.azure.com:v3/org/project/repo.
      const ssh = /^v3\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
      if (ssh)
        return `https://dev.azure.com/${ssh[1]}/${ssh[2]}/_git/${ssh[3]}/commit/${commit}`;
      if (!path.includes('/_git/')) return undefined;
      return `https://${
        host === 'ssh.dev.azure.com' ? 'dev.azure.com' : host
      }/${path}/commit/${commit}`;
    }
    default:
      return undefined;
  }
}

/**
 * The web page of the commit a revision was built from, given its source's URL, when the host's commit pages are
 * known (GitHub, GitLab, Bitbucket Cloud and Server, Gitea/Forgejo/Codeberg, Azure DevOps); undefined otherwise, so
 * that no link is guessed.
 */
export function revisionUrl(
  sourceUrl: string | undefined,
  revision: string | undefined,
  options?: RevisionUrlOptions,
): string | undefined {
  if (!sourceUrl) return undefined;
  const commit = revisionCommit(revision);
  if (!commit) return undefined;
  const remote = parseGitRemote(sourceUrl);
  if (!remote) return undefined;
  const kind = hostKind(remote.host, options);
  return kind ? commitPage(remote, kind, commit) : undefined;
}
