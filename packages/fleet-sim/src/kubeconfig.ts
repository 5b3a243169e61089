/**
 * The kubeconfig of a simulated fleet: per cluster an admin context named after the cluster and a read-only
 * context `<cluster>-readonly`, both with bearer tokens. Plain-HTTP clusters are marked
 * `insecure-skip-tls-verify: true`: @kubernetes/client-node 1.x refuses `http://` servers otherwise (there is no
 * TLS to verify; kubectl ignores the flag there).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

/** What the kubeconfig needs to know about a cluster. */
export interface KubeconfigCluster {
  name: string;
  server: string;
  adminToken: string;
  readOnlyToken: string;
  caData?: string;
}

/** The kubeconfig document. */
export function kubeconfig(
  clusters: KubeconfigCluster[],
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    'current-context': clusters[0]?.name ?? '',
    clusters: clusters.map(c => ({
      name: c.name,
      cluster: {
        server: c.server,
        ...(c.caData ? { 'certificate-authority-data': c.caData } : {}),
        ...(c.server.startsWith('http:')
          ? { 'insecure-skip-tls-verify': true }
          : {}),
      },
    })),
    users: clusters.flatMap(c => [
      { name: `${c.name}-admin`, user: { token: c.adminToken } },
      { name: `${c.name}-readonly`, user: { token: c.readOnlyToken } },
    ]),
    contexts: clusters.flatMap(c => [
      { name: c.name, context: { cluster: c.name, user: `${c.name}-admin` } },
      {
        name: `${c.name}-readonly`,
        context: { cluster: c.name, user: `${c.name}-readonly` },
      },
    ]),
  };
}

/** Writes the kubeconfig (mode 0600: it holds tokens). */
export function writeKubeconfigFile(
  file: string,
  clusters: KubeconfigCluster[],
): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, stringify(kubeconfig(clusters)), { mode: 0o600 });
}
