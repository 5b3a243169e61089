import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { ClusterClient } from '../../watch/ClusterClient';

/** What a pod's `/metrics` answers through the fake API server's pod proxy. */
export type PodAnswer =
  | { text: string }
  | { status: number; body: string }
  /** Sends the headers, then nothing. */
  | { hang: true }
  /** Streams this many bytes of comment lines without a Content-Length. */
  | { hugeBytes: number };

/** A controller Deployment with its pods, as the fake API server serves it. */
export interface FakeDeployment {
  namespace: string;
  name: string;
  pods: Record<string, PodAnswer>;
  resources?: Record<string, unknown>;
  /** Answer the pod list with this status instead. */
  podListStatus?: number;
}

/**
 * A small HTTP server answering the few Kubernetes API paths capacity collection uses — GET a Deployment, list
 * pods by label selector, the pod proxy's `/metrics` — for scraper tests that need exact, hostile answers
 * (garbage, huge, hanging, 403) the simulator does not give. Binds port 0.
 */
export class FakeClusterApi {
  readonly deployments = new Map<string, FakeDeployment>();
  /** The paths asked, in order. */
  readonly requests: string[] = [];
  private server?: http.Server;
  private readonly open = new Set<http.ServerResponse>();
  url = '';

  set(d: FakeDeployment) {
    this.deployments.set(`${d.namespace}/${d.name}`, d);
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      this.requests.push(req.url ?? '');
      this.answer(req, res);
    });
    await new Promise<void>(resolve =>
      this.server!.listen(0, '127.0.0.1', resolve),
    );
    this.url = `http://127.0.0.1:${
      (this.server!.address() as AddressInfo).port
    }`;
  }

  async stop(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>(
      resolve => this.server?.close(() => resolve()) ?? resolve(),
    );
  }

  client(cluster: string, timeoutMs = 5000): ClusterClient {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      // as createKubeConfig does for http servers: client-node refuses plain http otherwise
      clusters: [{ name: cluster, server: this.url, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: cluster, cluster, user: 'u' }],
      currentContext: cluster,
    });
    return new ClusterClient(cluster, kc, timeoutMs);
  }

  private json(res: http.ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, 'http://x');
    let m =
      /^\/apis\/apps\/v1\/namespaces\/([^/]+)\/deployments\/([^/]+)$/.exec(
        url.pathname,
      );
    if (m) {
      const d = this.deployments.get(`${m[1]}/${m[2]}`);
      if (!d)
        return this.json(res, 404, {
          kind: 'Status',
          reason: 'NotFound',
          message: 'not found',
        });
      return this.json(res, 200, {
        metadata: { namespace: d.namespace, name: d.name },
        spec: {
          selector: { matchLabels: { app: d.name } },
          template: {
            spec: {
              containers: [
                {
                  name: 'manager',
                  resources: d.resources ?? {},
                  ports: [{ name: 'http-prom', containerPort: 8080 }],
                },
              ],
            },
          },
        },
      });
    }
    m = /^\/api\/v1\/namespaces\/([^/]+)\/pods$/.exec(url.pathname);
    if (m) {
      const app = /^app=(.+)$/.exec(
        url.searchParams.get('labelSelector') ?? '',
      )?.[1];
      const d = this.deployments.get(`${m[1]}/${app}`);
      if (d?.podListStatus) {
        return this.json(res, d.podListStatus, {
          kind: 'Status',
          reason: 'Forbidden',
          message: 'pods is forbidden',
        });
      }
      return this.json(res, 200, {
        kind: 'PodList',
        items: Object.keys(d?.pods ?? {}).map(name => ({
          metadata: { namespace: m![1], name, labels: { app } },
          spec: {
            containers: [
              {
                name: 'manager',
                ports: [{ name: 'http-prom', containerPort: 8080 }],
              },
            ],
          },
          status: { phase: 'Running' },
        })),
      });
    }
    m =
      /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/:]+):8080\/proxy\/metrics$/.exec(
        url.pathname,
      );
    const pod =
      m &&
      [...this.deployments.values()].find(
        d => d.namespace === m![1] && m![2] in d.pods,
      )?.pods[m[2]];
    if (!pod)
      return this.json(res, 404, {
        kind: 'Status',
        reason: 'NotFound',
        message: `no route ${url.pathname}`,
      });
    if ('text' in pod) {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      return res.end(pod.text);
    }
    if ('status' in pod) {
      res.writeHead(pod.status, { 'content-type': 'application/json' });
      return res.end(pod.body);
    }
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
    res.writeHead(200, { 'content-type': 'text/plain' });
    if ('hang' in pod) return res.write('# HELP a line, then nothing\n');
    const line = `# ${'x'.repeat(1000)}\n`;
    let sent = 0;
    const pump = () => {
      while (sent < pod.hugeBytes && !res.destroyed) {
        sent += line.length;
        if (!res.write(line)) return res.once('drain', pump);
      }
      res.end();
      return undefined;
    };
    pump();
    return undefined;
  }
}
