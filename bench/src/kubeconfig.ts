/** The clusters of a kubeconfig written by the fleet simulator: server, CA and the tokens of its two users. */
import { parse } from 'yaml';

/** One simulated cluster as a client reaches it. */
export interface SimulatedCluster {
  name: string;
  server: string;
  /** Base64 PEM of the CA, for HTTPS clusters. */
  caData?: string;
  adminToken: string;
  readOnlyToken: string;
}

interface KubeconfigDocument {
  clusters?: Array<{
    name: string;
    cluster: { server: string; 'certificate-authority-data'?: string };
  }>;
  users?: Array<{ name: string; user: { token?: string } }>;
  contexts?: Array<{
    name: string;
    context: { cluster: string; user: string };
  }>;
}

/**
 * Reads the simulator's kubeconfig (a context `<cluster>` for the admin and `<cluster>-readonly` for the read-only
 * user). Throws naming the cluster whose server or tokens are missing.
 */
export function readSimulatedClusters(
  kubeconfigText: string,
): SimulatedCluster[] {
  const doc = parse(kubeconfigText) as KubeconfigDocument;
  const clusters = new Map((doc.clusters ?? []).map(c => [c.name, c.cluster]));
  const users = new Map((doc.users ?? []).map(u => [u.name, u.user]));
  const contexts = new Map((doc.contexts ?? []).map(c => [c.name, c.context]));
  const tokenOf = (contextName: string) => {
    const context = contexts.get(contextName);
    return context ? users.get(context.user)?.token : undefined;
  };
  return [...contexts.keys()]
    .filter(name => !name.endsWith('-readonly'))
    .sort()
    .map(name => {
      const cluster = clusters.get(contexts.get(name)!.cluster);
      const adminToken = tokenOf(name);
      const readOnlyToken = tokenOf(`${name}-readonly`);
      if (!cluster?.server || !adminToken || !readOnlyToken) {
        throw new Error(
          `the simulator's kubeconfig lacks the server or a token of cluster ${name} (contexts ${name} and ${name}-readonly)`,
        );
      }
      return {
        name,
        server: cluster.server,
        ...(cluster['certificate-authority-data']
          ? { caData: cluster['certificate-authority-data'] }
          : {}),
        adminToken,
        readOnlyToken,
      };
    });
}
