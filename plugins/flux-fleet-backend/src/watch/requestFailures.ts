import http from 'node:http';
import type { KubeRequest, KubeResponse } from './kubeTransport';
import {
  KubernetesRequestError,
  parseRetryAfter,
} from './KubernetesRequestError';

/* How the requests of a ClusterClient fail: errors naming the cluster and what was asked, and cancellation. */

/** A request answered with an error status: its reason and message as the server gave them. */
export function statusError(
  cluster: string,
  path: string,
  res: KubeResponse,
  body: string,
): KubernetesRequestError {
  const status = res.statusCode ?? 0;
  let reason: string | undefined;
  let detail: string | undefined;
  try {
    const parsed = JSON.parse(body);
    reason = typeof parsed?.reason === 'string' ? parsed.reason : undefined;
    detail = typeof parsed?.message === 'string' ? parsed.message : undefined;
  } catch {
    detail = body.trim().slice(0, 200) || undefined;
  }
  const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
  return new KubernetesRequestError({
    cluster,
    failure: 'status',
    status,
    reason,
    retryAfterMs,
    message: `GET ${path} answered ${status} ${
      http.STATUS_CODES[status] ?? ''
    }${detail ? `: ${detail}` : ''}${
      retryAfterMs !== undefined
        ? ` (retry after ${Math.ceil(retryAfterMs / 1000)} s)`
        : ''
    }`.replace(/\s+$/, ''),
  });
}

/** A request that did not answer within its deadline. */
export function timeoutError(
  cluster: string,
  path: string,
  timeoutMs: number,
): KubernetesRequestError {
  return new KubernetesRequestError({
    cluster,
    failure: 'timeout',
    message: `GET ${path} did not answer within ${timeoutMs / 1000} s`,
  });
}

/** A request that could not reach the server. */
export function networkError(
  cluster: string,
  server: string,
  path: string,
  error: Error,
): KubernetesRequestError {
  const code = (error as NodeJS.ErrnoException).code;
  return new KubernetesRequestError({
    cluster,
    failure: 'network',
    message: `cannot reach ${server} for ${path}: ${
      code && !error.message.includes(code) ? `${code} ` : ''
    }${error.message}`,
    cause: error,
  });
}

/** A request cancelled by its caller. */
export function abortedError(
  cluster: string,
  path: string,
): KubernetesRequestError {
  return new KubernetesRequestError({
    cluster,
    failure: 'network',
    message: `GET ${path} was cancelled`,
  });
}

/** Calls `onAbort` when `signal` aborts while the request runs (at once when it already has). */
export function abortWith(
  req: KubeRequest,
  signal: AbortSignal | undefined,
  onAbort: () => void,
) {
  if (!signal) return;
  if (signal.aborted) {
    onAbort();
    return;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  req.on('close', () => signal.removeEventListener('abort', onAbort));
}
