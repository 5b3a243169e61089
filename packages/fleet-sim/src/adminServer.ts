/**
 * The small admin HTTP API of a simulated fleet: `GET /truth`, `GET /clusters` (each with its faults, object counts
 * and the requests it received), `GET /targets` (the controller pods' local scrape targets), `GET /event-loop`
 * (how busy the simulator's thread has been; `?reset=1` starts the next reading), `POST /clusters/:name/faults` (a
 * JSON body of `FaultChange`).
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { EventLoopMonitor } from './server/eventLoopLoad';
import { readBody, sendJson } from './server/httpBasics';
import { validateFaults, type FaultChange } from './sim/faults';

/** What the admin API serves. */
export interface AdminBackend {
  truth(): unknown;
  /** The controller pods' local scrape targets (Prometheus `file_sd` groups). */
  targets(): unknown[];
  clusters(): unknown[];
  hasCluster(name: string): boolean;
  setFault(cluster: string, faults: FaultChange): Promise<void>;
}

function fail(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, {
    error: { message },
    response: { statusCode: status },
  });
}

async function handle(
  backend: AdminBackend,
  eventLoop: EventLoopMonitor,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://admin');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (req.method === 'GET' && path === '/truth')
    return sendJson(res, 200, backend.truth());
  if (req.method === 'GET' && path === '/clusters')
    return sendJson(res, 200, { items: backend.clusters() });
  if (req.method === 'GET' && path === '/targets')
    return sendJson(res, 200, backend.targets());
  if (req.method === 'GET' && path === '/event-loop') {
    const reset = url.searchParams.get('reset');
    return sendJson(res, 200, eventLoop.read(reset === '1' || reset === 'true'));
  }
  if (req.method === 'GET' && path === '/healthz')
    return sendJson(res, 200, { ok: true });
  const m = /^\/clusters\/([^/]+)\/faults$/.exec(path);
  if (m) {
    if (req.method !== 'POST')
      return fail(res, 405, 'use POST with a JSON body of faults');
    const name = decodeURIComponent(m[1]);
    if (!backend.hasCluster(name))
      return fail(res, 404, `no cluster named ${name}`);
    let faults: FaultChange;
    try {
      faults = validateFaults(
        JSON.parse((await readBody(req, 64 * 1024)).toString('utf8') || '{}'),
      );
    } catch (error) {
      return fail(res, 400, `cluster ${name}: ${(error as Error).message}`);
    }
    await backend.setFault(name, faults);
    return sendJson(
      res,
      200,
      backend.clusters().find((c: any) => c.name === name),
    );
  }
  return fail(
    res,
    404,
    `unknown route ${req.method} ${path}; try GET /truth, GET /clusters, GET /targets, GET /event-loop, POST /clusters/:name/faults`,
  );
}

/** Starts the admin API; resolves with its URL and a close function. */
export async function startAdminServer(
  backend: AdminBackend,
  host: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const eventLoop = new EventLoopMonitor();
  const server: Server = createServer((req, res) => {
    handle(backend, eventLoop, req, res).catch(error =>
      fail(res, 500, String(error?.message ?? error)),
    );
  });
  server.on('connection', socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actual = address && typeof address === 'object' ? address.port : port;
  return {
    url: `http://${host}:${actual}`,
    close: () =>
      new Promise<void>(resolve => {
        eventLoop.close();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
