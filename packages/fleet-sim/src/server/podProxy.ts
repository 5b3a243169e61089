/**
 * The API server's pod proxy, `GET /api/v1/namespaces/{ns}/pods/{name}[:{port}]/proxy/{path}`, for the
 * simulated controller pods: port 8080 (`http-prom`, the default: the first container port) serves `/metrics`,
 * 9440 (`healthz`) serves `/healthz` and `/readyz`, any other port refuses the connection as an empty port
 * would. RBAC: `get` on `pods/proxy`, which the read-only user has unless the cluster's `podsProxyForbidden`
 * fault says otherwise.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, methodNotAllowed, notFound } from '../api/apiError';
import { POD_TYPE } from '../sim/controllerPods';
import type { SimulatedCluster } from '../sim/simulatedCluster';
import { parseStored } from '../store/clusterStore';
import { sendJson } from './httpBasics';

function unreachable(message: string): ApiError {
  return new ApiError(
    503,
    'ServiceUnavailable',
    `error trying to reach service: ${message}`,
  );
}

/** The container port a proxy target names (`name`, `name:8080`, `name:http-prom`, `https:name:8443`). */
function resolvePort(
  pod: any,
  port: string | undefined,
): { number?: number; error?: string } {
  const ports: Array<{ name?: string; containerPort: number }> = (
    pod.spec?.containers ?? []
  ).flatMap((c: any) => (Array.isArray(c.ports) ? c.ports : []));
  if (port === undefined || port === '') {
    return ports[0]
      ? { number: ports[0].containerPort }
      : { error: 'pod has no container port and none was given' };
  }
  if (/^\d+$/.test(port)) return { number: Number(port) };
  const named = ports.find(p => p.name === port);
  return named
    ? { number: named.containerPort }
    : { error: `no port named "${port}" in pod ${pod.metadata.name}` };
}

/** Answers one pod proxy request. */
export function servePodProxy(
  cluster: SimulatedCluster,
  user: { name: string; admin: boolean },
  req: IncomingMessage,
  res: ServerResponse,
  request: { namespace: string; target: string; path: string },
): void {
  const fail = (error: ApiError) => sendJson(res, error.code, error.toStatus());
  const parts = request.target.split(':');
  const [name, port] = parts.length === 3 ? parts.slice(1) : parts;
  if (!user.admin && cluster.faults.podsProxyForbidden) {
    fail(
      new ApiError(
        403,
        'Forbidden',
        `pods "${name}" is forbidden: User "${user.name}" cannot get resource "pods/proxy" in API group "" in the namespace "${request.namespace}"`,
        { name, kind: 'pods' },
      ),
    );
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    fail(methodNotAllowed());
    return;
  }
  const stored = cluster.store.get(POD_TYPE, request.namespace, name);
  if (!stored) {
    fail(notFound(POD_TYPE, name));
    return;
  }
  const pod = parseStored(stored);
  const resolved = resolvePort(pod, port);
  if (resolved.error) {
    fail(unreachable(resolved.error));
    return;
  }
  const controllerPod = cluster.pods.get(request.namespace, name);
  if (resolved.number === 8080 && controllerPod) {
    if (request.path === '/metrics') {
      cluster.metrics.serve(controllerPod, res);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('404 page not found\n');
    return;
  }
  if (resolved.number === 9440 && controllerPod) {
    const ok = request.path === '/healthz' || request.path === '/readyz';
    res.writeHead(ok ? 200 : 404, { 'Content-Type': 'text/plain' });
    res.end(ok ? 'ok' : '404 page not found\n');
    return;
  }
  fail(
    unreachable(
      `dial tcp ${pod.status?.podIP}:${resolved.number}: connect: connection refused`,
    ),
  );
}
