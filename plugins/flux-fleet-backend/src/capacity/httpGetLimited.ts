import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';

/** Why a {@link httpGetLimited} request failed. */
export type LimitedGetFailure = 'timeout' | 'too-large' | 'network' | 'aborted';

/** A failed {@link httpGetLimited} request; the message says what happened, never what credentials were sent. */
export class LimitedGetError extends Error {
  constructor(readonly failure: LimitedGetFailure, message: string) {
    super(message);
    this.name = 'LimitedGetError';
  }
}

/** The answer of {@link httpGetLimited}: any status, its body as text. */
export interface LimitedGetAnswer {
  status: number;
  contentType?: string;
  body: string;
}

/** Limits of one request. */
export interface LimitedGetOptions {
  /** The whole request, body included, must be done within this many milliseconds. */
  timeoutMs: number;
  /** A body longer than this many bytes is refused while it streams, never held whole. */
  maxBytes: number;
  /** Agent, TLS and header options (a cluster's credentials from client-node's `applyToHTTPSOptions`). */
  requestOptions?: https.RequestOptions;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Of a 200 answer, keep only the lines this accepts (read while the body streams, so the rest is never held);
   * `maxBytes` still caps the bytes received. Other statuses keep their whole body for the error message.
   */
  keepLine?: (line: string) => boolean;
}

const formatBytes = (n: number) =>
  n >= 1024 * 1024
    ? `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB`
    : `${Math.round(n / 1024)} KiB`;

/**
 * GETs a URL with a deadline over the whole exchange (a metrics endpoint that answers the headers and then hangs
 * mid-body fails too) and a cap on the body, checked while it streams (a `Content-Length` over the cap fails at
 * once). Metrics are read rarely and small, so this is separate from the watch layer's client.
 */
export function httpGetLimited(
  url: URL,
  options: LimitedGetOptions,
): Promise<LimitedGetAnswer> {
  const transport = url.protocol === 'http:' ? http : https;
  const base = options.requestOptions ?? {};
  return new Promise((resolve, reject) => {
    let settled = false;
    let req: http.ClientRequest | undefined = undefined;
    let deadline: NodeJS.Timeout | undefined = undefined;
    function onAbort() {
      // eslint-disable-next-line @typescript-eslint/no-use-before-define
      finish(new LimitedGetError('aborted', 'was cancelled'));
    }
    const finish = (outcome: LimitedGetAnswer | LimitedGetError) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
      if (outcome instanceof LimitedGetError) {
        req?.destroy();
        reject(outcome);
      } else resolve(outcome);
    };
    const tooLarge = () =>
      new LimitedGetError(
        'too-large',
        `answered more than ${formatBytes(options.maxBytes)}`,
      );
    deadline = setTimeout(
      () =>
        finish(
          new LimitedGetError(
            'timeout',
            `did not answer within ${options.timeoutMs / 1000} s`,
          ),
        ),
      options.timeoutMs,
    );
    req = transport.request(
      url,
      {
        ...base,
        method: 'GET',
        headers: { ...base.headers, ...options.headers },
      },
      res => {
        const declared = Number(res.headers['content-length']);
        if (declared > options.maxBytes) {
          finish(tooLarge());
          return;
        }
        const body = bodyReader(
          res.statusCode === 200 ? options.keepLine : undefined,
        );
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) finish(tooLarge());
          else body.add(chunk);
        });
        res.on('error', error =>
          finish(new LimitedGetError('network', `broke off: ${error.message}`)),
        );
        res.on('end', () =>
          finish({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            body: body.text(),
          }),
        );
      },
    );
    req.on('error', error => {
      const code = (error as NodeJS.ErrnoException).code;
      finish(
        new LimitedGetError(
          'network',
          `cannot be reached: ${
            code && !error.message.includes(code) ? `${code} ` : ''
          }${error.message}`,
        ),
      );
    });
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    req.end();
  });
}

/** Gathers a body: whole, or only the lines `keepLine` accepts, each with its newline. */
function bodyReader(keepLine?: (line: string) => boolean): {
  add(chunk: Buffer): void;
  text(): string;
} {
  if (!keepLine) {
    const chunks: Buffer[] = [];
    return {
      add: chunk => chunks.push(chunk),
      text: () => Buffer.concat(chunks).toString('utf8'),
    };
  }
  const decoder = new StringDecoder('utf8');
  const kept: string[] = [];
  let rest = '';
  const take = (text: string, final: boolean) => {
    let from = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', from)) {
      const line = text.slice(from, end);
      if (keepLine(line)) kept.push(line);
      from = end + 1;
    }
    rest = text.slice(from);
    if (final && rest && keepLine(rest)) kept.push(rest);
  };
  return {
    add: chunk => take(rest + decoder.write(chunk), false),
    text: () => {
      take(rest + decoder.end(), true);
      return kept.length > 0 ? `${kept.join('\n')}\n` : '';
    },
  };
}
