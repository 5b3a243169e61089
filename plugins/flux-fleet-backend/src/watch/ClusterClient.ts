import type { KubeConfig } from '@kubernetes/client-node';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { Http2Connection, type KubeRequest, type KubeResponse } from './kubeTransport';
import { KubernetesRequestError } from './KubernetesRequestError';
import { listBodyReader, type ListPageReader } from './ListBodyReader';
import {
  abortedError,
  abortWith,
  networkError,
  statusError,
  timeoutError,
} from './requestFailures';

/** One line of a watch stream. */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR' | string;
  object: unknown;
}

/** Why a watch stream ended without an error. */
export type WatchEnd =
  /** The server closed it (its `timeoutSeconds` passed): resume from the last resource version. */
  | 'closed'
  /** Nothing arrived, not even a bookmark, for `idleTimeoutMs`: the cluster may hang. */
  | 'idle'
  /** We stopped it. */
  | 'aborted';

/** Query parameters; undefined ones are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** How long request options (credentials, TLS agent) are reused before client-node is asked again. */
const OPTIONS_TTL_MS = 60_000;

/**
 * HTTP access to one cluster's API server. Credentials, CA and TLS settings come from client-node's `KubeConfig`
 * (every auth form it supports: token, client certificate, kubeconfig exec and auth providers, in-cluster); the
 * requests go through Node's http/https so the watch layer gets what client-node's `Watch` and generated clients
 * hide: status codes with `Retry-After`, a real deadline per request, an idle timeout on watches, and streaming
 * JSON lines with no extra copies.
 */
export class ClusterClient {
  private cachedOptions?: { options: https.RequestOptions; expires: number };
  /** The connection pool kept across refreshes of the options while the TLS material stays the same. */
  private pool?: { agent: https.Agent; material: readonly unknown[]; http2: Http2Connection };
  /** The keep-alive agent of a plain-HTTP server (see {@link keepAliveAgent}). */
  private plainAgent?: http.Agent;
  private readonly transport: typeof http | typeof https;
  /** The API server's URL, without a trailing slash. */
  readonly server: string;

  constructor(
    readonly cluster: string,
    /** The cluster's client-node configuration; actions write through it with the same credentials. */
    readonly kubeConfig: KubeConfig,
    private readonly requestTimeoutMs: number,
  ) {
    this.server = kubeConfig.getCurrentCluster()!.server.replace(/\/+$/, '');
    this.transport = this.server.startsWith('http:') ? http : https;
  }

  /** GETs a JSON document; throws {@link KubernetesRequestError}. */
  async getJson<T = unknown>(
    path: string,
    query: Query = {},
    signal?: AbortSignal,
  ): Promise<T> {
    try {
      return await this.getJsonOnce<T>(path, query, signal);
    } catch (error) {
      // a rotated token or expired exec credential: ask client-node again once
      if (error instanceof KubernetesRequestError && error.status === 401) {
        this.cachedOptions = undefined;
        return this.getJsonOnce<T>(path, query, signal);
      }
      throw error;
    }
  }

  /**
   * GETs one page of a list and hands each of its items to `onItem` as soon as the item has arrived, parsed on
   * its own (see `ListBodyReader`), so that a page is never held whole. Returns the rest of the list
   * (kind, metadata) with `items` empty when they were handed over. Throws {@link KubernetesRequestError}; items
   * handed over before a failure stay handed over.
   */
  async getList<T = unknown>(
    path: string,
    query: Query,
    onItem: (item: unknown) => void,
    signal?: AbortSignal,
    /** The Accept header, when not plain JSON (metadata-only lists: `METADATA_ONLY_ACCEPT` of -common). */
    accept?: string,
  ): Promise<T> {
    return this.getListWith<T>(path, query, () => listBodyReader(onItem), signal, accept);
  }

  /**
   * {@link ClusterClient.getList} with the page's body read by `reader` (made anew for each attempt): the list
   * worker reads it on another thread.
   */
  async getListWith<T = unknown>(
    path: string,
    query: Query,
    reader: () => ListPageReader,
    signal?: AbortSignal,
    accept?: string,
  ): Promise<T> {
    try {
      return await this.getListOnce<T>(path, query, reader, signal, accept);
    } catch (error) {
      // a rotated token or expired exec credential: ask client-node again once (nothing was handed over)
      if (error instanceof KubernetesRequestError && error.status === 401) {
        this.cachedOptions = undefined;
        return this.getListOnce<T>(path, query, reader, signal, accept);
      }
      throw error;
    }
  }

