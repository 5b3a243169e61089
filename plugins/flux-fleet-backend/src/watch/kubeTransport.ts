import type { IncomingHttpHeaders } from 'node:http';
import http2 from 'node:http2';
import type https from 'node:https';
import type { Readable } from 'node:stream';

/** A request to an API server, over HTTP/1.1 (`http.ClientRequest`) or HTTP/2 (a stream of the connection). */
export interface KubeRequest {
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  destroy(): void;
  end(): void;
}

/** Its response: the status, the headers (lower case) and the body as a stream. */
export type KubeResponse = Readable & {
  statusCode?: number;
  headers: IncomingHttpHeaders;
};

/**
 * Flow-control windows of the HTTP/2 connection: the first list of a large cluster is many megabytes, and with the
 * protocol's default of 64 KiB a connection to a distant API server would carry a window per round trip. client-go
 * (Go's HTTP/2 transport) opens 4 MiB per stream and 1 GiB per connection; these are the same per stream and a
 * bound per connection that holds a few pages of lists in flight at once.
 */
const STREAM_WINDOW_BYTES = 4 * 2 ** 20;
const CONNECTION_WINDOW_BYTES = 32 * 2 ** 20;
/** A connection whose requests stop answering is asked for a ping; no answer within this, and it is closed. */
const PING_TIMEOUT_MS = 10_000;

/**
 * The TLS alert of a server that offers ALPN without HTTP/2 (Go's and Node's HTTP/1.1-only servers): "this server
 * does not speak HTTP/2" rather than "this server cannot be reached".
 */
const NO_HTTP2_ALERT = 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL';

/**
 * One HTTP/2 connection to a cluster's API server, carrying every list, watch and GET of the cluster as streams,
 * as client-go does: a cluster's 21 watches held 21 TLS connections over HTTP/1.1, and each TLS connection costs
 * about 135 KB of memory outside the JavaScript heap (OpenSSL's state and Node's TLS buffers; heaptrack of the
 * product at fleet M on 2026-12-05: 68 MB for its 500 connections), so about 280 MB at fleet L's 100 clusters, and
 * as many connections on every API server. A server that does not offer HTTP/2 (ALPN) is spoken to over HTTP/1.1
 * from then on.
 */
export class Http2Connection {
  private current?: {
    session: http2.ClientHttp2Session;
    /** Resolves once it is open (undefined: the server refused HTTP/2); rejects when it could not be opened. */
    ready: Promise<http2.ClientHttp2Session | undefined>;
  };
  /** Set once the server refused HTTP/2. */
  private refused = false;

  constructor(
    private readonly server: string,
    private readonly tlsOptions: https.AgentOptions,
  ) {}

  /**
   * The connection, opened (and waited for) when there is none. Undefined when the server does not offer HTTP/2.
   * Throws when the server cannot be reached.
   */
  async connected(): Promise<http2.ClientHttp2Session | undefined> {
    if (this.refused) return undefined;
    if (!this.current || this.current.session.closed || this.current.session.destroyed) {
      this.current = this.open();
    }
    return this.current.ready;
  }

  private open(): { session: http2.ClientHttp2Session; ready: Promise<http2.ClientHttp2Session | undefined> } {
    const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername, secureContext } =
      this.tlsOptions;
    const session = http2.connect(this.server, {
      ca,
      cert,
      key,
      pfx,
      passphrase,
      rejectUnauthorized,
      servername,
      secureContext,
      settings: { initialWindowSize: STREAM_WINDOW_BYTES },
      // lists stream in faster than a busy event loop takes them at times; the default (10 MB) would end the
      // connection with ENHANCE_YOUR_CALM
      maxSessionMemory: 64,
    });
    // one promise for every request waiting while the connection opens
    const ready = new Promise<http2.ClientHttp2Session | undefined>((resolve, reject) => {
      let connected = false;
      session.once('connect', (_session, socket) => {
        connected = true;
        if ((socket as { alpnProtocol?: string | false }).alpnProtocol !== 'h2') {
          // a TLS server without ALPN (some proxies): Node would speak HTTP/2 to it regardless
          this.refused = true;
          session.destroy();
          resolve(undefined);
          return;
        }
        session.setLocalWindowSize(CONNECTION_WINDOW_BYTES);
        resolve(session);
      });
      session.on('error', (error: NodeJS.ErrnoException) => {
        if (connected) return; // the streams fail with it
        if (error.code === NO_HTTP2_ALERT) {
          this.refused = true;
          resolve(undefined);
        } else reject(error);
      });
    });
    ready.catch(() => {}); // the requests waiting for it are told; nobody else needs to be
    const forget = () => {
      if (this.current?.session === session) this.current = undefined;
    };
    session.on('close', forget);
    // the server is going away (a restart): new requests on a new connection, the open ones end on this
    session.on('goaway', forget);
    // open watches must not keep a stopping process alive
    session.unref();
    return { session, ready };
  }

  /** Sends a GET on the connection. */
  request(
    session: http2.ClientHttp2Session,
    url: URL,
    headers: https.RequestOptions['headers'],
    onResponse: (res: KubeResponse) => void,
  ): KubeRequest {
    const outgoing: http2.OutgoingHttpHeaders = {
      ':method': 'GET',
      ':path': `${url.pathname}${url.search}`,
    };
    for (const [name, value] of Object.entries(headers ?? {})) {
      const lower = name.toLowerCase();
      // HTTP/1.1 connection headers are not allowed in HTTP/2
      if (lower === 'host' || lower === 'connection' || lower === 'keep-alive') continue;
      if (value !== undefined) outgoing[lower] = value as string | string[];
    }
    const stream = session.request(outgoing, { endStream: true });
    stream.on('response', responseHeaders => {
      const res = stream as unknown as KubeResponse;
      res.statusCode = Number(responseHeaders[':status']);
      res.headers = responseHeaders as IncomingHttpHeaders;
      onResponse(res);
    });
    return {
      on: (event: 'error' | 'close', listener: (error: Error) => void) =>
        stream.on(event, listener),
      destroy: () => stream.destroy(),
      // the GET ended with its headers
      end: () => {},
    };
  }

  /**
   * A request on the connection timed out or a watch went quiet: asks the server for a ping, and closes the
   * connection when none comes back (a connection broken without a reset would otherwise take every later request
   * of the cluster down with it).
   */
  check(session: http2.ClientHttp2Session): void {
    if (session.destroyed || session.closed) return;
    const timer = setTimeout(
      () => session.destroy(new Error(`no answer to a ping within ${PING_TIMEOUT_MS / 1000} s`)),
      PING_TIMEOUT_MS,
    );
    timer.unref();
    const sent = session.ping(error => {
      clearTimeout(timer);
      if (error && !session.destroyed) session.destroy(error);
    });
    if (!sent) clearTimeout(timer);
  }

  /** Closes the connection once its open requests end (the TLS material changed). */
  close(): void {
    this.current?.session.close();
    this.current = undefined;
  }
}
