import { compareRevisions, RevisionComparison } from './revisionComparison';

const A = '4f1c2d0b8e5a7c3f9d1e2b6a0c4f8e7d5b3a1c9e';
const B = '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d';
const D1 = 'a'.repeat(64);
const D2 = 'b'.repeat(64);

describe('compareRevisions', () => {
  it.each<
    [string, string, string | undefined, string | undefined, RevisionComparison]
  >([
    // chart versions (HelmRelease against its HelmChart or OCIRepository)
    ['same chart version', 'HelmRelease', '4.22.1', '4.22.1', 'current'],
    [
      'applied chart ahead of the source',
      'HelmRelease',
      '4.22.2',
      '4.22.1',
      'ahead',
    ],
    [
      'applied chart behind the source',
      'HelmRelease',
      '4.22.1',
      '4.22.2',
      'behind',
    ],
    [
      'minor versions compare as numbers',
      'HelmRelease',
      '4.9.0',
      '4.10.0',
      'behind',
    ],
    [
      'a prerelease is before its release',
      'HelmRelease',
      '2.0.0-rc.1',
      '2.0.0',
      'behind',
    ],
    [
      'build metadata is ignored',
      'HelmRelease',
      '1.2.3+abc',
      '1.2.3+def',
      'current',
    ],
    [
      'OCI chart tag with digest',
      'HelmRelease',
      '1.4.0',
      `1.4.0@sha256:${D1}`,
      'current',
    ],
    [
      'OCI chart tag newer',
      'HelmRelease',
      '1.3.9',
      `1.4.0@sha256:${D1}`,
      'behind',
    ],
    [
      'chart versions that are not semver',
      'HelmRelease',
      'stable',
      'edge',
      'unknown',
    ],
    // Git commits (Kustomization against its GitRepository)
    [
      'same commit',
      'Kustomization',
      `main@sha1:${A}`,
      `main@sha1:${A}`,
      'current',
    ],
    [
      'same branch, another commit',
      'Kustomization',
      `main@sha1:${A}`,
      `main@sha1:${B}`,
      'behind',
    ],
    [
      'refs/heads/ prefix is the same branch',
      'Kustomization',
      `refs/heads/main@sha1:${A}`,
      `main@sha1:${A}`,
      'current',
    ],
    [
      'another branch',
      'Kustomization',
      `main@sha1:${A}`,
      `release-1@sha1:${B}`,
      'different-source',
    ],
    [
      'a newer Git tag',
      'Kustomization',
      `v1.2.0@sha1:${A}`,
      `v1.3.0@sha1:${B}`,
      'behind',
    ],
    [
      'an older Git tag',
      'Kustomization',
      `v1.3.0@sha1:${A}`,
      `v1.2.0@sha1:${B}`,
      'ahead',
    ],
    [
      'the legacy <branch>/<sha> format',
      'Kustomization',
      `main/${A}`,
      `main@sha1:${B}`,
      'behind',
    ],
    [
      'the legacy format, same commit',
      'Kustomization',
      `main/${A}`,
      `main@sha1:${A}`,
      'current',
    ],
    // OCI artifacts and buckets
    [
      'OCI tag moved',
      'Kustomization',
      `latest@sha256:${D1}`,
      `latest@sha256:${D2}`,
      'behind',
    ],
    [
      'bare digests differ',
      'Kustomization',
      `sha256:${D1}`,
      `sha256:${D2}`,
      'behind',
    ],
    [
      'a bare digest against a tagged one',
      'Kustomization',
      `sha256:${D1}`,
      `latest@sha256:${D2}`,
      'unknown',
    ],
    [
      'a value without a digest',
      'Kustomization',
      'something',
      `main@sha1:${A}`,
      'unknown',
    ],
    // missing either side
    [
      'nothing applied yet',
      'Kustomization',
      undefined,
      `main@sha1:${A}`,
      'unknown',
    ],
    ['source not read', 'HelmRelease', '1.0.0', undefined, 'unknown'],
  ])('%s', (_name, kind, applied, source, expected) => {
    expect(compareRevisions(kind, applied, source)).toBe(expected);
  });
});
