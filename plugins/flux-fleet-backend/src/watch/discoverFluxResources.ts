import { FLUX_GROUPS, FluxGroup } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterClient } from './ClusterClient';
import { KubernetesRequestError } from './KubernetesRequestError';
import type { WatchedResource } from './WatchedResource';

/** What a cluster serves of Flux. */
export interface FluxDiscovery {
  /** API group → the version read: the cluster's preferred version of that group. */
  servedVersions: Record<string, string>;
  /** Every Flux kind the cluster serves, each at the version it is read at. */
  resources: WatchedResource[];
  /** Group versions that could not be read (an aggregated API down), with why. */
  problems: string[];
}

interface ApiGroupList {
  groups?: Array<{
    name?: string;
    versions?: Array<{ version?: string }>;
    preferredVersion?: { version?: string };
  }>;
}

interface ApiResourceList {
  resources?: Array<{
    name?: string;
    kind?: string;
    verbs?: string[];
  }>;
}

const FLUX_GROUP_NAMES = new Set<string>(Object.keys(FLUX_GROUPS));

/**
 * Discovers which Flux groups, versions and kinds a cluster serves (`/apis`, then `/apis/<group>/<version>`).
 * Each kind is read at its group's preferred version when that version serves it, else at the first version
 * (in the server's order of preference) that does: a Flux 2.4 cluster serves GitRepository at `v1` but
 * OCIRepository only at `v1beta2`. Nothing is hard-coded, so clusters on beta versions read correctly.
 */
export async function discoverFluxResources(
  client: ClusterClient,
  signal?: AbortSignal,
): Promise<FluxDiscovery> {
  const groupList = await client.getJson<ApiGroupList>('/apis', {}, signal);
  if (!Array.isArray(groupList?.groups)) {
    throw new KubernetesRequestError({
      cluster: client.cluster,
      failure: 'malformed',
      message: 'GET /apis answered without a list of API groups',
    });
  }
  const servedVersions: Record<string, string> = {};
  const resources: WatchedResource[] = [];
  const problems: string[] = [];

  await Promise.all(
    groupList.groups
      .filter(g => g?.name && FLUX_GROUP_NAMES.has(g.name))
      .map(async g => {
        const group = g.name as FluxGroup;
        const versions = (g.versions ?? [])
          .map(v => v?.version)
          .filter((v): v is string => typeof v === 'string' && v !== '');
        const preferred = g.preferredVersion?.version ?? versions[0];
        if (!preferred) return;
        servedVersions[group] = preferred;
        const wanted = new Set<string>(FLUX_GROUPS[group]);
        // the preferred version first, then the others in the server's order
        for (const version of [
          preferred,
          ...versions.filter(v => v !== preferred),
        ]) {
          if (wanted.size === 0) break;
          let list: ApiResourceList;
          try {
            list = await client.getJson<ApiResourceList>(
              `/apis/${group}/${version}`,
              {},
              signal,
            );
          } catch (error) {
            if (
              error instanceof KubernetesRequestError &&
              (error.notFound || error.status === 503)
            ) {
              problems.push(error.message);
              continue;
            }
            throw error;
          }
          for (const r of list?.resources ?? []) {
            if (
              !r?.name ||
              r.name.includes('/') ||
              !r.kind ||
              !wanted.has(r.kind) ||
              !r.verbs?.includes('list') ||
              !r.verbs?.includes('watch')
            ) {
              continue;
            }
            wanted.delete(r.kind);
            resources.push({ group, version, kind: r.kind, plural: r.name });
          }
        }
      }),
  );
  resources.sort((a, b) =>
    `${a.group}/${a.kind}`.localeCompare(`${b.group}/${b.kind}`),
  );
  return { servedVersions, resources, problems };
}
