import { KubeConfig } from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import type { ClusterConfig } from '../config/FleetConfig';
import { FleetConfigError } from '../config/FleetConfigError';

/** Where a pod's service account token is mounted (what `inCluster: true` reads). */
const IN_CLUSTER_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/**
 * The client-node `KubeConfig` for one configured cluster: its server, CA and credentials, whatever form the
 * configuration gave them in. Files are checked now, so a wrong path stops start-up with a message naming the
 * configuration key rather than failing on every request later.
 */
export function createKubeConfig(cluster: ClusterConfig): KubeConfig {
  const kc = new KubeConfig();
  const { auth, configKey: key } = cluster;
  for (const [field, path] of [
    ['caFile', cluster.caFile],
    ['clientCert.certFile', auth.type === 'clientCert' && auth.certFile],
    ['clientCert.keyFile', auth.type === 'clientCert' && auth.keyFile],
  ] as const) {
    if (path && !existsSync(path)) {
      throw new FleetConfigError(
        `${key}.${field}`,
        `the file ${path} does not exist`,
      );
    }
  }

  if (auth.type === 'kubeconfig') {
    if (!existsSync(auth.path)) {
      throw new FleetConfigError(
        `${key}.kubeconfig.path`,
        `the kubeconfig file ${auth.path} does not exist`,
      );
    }
    try {
      kc.loadFromFile(auth.path);
    } catch (error) {
      throw new FleetConfigError(
        `${key}.kubeconfig.path`,
        `${auth.path} is not a readable kubeconfig: ${(error as Error).message}`,
      );
    }
    if (auth.context) {
      if (!kc.getContextObject(auth.context)) {
        throw new FleetConfigError(
          `${key}.kubeconfig.context`,
          `${auth.path} has no context '${auth.context}' (it has: ${
            kc
              .getContexts()
              .map(c => c.name)
              .join(', ') || 'none'
          })`,
        );
      }
      kc.setCurrentContext(auth.context);
    }
    const current = kc.getCurrentCluster();
    if (!current) {
      throw new FleetConfigError(
        `${key}.kubeconfig`,
        `${auth.path} has no current context; name one with kubeconfig.context`,
      );
    }
    overrideCluster(kc, cluster, current.server);
    return kc;
  }

  if (auth.type === 'inCluster') {
    if (!existsSync(IN_CLUSTER_TOKEN)) {
      throw new FleetConfigError(
        key,
        `cluster '${cluster.name}' reads the pod's service account, but ${IN_CLUSTER_TOKEN} does not exist: Backstage does not run in a Kubernetes pod here; use serviceAccountToken or kubeconfig`,
      );
    }
    if (!cluster.url && !process.env.KUBERNETES_SERVICE_HOST) {
      throw new FleetConfigError(
        `${key}.url`,
        `is needed for cluster '${cluster.name}': KUBERNETES_SERVICE_HOST is not set`,
      );
    }
    kc.loadFromCluster();
    overrideCluster(kc, cluster, kc.getCurrentCluster()!.server);
    return kc;
  }

  const server = cluster.url!;
  kc.loadFromOptions({
    clusters: [
      {
        name: cluster.name,
        server,
        caData: cluster.caData,
        caFile: cluster.caFile,
        skipTLSVerify: cluster.skipTLSVerify || server.startsWith('http:'),
      },
    ],
    users: [
      {
        name: cluster.name,
        ...(auth.type === 'serviceAccountToken' && { token: auth.token }),
        ...(auth.type === 'clientCert' && {
          certData: auth.certData,
          certFile: auth.certFile,
          keyData: auth.keyData,
          keyFile: auth.keyFile,
        }),
      },
    ],
    contexts: [{ name: cluster.name, cluster: cluster.name, user: cluster.name }],
    currentContext: cluster.name,
  });
  return kc;
}

/** Applies the configured url, CA and TLS settings on top of a loaded kubeconfig's current cluster. */
function overrideCluster(kc: KubeConfig, cluster: ClusterConfig, server: string) {
  const current = kc.getCurrentCluster()!;
  const url = cluster.url ?? server;
  const patched = {
    ...current,
    server: url,
    ...(cluster.caData && { caData: cluster.caData, caFile: undefined }),
    ...(cluster.caFile && { caFile: cluster.caFile, caData: undefined }),
    // client-node refuses plain http unless TLS verification is off; there is no TLS to verify then
    skipTLSVerify:
      cluster.skipTLSVerify || current.skipTLSVerify || url.startsWith('http:'),
  };
  kc.clusters = kc.clusters.map(c => (c.name === current.name ? patched : c));
}
