import type { GroundTruth } from '@flux-fleet/fleet-sim';
import type { FluxKind } from '@flux-fleet/plugin-flux-fleet-common';
import { kubeRequest } from './kubeRequest';

/**
 * The shards the clusters run, as `cluster/instance/shard`, read from their Flux controller Deployments: the value
 * of a `--watch-label-selector=<key>=<value>`, or `main`. The truth lists objects only, so a shard that owns no
 * object (the sim's tenant-dedicated kustomize-controller, whose objects are all contested) is not in it.
 */
export async function shardsServedBy(
  clusters: Array<{ name: string; server: string; readOnlyToken: string }>,
): Promise<Set<string>> {
  const shards = new Set<string>();
  for (const cluster of clusters) {
    const { body } = await kubeRequest({
      server: cluster.server,
      token: cluster.readOnlyToken,
      method: 'GET',
      path: '/apis/apps/v1/deployments?labelSelector=app.kubernetes.io%2Fpart-of%3Dflux',
    });
    for (const deployment of body.items) {
      const args: string[] = deployment.spec.template.spec.containers[0].args ?? [];
      const selector = args
        .find(a => a.startsWith('--watch-label-selector='))
        ?.slice('--watch-label-selector='.length);
      const value = selector?.match(/^[^!=]+=([^=]+)$/)?.[1];
      shards.add(`${cluster.name}/${deployment.metadata.namespace}/${value ?? 'main'}`);
    }
  }
  return shards;
}

/** The entity counts by `spec.type` the ground truth implies, with the shards the clusters run. */
export function countsFromTruth(
  truth: GroundTruth,
  shards: Set<string>,
  kinds: readonly FluxKind[],
): Record<string, number> {
  const instances = new Set<string>();
  const counts: Record<string, number> = { 'kubernetes-cluster': truth.clusters.length };
  for (const o of truth.objects) {
    if (o.instance) instances.add(`${o.cluster}/${o.instance}`);
    if (o.instance && o.shard && !shards.has(`${o.cluster}/${o.instance}/${o.shard}`)) {
      throw new Error(`the truth places ${o.cluster}/${o.namespace}/${o.kind}/${o.name} on a shard no controller runs`);
    }
    if (kinds.includes(o.kind as FluxKind)) {
      const type = `flux-${o.kind.toLowerCase()}`;
      counts[type] = (counts[type] ?? 0) + 1;
    }
  }
  counts['flux-instance'] = instances.size;
  counts['flux-shard'] = shards.size;
  return counts;
}

/** A record with its keys in order, for comparing counts as text. */
export function sortKeys(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}
