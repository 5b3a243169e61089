/** Clients of a running simulated fleet for tests: a client-node KubeConfig, raw HTTP calls, polling. */
import { KubeConfig } from '@kubernetes/client-node';
import type { SimCluster } from '../fleetSim';

/** A KubeConfig for one simulated cluster, as its admin or read-only user. */
export function kubeConfigFor(
  cluster: SimCluster,
  user: 'admin' | 'readonly' = 'admin',
): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: cluster.name,
        server: cluster.server,
        // client-node refuses http:// servers unless told there is no TLS to verify.
        skipTLSVerify: cluster.server.startsWith('http:'),
        ...(cluster.caData ? { caData: cluster.caData } : {}),
      },
    ],
    users: [
      {
        name: user,
        token: user === 'admin' ? cluster.adminToken : cluster.readOnlyToken,
      },
    ],
    contexts: [{ name: cluster.name, cluster: cluster.name, user }],
    currentContext: cluster.name,
  });
  return kc;
}

/** The answer of a raw call. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** A raw HTTP call to a simulated cluster (admin token unless another is given; `null` sends none). */
export async function call(
  cluster: SimCluster,
  path: string,
  options: {
    method?: string;
    body?: unknown;
    contentType?: string;
    token?: string | null;
    accept?: string;
  } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  const token =
    options.token === undefined ? cluster.adminToken : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined)
    headers['Content-Type'] = options.contentType ?? 'application/json';
  if (options.accept) headers.Accept = options.accept;
  const response = await fetch(`${cluster.server}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body };
}

/** Polls until the check returns a value other than undefined, or fails with the last error. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `condition not met within ${timeoutMs} ms${
          lastError ? `: ${String(lastError)}` : ''
        }`,
      );
    }
    await new Promise(r => setTimeout(r, 50));
  }
}

/** A Kustomization manifest for tests. */
export function kustomizationManifest(
  namespace: string,
  name: string,
  extra: { labels?: Record<string, string>; source?: string } = {},
): Record<string, unknown> {
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: {
      name,
      namespace,
      ...(extra.labels ? { labels: extra.labels } : {}),
    },
    spec: {
      interval: '10m',
      path: './deploy',
      prune: true,
      sourceRef: {
        kind: 'GitRepository',
        name: extra.source ?? 'missing-repo',
      },
    },
  };
}
