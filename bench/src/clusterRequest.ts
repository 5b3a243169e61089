/** Raw requests to a simulated cluster's Kubernetes API, over HTTP or HTTPS with the simulator's CA. */
import http from 'node:http';
import https from 'node:https';
import type { SimulatedCluster } from './kubeconfig';

const agents = new Map<string, http.Agent>();

function agentFor(cluster: SimulatedCluster): http.Agent {
  let agent = agents.get(cluster.server);
  if (!agent) {
    agent = cluster.server.startsWith('https:')
      ? new https.Agent({
          keepAlive: true,
          ...(cluster.caData
            ? { ca: Buffer.from(cluster.caData, 'base64') }
            : {}),
        })
      : new http.Agent({ keepAlive: true });
    agents.set(cluster.server, agent);
  }
  return agent;
}

/** The answer of a cluster: status and the body as text (JSON parsing is the caller's, and sometimes what is timed). */
export interface ClusterAnswer {
  status: number;
  text: string;
}

/** Sends one request as the cluster's admin (or the given token); rejects on network errors, never on a status. */
export function clusterRequest(
  cluster: SimulatedCluster,
  path: string,
  options: {
    method?: string;
    body?: unknown;
    contentType?: string;
    token?: string;
    /** The Accept header; plain JSON by default. */
    accept?: string;
  } = {},
): Promise<ClusterAnswer> {
  return send(cluster, path, options, true);
}

function send(
  cluster: SimulatedCluster,
  path: string,
  options: Parameters<typeof clusterRequest>[2] & {},
  mayRetry: boolean,
): Promise<ClusterAnswer> {
  const url = new URL(path, cluster.server);
  const body =
    options.body === undefined ? undefined : JSON.stringify(options.body);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: agentFor(cluster),
        headers: {
          Authorization: `Bearer ${options.token ?? cluster.adminToken}`,
          Accept: options.accept ?? 'application/json',
          ...(body !== undefined
            ? {
                'Content-Type': options.contentType ?? 'application/json',
                'Content-Length': Buffer.byteLength(body),
              }
            : {}),
        },
      },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', chunk => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      // a kept-alive connection the simulator closed just as it was reused (its idle timeout): the request never
      // reached it, so it is sent again once on a new connection, as Node's http docs advise (`reusedSocket`).
      // A freshness run at L failed on this once (2026-12-04).
      if (mayRetry && req.reusedSocket && error.code === 'ECONNRESET') {
        send(cluster, path, options, false).then(resolve, reject);
        return;
      }
      reject(
        new Error(
          `cluster ${cluster.name}: ${
            options.method ?? 'GET'
          } ${path} failed: ${error.message}`,
        ),
      );
    });
    req.end(body);
  });
}

/** Closes the kept-alive connections. */
export function closeClusterConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