  private async getListOnce<T>(
    path: string,
    query: Query,
    makeReader: () => ListPageReader,
    signal?: AbortSignal,
    accept?: string,
  ): Promise<T> {
    const url = this.url(path, query);
    const options = withAccept(await this.requestOptions(), accept);
    const send = await this.sender(options, path);
    return new Promise<T>((resolve, reject) => {
      let deadline: NodeJS.Timeout | undefined = undefined;
      let req: KubeRequest | undefined = undefined;
      let reader: ListPageReader | undefined;
      let settled = false;
      const fail = (error: KubernetesRequestError) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        req?.destroy();
        reader?.abandon();
        reject(error);
      };
      const malformed = (error: unknown) =>
        new KubernetesRequestError({
          cluster: this.cluster,
          failure: 'malformed',
          message: `GET ${path} answered with text that is not JSON (${
            error instanceof Error ? error.message : String(error)
          })`,
        });
      req = send.request(url, res => {
        if (res.statusCode !== 200) {
          res.setEncoding('utf8');
          let body = '';
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => fail(statusError(this.cluster, path, res, body)));
          res.on('error', error =>
            fail(networkError(this.cluster, this.server, path, error)),
          );
          return;
        }
        // Buffers, not text: the reader cuts the items out of the bytes, and only one item is text at a time.
        const body = makeReader();
        reader = body;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          try {
            body.write(chunk);
          } catch (error) {
            fail(malformed(error));
          }
        });
        res.on('error', error =>
          fail(networkError(this.cluster, this.server, path, error)),
        );
        res.on('end', () => {
          if (settled) return;
          // the deadline covers the reading too: a list worker that never answers fails the request
          Promise.resolve()
            .then(() => body.end())
            .then(
              rest => {
                if (settled) return;
                settled = true;
                clearTimeout(deadline);
                resolve(rest as T);
              },
              // a list worker that stopped says so itself; anything else is the body's fault
              error => fail(error instanceof KubernetesRequestError ? error : malformed(error)),
            );
        });
      });
      deadline = setTimeout(() => {
        send.check();
        fail(timeoutError(this.cluster, path, this.requestTimeoutMs));
      }, this.requestTimeoutMs);
      req.on('error', error =>
        fail(networkError(this.cluster, this.server, path, error)),
      );
      abortWith(req, signal, () => fail(abortedError(this.cluster, path)));
      req.end();
    });
  }

  private async getJsonOnce<T>(
    path: string,
    query: Query,
    signal?: AbortSignal,
  ): Promise<T> {
    const url = this.url(path, query);
    const options = await this.requestOptions();
    const send = await this.sender(options, path);
    return new Promise<T>((resolve, reject) => {
      let deadline: NodeJS.Timeout | undefined = undefined;
      let req: KubeRequest | undefined = undefined;
      const fail = (error: KubernetesRequestError) => {
        clearTimeout(deadline);
        req?.destroy();
        reject(error);
      };
      req = send.request(url, res => {
        // Text chunks joined by V8 rather than one large Buffer: a page of a list can be megabytes, and large
        // Buffers live outside the JavaScript heap, where freed memory is not always given back to the system.
        res.setEncoding('utf8');
        let body = '';
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('error', error =>
          fail(networkError(this.cluster, this.server, path, error)),
        );
        res.on('end', () => {
          clearTimeout(deadline);
          if (res.statusCode !== 200) {
            reject(statusError(this.cluster, path, res, body));
            return;
          }
          try {
            resolve(JSON.parse(body) as T);
          } catch (error) {
            reject(
              new KubernetesRequestError({
                cluster: this.cluster,
                failure: 'malformed',
                message: `GET ${path} answered with text that is not JSON (${
                  (error as Error).message
                })`,
              }),
            );
          }
        });
      });
      deadline = setTimeout(() => {
        send.check();
        fail(timeoutError(this.cluster, path, this.requestTimeoutMs));
      }, this.requestTimeoutMs);
      req.on('error', error =>
        fail(networkError(this.cluster, this.server, path, error)),
      );
      abortWith(req, signal, () => fail(abortedError(this.cluster, path)));
      req.end();
    });
  }

  /**
   * Streams a watch: calls `onOpen` when the server accepts it, then `onEvent` for each line until the server closes the stream, nothing arrives for
   * `idleTimeoutMs`, or `signal` aborts. Resolves with why it ended; rejects with {@link KubernetesRequestError}
   * when the request fails or the connection breaks.
   */
  async watch(
    path: string,
    query: Query,
    handlers: { onOpen?: () => void; onEvent: (event: WatchEvent) => void },
    options: {
      idleTimeoutMs: number;
      signal?: AbortSignal;
      /** The Accept header, when not plain JSON (metadata-only events: `METADATA_ONLY_ACCEPT` of -common). */
      accept?: string;
    },
  ): Promise<WatchEnd> {
    const { onEvent } = handlers;
    const url = this.url(path, { ...query, watch: true });
    const requestOptions = withAccept(await this.requestOptions(), options.accept);
    const send = await this.sender(requestOptions, path);
    return new Promise<WatchEnd>((resolve, reject) => {
      let settled = false;
      let idle: NodeJS.Timeout | undefined;
      let req: KubeRequest | undefined = undefined;
      const finish = (end: WatchEnd | KubernetesRequestError) => {
        if (settled) return;
        settled = true;
        clearTimeout(idle);
        req?.destroy();
        if (end instanceof KubernetesRequestError) reject(end);
        else resolve(end);
      };
      const armIdle = (ms: number, onIdle: () => void) => {
        clearTimeout(idle);
        idle = setTimeout(onIdle, ms);
      };
      // until the response starts, the request deadline applies; then the idle timeout
      armIdle(this.requestTimeoutMs, () => {
        send.check();
        finish(
          new KubernetesRequestError({
            cluster: this.cluster,
            failure: 'timeout',
            message: `watch ${path} did not answer within ${
              this.requestTimeoutMs / 1000
            } s`,
          }),
        );
      });
      req = send.request(url, res => {
        if (res.statusCode !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            finish(
              statusError(
                this.cluster,
                path,
                res,
                Buffer.concat(chunks).toString('utf8'),
              ),
            ),
          );
          res.on('error', error =>
            finish(networkError(this.cluster, this.server, path, error)),
          );
          return;
        }
        const onIdle = () => {
          send.check();
          finish('idle');
        };
        armIdle(options.idleTimeoutMs, onIdle);
        handlers.onOpen?.();
        res.setEncoding('utf8');
        let pending = '';
        res.on('data', (chunk: string) => {
          if (settled) return;
          armIdle(options.idleTimeoutMs, onIdle);
          const text = pending + chunk;
          let start = 0;
          let newline = text.indexOf('\n');
          while (newline >= 0 && !settled) {
            if (newline > start) {
              this.deliver(path, text.slice(start, newline), onEvent);
            }
            start = newline + 1;
            newline = text.indexOf('\n', start);
          }
          pending = text.slice(start);
        });
        res.on('end', () => {
          if (pending.trim() && !settled) this.deliver(path, pending, onEvent);
          finish('closed');
        });
        res.on('error', error =>
          finish(networkError(this.cluster, this.server, path, error)),
        );
      });
      req.on('error', error =>
        finish(networkError(this.cluster, this.server, path, error)),
      );
      abortWith(req, options.signal, () => finish('aborted'));
      req.end();
    });
  }

  private deliver(
    path: string,
    line: string,
    onEvent: (event: WatchEvent) => void,
  ) {
    let event: WatchEvent;
    try {
      event = JSON.parse(line);
    } catch {
      onEvent({
        type: 'ERROR',
        object: {
          kind: 'Status',
          code: 0,
          reason: 'MalformedEvent',
          message: `watch ${path} sent a line that is not JSON: ${line.slice(
            0,
            120,
          )}`,
        },
      });
      return;
    }
    onEvent(event);
  }

  /**
   * How this request is sent: as a stream of the cluster's HTTP/2 connection ({@link Http2Connection}), or over
   * HTTP/1.1 where the server does not offer HTTP/2, the URL is plain HTTP or a proxy agent carries the requests.
   * Throws a KubernetesRequestError when the connection cannot be opened.
   */
  private async sender(
    options: https.RequestOptions,
    path: string,
  ): Promise<{
    request: (url: URL, onResponse: (res: KubeResponse) => void) => KubeRequest;
    /** The request timed out or the watch went quiet: whether the connection still answers. */
    check: () => void;
  }> {
    const connection = this.pool && options.agent === this.pool.agent ? this.pool.http2 : undefined;
    let session;
    try {
      session = await connection?.connected();
    } catch (error) {
      throw networkError(this.cluster, this.server, path, error as Error);
    }
    if (!connection || !session) {
      return {
        request: (url, onResponse) =>
          this.transport.request(url, options, res => onResponse(res as KubeResponse)),
        check: () => {},
      };
    }
    return {
      request: (url, onResponse) => connection.request(session, url, options.headers, onResponse),
      check: () => connection.check(session),
    };
  }

  private url(path: string, query: Query): URL {
    const url = new URL(this.server + path);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  /**
   * The cluster's request options (server CA, credentials, the keep-alive agent below), for requests this client
   * does not make itself (the capacity scrapes through the pod proxy). Throws a KubernetesRequestError when
   * client-node cannot prepare the credentials.
   */
  connectionOptions(): Promise<https.RequestOptions> {
    return this.requestOptions();
  }

  private async requestOptions(): Promise<https.RequestOptions> {
    const now = Date.now();
    if (this.cachedOptions && this.cachedOptions.expires > now) {
      return this.cachedOptions.options;
    }
    const options: https.RequestOptions = {};
    try {
      await this.kubeConfig.applyToHTTPSOptions(options);
    } catch (error) {
      throw new KubernetesRequestError({
        cluster: this.cluster,
        failure: 'network',
        message: `cannot prepare credentials: ${(error as Error).message}`,
      });
    }
    options.method = 'GET';
    options.headers = { ...options.headers, Accept: 'application/json' };
    options.agent = this.keepAliveAgent(options);
    this.cachedOptions = { options, expires: now + OPTIONS_TTL_MS };
    return options;
  }

  /**
   * client-node gives every call of `applyToHTTPSOptions` a new `https.Agent` without keep-alive, so each request
   * opened its own TLS connection and built its TLS context again from the CA, certificate and key: at fleet M
   * 8 % of the backend's CPU during the first sync (profile of 2026-12-03), and as much again on the API server.
   * This pool keeps connections alive and builds the TLS context once, for as long as the TLS material is the
   * same (a rotated client certificate gets a new pool). Proxy agents (the cluster's `proxyUrl`) are kept as
   * client-node made them.
   */
  private keepAliveAgent(
    options: https.RequestOptions,
  ): https.RequestOptions['agent'] {
    const agent = options.agent;
    if (this.transport === http && agent instanceof http.Agent && agent.constructor === http.Agent) {
      // A plain-HTTP server (`kubectl proxy`, the fleet simulator): client-node's agent keeps no connection alive
      // either, so each list page and GET opened a TCP connection of its own. One agent with client-node's options
      // that keeps them: the index benchmark at fleet M opened 449 connections instead of 1,457. Its sync CPU moved
      // less than from run to run on a 2-core machine (7,485 / 9,344 ms without, 8,541 / 8,360 ms with).
      this.plainAgent ??= new http.Agent({
        ...(agent as http.Agent & { options: http.AgentOptions }).options,
        keepAlive: true,
      });
      return this.plainAgent;
    }
    if (
      this.transport !== https ||
      !(agent instanceof https.Agent) ||
      agent.constructor !== https.Agent
    ) {
      return agent;
    }
    const tlsOptions = (
      agent as https.Agent & { options: tls.ConnectionOptions }
    ).options;
    const material = [
      tlsOptions.ca,
      tlsOptions.cert,
      tlsOptions.key,
      tlsOptions.pfx,
      tlsOptions.passphrase,
      tlsOptions.rejectUnauthorized,
      tlsOptions.servername,
    ];
    if (this.pool && sameMaterial(this.pool.material, material))
      return this.pool.agent;
    const previous = this.pool?.agent;
    const contextOptions = {
      ca: tlsOptions.ca,
      cert: tlsOptions.cert,
      key: tlsOptions.key,
      pfx: tlsOptions.pfx,
      passphrase: tlsOptions.passphrase,
    };
    const agentOptions: https.AgentOptions = {
      ...tlsOptions,
      keepAlive: true,
      secureContext: tls.createSecureContext(contextOptions),
    };
    const previousHttp2 = this.pool?.http2;
    this.pool = {
      agent: new https.Agent(agentOptions),
      material,
      http2: new Http2Connection(this.server, agentOptions),
    };
    previousHttp2?.close();
    // connections made with the old material: idle ones go now, busy ones (watches) when they end
    if (previous) {
      for (const sockets of Object.values(previous.freeSockets)) {
        for (const socket of sockets ?? []) socket.destroy();
      }
    }
    return this.pool.agent;
  }
}

/** The request options with another Accept header (the same agent, so the same connection). */
function withAccept(options: https.RequestOptions, accept: string | undefined): https.RequestOptions {
  if (!accept) return options;
  return { ...options, headers: { ...options.headers, Accept: accept } };
}

/** Whether two lists of TLS settings are equal (buffers by content). */
function sameMaterial(a: readonly unknown[], b: readonly unknown[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i];
      if (Buffer.isBuffer(x) && Buffer.isBuffer(y)) return x.equals(y);
      return x === y;
    })
  );
}
