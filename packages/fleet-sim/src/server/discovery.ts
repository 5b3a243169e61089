/**
 * Discovery documents, as kube-apiserver serves them (legacy, non-aggregated discovery, which every client
 * falls back to): `/version`, `/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>`.
 */
import { createHash } from 'node:crypto';
import { groupVersion, type ServedResource } from '../api/resourceTypes';

/** authorization.k8s.io, served so that clients can ask what they may do (SelfSubjectAccessReview). */
const AUTHORIZATION_GROUP = 'authorization.k8s.io';

/** The `/version` document. */
export function versionDocument(
  kubernetesVersion: string,
  gitCommit: string,
): Record<string, unknown> {
  const [major, minor] = kubernetesVersion.replace(/^v/, '').split('.');
  return {
    major,
    minor,
    gitVersion: kubernetesVersion,
    gitCommit,
    gitTreeState: 'clean',
    buildDate: '2026-06-17T12:00:00Z',
    goVersion: 'go1.24.9',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

function storageVersionHash(
  group: string,
  version: string,
  kind: string,
): string {
  return createHash('sha256')
    .update(`${group}/${version}/${kind}`)
    .digest('base64')
    .slice(0, 11);
}

function resourceEntries(
  served: ServedResource,
  version: string,
): Array<Record<string, unknown>> {
  const { type } = served;
  const entries: Array<Record<string, unknown>> = [
    {
      name: type.plural,
      singularName: type.singular,
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: type.verbs,
      ...(type.shortNames ? { shortNames: type.shortNames } : {}),
      ...(type.categories ? { categories: type.categories } : {}),
      storageVersionHash: storageVersionHash(type.group, version, type.kind),
    },
  ];
  if (type.statusSubresource) {
    entries.push({
      name: `${type.plural}/status`,
      singularName: '',
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: ['get', 'patch', 'update'],
    });
  }
  return entries;
}

/** The groups a cluster serves, with versions (preferred first). */
function groups(served: ServedResource[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const entry of served) {
    if (entry.type.group === '') continue;
    const versions = out.get(entry.type.group) ?? [];
    for (const v of entry.versions) if (!versions.includes(v)) versions.push(v);
    out.set(entry.type.group, versions);
  }
  out.set(AUTHORIZATION_GROUP, ['v1']);
  return out;
}

/** Orders versions as Kubernetes prefers them: GA before beta before alpha, higher first. */
function versionPriority(version: string): number {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version);
  if (!m) return 0;
  const major = Number(m[1]);
  const stages: Record<string, number> = { alpha: 1, beta: 2 };
  const stage = m[2] === undefined ? 3 : stages[m[2]];
  return stage * 1_000_000 + major * 1000 + Number(m[3] ?? 0);
}

function groupDocument(
  name: string,
  versions: string[],
): Record<string, unknown> {
  const sorted = [...versions].sort(
    (a, b) => versionPriority(b) - versionPriority(a),
  );
  return {
    name,
    versions: sorted.map(v => ({ groupVersion: `${name}/${v}`, version: v })),
    preferredVersion: {
      groupVersion: `${name}/${sorted[0]}`,
      version: sorted[0],
    },
  };
}

/** `/api` */
export function coreVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** `/apis` */
export function groupList(served: ServedResource[]): Record<string, unknown> {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groups(served)].map(([name, versions]) =>
      groupDocument(name, versions),
    ),
  };
}

/** `/apis/<group>`, or undefined when the group is not served. */
export function groupOne(
  served: ServedResource[],
  group: string,
): Record<string, unknown> | undefined {
  const versions = groups(served).get(group);
  if (!versions) return undefined;
  return {
    kind: 'APIGroup',
    apiVersion: 'v1',
    ...groupDocument(group, versions),
  };
}

/** `/api/v1` or `/apis/<group>/<version>`, or undefined when not served. */
export function resourceList(
  served: ServedResource[],
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  if (group === AUTHORIZATION_GROUP && version === 'v1') {
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: `${group}/${version}`,
      resources: [
        {
          name: 'selfsubjectaccessreviews',
          singularName: 'selfsubjectaccessreview',
          namespaced: false,
          kind: 'SelfSubjectAccessReview',
          verbs: ['create'],
        },
      ],
    };
  }
  const entries = served.filter(
    s => s.type.group === group && s.versions.includes(version),
  );
  if (entries.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    ...(group ? { apiVersion: 'v1' } : {}),
    groupVersion: groupVersion(group, version),
    resources: entries.flatMap(e => resourceEntries(e, version)),
  };
}
