/**
 * The environment of a cluster (rules §11): the one configured for it, else the one its cluster says in a
 * namespace label, else none (the UI then reads it from the cluster's name). A label lets a platform team that
 * manages clusters in Git say it where the cluster is described, instead of in Backstage's config for each one.
 */

/** The namespace label that names a cluster's environment (`prod`, `staging`…). */
export const ENVIRONMENT_LABEL = 'flux-fleet.io/environment';

/** The namespace every cluster has, read first: it stands for the cluster (its uid is the usual cluster id). */
export const CLUSTER_NAMESPACE = 'kube-system';

/** An environment names a group of clusters in the UI and in filters: the characters of a cluster name. */
export const ENVIRONMENT_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;

/** Where a cluster's environment comes from: `config`, or the label on the named namespace. */
export type EnvironmentSource = { from: 'config' } | { from: 'label'; namespace: string };

export interface ClusterEnvironment {
  environment: string;
  source: EnvironmentSource;
}

/**
 * The environment of a cluster from the configured one or the label {@link ENVIRONMENT_LABEL}: on
 * `kube-system` first, then on the namespaces of its Flux instances by name (where `flux bootstrap` puts what it
 * manages). A label value that is not a usable environment name is passed over, so that the next place can say it.
 * Undefined when neither says one.
 */
export function clusterEnvironment(input: {
  configured?: string;
  /** The cluster's namespaces by name (their records; only the labels are read). */
  namespaces: { get(name: string): { readonly labels: Readonly<Record<string, string>> } | undefined };
  instanceNamespaces: Iterable<string>;
}): ClusterEnvironment | undefined {
  if (input.configured) return { environment: input.configured, source: { from: 'config' } };
  const places = [
    CLUSTER_NAMESPACE,
    ...[...new Set(input.instanceNamespaces)].filter(n => n !== CLUSTER_NAMESPACE).sort(),
  ];
  for (const namespace of places) {
    const value = input.namespaces.get(namespace)?.labels[ENVIRONMENT_LABEL]?.trim();
    if (value && ENVIRONMENT_NAME.test(value)) {
      return { environment: value, source: { from: 'label', namespace } };
    }
  }
  return undefined;
}
