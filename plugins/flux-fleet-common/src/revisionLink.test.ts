import {
  parseGitRemote,
  revisionCommit,
  revisionUrl,
  shortRevision,
} from './revisionLink';

const SHA = '4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e';

describe('revisionUrl', () => {
  it.each<[string, string, string | undefined]>([
    [
      'https://github.com/acme/payments-deploy.git',
      `main@sha1:${SHA}`,
      `https://github.com/acme/payments-deploy/commit/${SHA}`,
    ],
    [
      'https://github.com/acme/payments-deploy',
      `refs/heads/main@sha1:${SHA}`,
      `https://github.com/acme/payments-deploy/commit/${SHA}`,
    ],
    [
      'ssh://git@github.com/acme/payments-deploy.git',
      `v1.2.0@sha1:${SHA}`,
      `https://github.com/acme/payments-deploy/commit/${SHA}`,
    ],
    [
      'git@github.com:acme/payments-deploy.git',
      `sha1:${SHA}`,
      `https://github.com/acme/payments-deploy/commit/${SHA}`,
    ],
    [
      'https://github.acme.example/platform/fleet',
      `main@sha1:${SHA}`,
      `https://github.acme.example/platform/fleet/commit/${SHA}`,
    ],
    [
      'https://gitlab.com/acme/group/sub/repo.git',
      `main@sha1:${SHA}`,
      `https://gitlab.com/acme/group/sub/repo/-/commit/${SHA}`,
    ],
    [
      'ssh://git@gitlab.acme.example:2222/acme/repo.git',
      `main@sha1:${SHA}`,
      `https://gitlab.acme.example/acme/repo/-/commit/${SHA}`,
    ],
    [
      'https://bitbucket.org/acme/repo.git',
      `main@sha1:${SHA}`,
      `https://bitbucket.org/acme/repo/commits/${SHA}`,
    ],
    [
      'git@bitbucket.org:acme/repo.git',
      `main@sha1:${SHA}`,
      `https://bitbucket.org/acme/repo/commits/${SHA}`,
    ],
    [
      'https://bitbucket.acme.example/scm/plat/fleet.git',
      `main@sha1:${SHA}`,
      `https://bitbucket.acme.example/projects/PLAT/repos/fleet/commits/${SHA}`,
    ],
    [
      'ssh://git@bitbucket.acme.example:7999/plat/fleet.git',
      `main@sha1:${SHA}`,
      `https://bitbucket.acme.example/projects/PLAT/repos/fleet/commits/${SHA}`,
    ],
    [
      'https://codeberg.org/acme/repo.git',
      `main@sha1:${SHA}`,
      `https://codeberg.org/acme/repo/commit/${SHA}`,
    ],
    [
      'https://gitea.acme.example/acme/repo',
      `main@sha1:${SHA}`,
      `https://gitea.acme.example/acme/repo/commit/${SHA}`,
    ],
    [
      'ssh://git@forgejo.acme.example/acme/repo.git',
      `main@sha1:${SHA}`,
      `https://forgejo.acme.example/acme/repo/commit/${SHA}`,
    ],
    [
      'https://dev.azure.com/acme/platform/_git/fleet',
      `main@sha1:${SHA}`,
      `https://dev.azure.com/acme/platform/_git/fleet/commit/${SHA}`,
    ],
    [
      'git@ssh.dev.azure.com:v3/acme/platform/fleet',
      `main@sha1:${SHA}`,
      `https://dev.azure.com/acme/platform/_git/fleet/commit/${SHA}`,
    ],
    [
      'https://github.com/acme/legacy.git',
      `main/${SHA}`,
      `https://github.com/acme/legacy/commit/${SHA}`,
    ],
    [
      'https://github.com/acme/shop.git',
      SHA,
      `https://github.com/acme/shop/commit/${SHA}`,
    ],
    // No commit in the revision: no link.
    [
      'oci://ghcr.io/acme/manifests',
      '1.8.2@sha256:0cc9a8446c95009ef382f5eade883a67c257f77d50f84e78ecef2aac9428d1e5',
      undefined,
    ],
    ['https://charts.example.com', '6.7.0', undefined],
    [
      'https://github.com/acme/repo',
      'sha256:3b1c1d3f5a7e9c0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b',
      undefined,
    ],
    // An unknown host: no guessed link.
    ['https://git.acme.example/acme/repo.git', `main@sha1:${SHA}`, undefined],
    ['not a url', `main@sha1:${SHA}`, undefined],
    ['https://github.com/', `main@sha1:${SHA}`, undefined],
  ])('links %s at %s', (url, revision, expected) => {
    expect(revisionUrl(url, revision)).toBe(expected);
  });

  it('links self-hosted servers of a configured kind', () => {
    expect(
      revisionUrl(
        'https://git.acme.example/acme/repo.git',
        `main@sha1:${SHA}`,
        { hosts: { 'git.acme.example': 'gitlab' } },
      ),
    ).toBe(`https://git.acme.example/acme/repo/-/commit/${SHA}`);
  });

  it('is undefined without a URL or a revision', () => {
    expect(revisionUrl(undefined, `main@sha1:${SHA}`)).toBeUndefined();
    expect(
      revisionUrl('https://github.com/acme/repo', undefined),
    ).toBeUndefined();
  });
});

describe('shortRevision', () => {
  it.each([
    [`main@sha1:${SHA}`, 'main@sha1:4f1c2d0b'],
    [`refs/heads/main@sha1:${SHA}`, 'main@sha1:4f1c2d0b'],
    [`refs/tags/v1.2.0@sha1:${SHA}`, 'v1.2.0@sha1:4f1c2d0b'],
    [`sha1:${SHA}`, 'sha1:4f1c2d0b'],
    [
      '1.8.2@sha256:0cc9a8446c95009ef382f5eade883a67c257f77d50f84e78ecef2aac9428d1e5',
      '1.8.2@sha256:0cc9a8446c95',
    ],
    [
      'sha256:3b1c1d3f5a7e9c0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b',
      'sha256:3b1c1d3f5a7e',
    ],
    [`main/${SHA}`, 'main/4f1c2d0b'],
    ['6.7.0', '6.7.0'],
    ['6.7.0+0cc9a8446c95', '6.7.0+0cc9a8446c95'],
    [
      'ghcr.io/stefanprodan/podinfo:6.7.0',
      'ghcr.io/stefanprodan/podinfo:6.7.0',
    ],
  ])('shortens %s to %s', (revision, short) => {
    expect(shortRevision(revision)).toBe(short);
  });
});

describe('revisionCommit and parseGitRemote', () => {
  it('reads commits only where there is one', () => {
    expect(revisionCommit(`main@sha1:${SHA.toUpperCase()}`)).toBe(SHA);
    expect(revisionCommit('main@sha1:4f1c2d0')).toBe('4f1c2d0');
    expect(revisionCommit('sha256:3b1c')).toBeUndefined();
    expect(revisionCommit('')).toBeUndefined();
  });

  it('reads host and path of every URL form', () => {
    expect(parseGitRemote('git@github.com:acme/repo.git')).toEqual({
      host: 'github.com',
      path: 'acme/repo',
    });
    expect(parseGitRemote('ssh://git@GitHub.com:22/acme/repo/')).toEqual({
      host: 'github.com',
      path: 'acme/repo',
    });
    expect(
      parseGitRemote('https://user:token@github.com/acme/repo.git'),
    ).toEqual({ host: 'github.com', path: 'acme/repo' });
    expect(parseGitRemote('/local/path')).toBeUndefined();
  });
});
