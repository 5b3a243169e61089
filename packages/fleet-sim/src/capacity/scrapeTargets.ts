/**
 * Each controller pod's metrics on a local port of its own (`127.0.0.1:<any free port>`), as a Prometheus
 * server in the cluster would scrape the pod IP, and a Prometheus `file_sd` targets file listing them with the
 * labels `cluster`, `namespace`, `pod`, `deployment`, `component`, rewritten when pods come and go.
 * One listener per pod: at fleet M (about 250 pods) that is 250 idle sockets.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ControllerPod } from '../sim/controllerPods';
import type { SimulatedCluster } from '../sim/simulatedCluster';

/** One `file_sd` target group. */
export interface TargetGroup {
  targets: string[];
  labels: {
    cluster: string;
    namespace: string;
    pod: string;
    deployment: string;
    component: string;
  };
}

interface Listener {
  server: Server;
  sockets: Set<Socket>;
  port: number;
  pod: ControllerPod;
}

/** The local scrape listeners of a fleet's controller pods. */
export class ScrapeTargets {
  private readonly listeners = new Map<string, Listener>();
  private readonly unsubscribe: Array<() => void> = [];
  private pending: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly clusters: readonly SimulatedCluster[],
    private readonly host: string,
    private readonly file?: string,
  ) {}

  /** Opens a listener for every pod and keeps them in step with the pods. */
  async start(): Promise<void> {
    for (const cluster of this.clusters) {
      this.unsubscribe.push(
        cluster.pods.onChange(() => {
          this.pending = this.pending.then(() => this.sync());
        }),
      );
    }
    await this.sync();
  }

  /** Waits until listeners and the file follow the latest pod change. */
  settled(): Promise<void> {
    return this.pending;
  }

  private async sync(): Promise<void> {
    if (this.closed) return;
    const wanted = new Map<
      string,
      { cluster: SimulatedCluster; pod: ControllerPod }
    >();
    for (const cluster of this.clusters)
      for (const pod of cluster.pods.all())
        wanted.set(`${cluster.name}/${pod.namespace}/${pod.name}`, {
          cluster,
          pod,
        });
    for (const [key, listener] of [...this.listeners]) {
      if (wanted.has(key)) continue;
      this.listeners.delete(key);
      await closeListener(listener);
    }
    for (const [key, { cluster, pod }] of wanted) {
      if (this.listeners.has(key)) continue;
      this.listeners.set(key, await this.open(cluster, pod));
    }
    this.write();
  }

  private async open(
    cluster: SimulatedCluster,
    pod: ControllerPod,
  ): Promise<Listener> {
    const sockets = new Set<Socket>();
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://pod').pathname;
      if (req.method === 'GET' && path === '/metrics') {
        cluster.metrics.serve(pod, res);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('404 page not found\n');
    });
    server.on('connection', socket => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, this.host, () => resolve());
    });
    const address = server.address();
    const port = address && typeof address === 'object' ? address.port : 0;
    return { server, sockets, port, pod };
  }

  /** The targets, one group per pod. */
  groups(): TargetGroup[] {
    return [...this.listeners.entries()].map(([key, l]) => ({
      targets: [`${this.host}:${l.port}`],
      labels: {
        cluster: key.slice(0, key.indexOf('/')),
        namespace: l.pod.namespace,
        pod: l.pod.name,
        deployment: l.pod.deployment,
        component: l.pod.component,
      },
    }));
  }

  /** The local scrape address of a pod, e.g. `127.0.0.1:40123`. */
  addressOf(
    cluster: string,
    namespace: string,
    pod: string,
  ): string | undefined {
    const listener = this.listeners.get(`${cluster}/${namespace}/${pod}`);
    return listener ? `${this.host}:${listener.port}` : undefined;
  }

  private write(): void {
    if (!this.file) return;
    // Written whole and renamed, so that Prometheus never reads half a file.
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.groups(), null, 2)}\n`);
    renameSync(temporary, this.file);
  }

  /** Closes every listener. */
  async close(): Promise<void> {
    this.closed = true;
    for (const off of this.unsubscribe) off();
    await this.pending;
    await Promise.all([...this.listeners.values()].map(closeListener));
    this.listeners.clear();
  }
}

function closeListener(listener: Listener): Promise<void> {
  return new Promise(resolve => {
    listener.server.close(() => resolve());
    for (const socket of listener.sockets) socket.destroy();
  });
}
