/** What kind of failure a request to a cluster met. */
export type RequestFailure =
  /** The API server answered with an error status. */
  | 'status'
  /** No answer in time (a hanging or overloaded cluster). */
  | 'timeout'
  /** The connection failed: refused, reset, DNS, TLS. */
  | 'network'
  /** The answer was not the JSON it should be. */
  | 'malformed';

/**
 * A failed request to a cluster. The message names the cluster and the resource and says what happened, never
 * what credentials were sent.
 */
export class KubernetesRequestError extends Error {
  readonly cluster: string;
  readonly failure: RequestFailure;
  /** HTTP status, for `status` failures. */
  readonly status?: number;
  /** The Kubernetes `Status.reason`, e.g. `Expired`, `Forbidden`, when the server sent one. */
  readonly reason?: string;
  /** The server's `Retry-After`, in milliseconds. */
  readonly retryAfterMs?: number;

  constructor(options: {
    cluster: string;
    failure: RequestFailure;
    message: string;
    status?: number;
    reason?: string;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    super(`cluster '${options.cluster}': ${options.message}`, {
      cause: options.cause,
    });
    this.name = 'KubernetesRequestError';
    this.cluster = options.cluster;
    this.failure = options.failure;
    this.status = options.status;
    this.reason = options.reason;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** `410 Gone`: the resource version asked for is too old; the informer has to list again. */
  get gone(): boolean {
    return this.status === 410;
  }

  /** The credentials are refused (401) or may not read this resource (403). */
  get unauthorized(): boolean {
    return this.status === 401 || this.status === 403;
  }

  /** The cluster does not serve this resource (CRD missing, old Kubernetes). */
  get notFound(): boolean {
    return this.status === 404;
  }

  /** The server asked us to slow down (429) or is failing (5xx): retry later, after `Retry-After` if given. */
  get throttledOrFailing(): boolean {
    return this.status === 429 || (this.status ?? 0) >= 500;
  }

  /** The cluster could not be reached at all, or answered with a server error. */
  get unreachable(): boolean {
    return (
      this.failure === 'network' ||
      this.failure === 'timeout' ||
      (this.status ?? 0) >= 500
    );
  }
}

/** Reads a `Retry-After` header (seconds or an HTTP date) as milliseconds from now. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) {
    return undefined;
  }
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) {
    return Math.round(Number(text) * 1000);
  }
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
