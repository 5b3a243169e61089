import type { LoggerService } from '@backstage/backend-plugin-api';
import { Config, ConfigReader } from '@backstage/config';
import type { ClusterConfig } from './FleetConfig';
import { FleetConfigError } from './FleetConfigError';
import { readClusterConfig } from './readClusterConfig';

/** The Kubernetes plugin's annotation naming a cluster's auth provider inside `authMetadata`. */
const AUTH_PROVIDER_ANNOTATION = 'kubernetes.io/auth-provider';

/**
 * The clusters of the Kubernetes plugin's `kubernetes.clusterLocatorMethods` entries of type `config`, so its users
 * configure nothing twice. Only clusters Flux Fleet can watch on its own are taken: `authProvider: serviceAccount`
 * (with `serviceAccountToken`, or without one when Backstage runs in that cluster, as the Kubernetes plugin does).
 * Providers that need a signed-in user's token (google, oidc, aws…) are skipped with a warning naming the cluster.
 */
export function readKubernetesPluginClusters(
  config: Config,
  logger: LoggerService,
): ClusterConfig[] {
  const methods =
    config.getOptionalConfigArray('kubernetes.clusterLocatorMethods') ?? [];
  const clusters: ClusterConfig[] = [];
  methods.forEach((method, m) => {
    if (method.getOptionalString('type') !== 'config') {
      return;
    }
    (method.getOptionalConfigArray('clusters') ?? []).forEach((c, i) => {
      const key = `kubernetes.clusterLocatorMethods[${m}].clusters[${i}]`;
      const name = c.getString('name');
      // read raw: its keys contain dots, which config paths would split
      const metadata = c.getOptional('authMetadata') as
        | Record<string, unknown>
        | undefined;
      const authProvider =
        stringOrUndefined(metadata?.[AUTH_PROVIDER_ANNOTATION]) ??
        c.getOptionalString('authProvider');
      if (authProvider !== 'serviceAccount') {
        logger.warn(
          `Flux Fleet does not watch Kubernetes plugin cluster '${name}' (${key}): its authProvider is '${
            authProvider ?? 'not set'
          }', which needs a signed-in user; give Flux Fleet a service account in fluxFleet.clusters to watch it`,
        );
        return;
      }
      const url = c.getOptionalString('url');
      if (!url) {
        throw new FleetConfigError(
          `${key}.url`,
          `is missing for Kubernetes plugin cluster '${name}'`,
        );
      }
      const token =
        stringOrUndefined(metadata?.serviceAccountToken) ??
        c.getOptionalString('serviceAccountToken');
      // The same checks as our own clusters, on the entry rewritten in our shape. Without a token the
      // Kubernetes plugin uses the pod's own service account, which is our in-cluster form with this url.
      const entry = new ConfigReader(
        {
          name,
          url,
          ...(token !== undefined
            ? { serviceAccountToken: token }
            : { inCluster: true }),
          ...optional('caData', c.getOptionalString('caData')),
          ...optional('caFile', c.getOptionalString('caFile')),
          ...optional('skipTLSVerify', c.getOptionalBoolean('skipTLSVerify')),
        },
        key,
      );
      clusters.push(readClusterConfig(entry, key));
    });
  });
  return clusters;
}

function optional<T>(key: string, value: T | undefined) {
  return value === undefined ? {} : { [key]: value };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
