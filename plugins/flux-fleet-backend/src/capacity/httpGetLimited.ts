import http from 'node:http';
import https from 'node:https';

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
  /** Bytes of the body received, before `keepLine` dropped any. */
  bytes: number;
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
   * Of a 200 answer, keep only the lines this accepts, given as the bytes from `start` to `end` (without the
   * newline) of a buffer it must not keep: read while the body streams, so the rest is never held, nor even
   * decoded as text. `maxBytes` still caps the bytes received. Other statuses keep their whole body for the error
   * message.
   */
  keepLine?: (bytes: Buffer, start: number, end: number) => boolean;
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
            bytes: size,
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

/**
 * Gathers a body: whole, or only the lines `keepLine` accepts, each with its newline. Keeps no view into a chunk
 * it was given once `add` returns (the lines it keeps, and a line still waiting for its end, are copies).
 */
export function bodyReader(keepLine?: LimitedGetOptions['keepLine']): {
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
  // Lines are found and judged as bytes, and only kept ones are decoded (whole, so a character split between
  // chunks is decoded once both halves are there): at fleet L a capacity round is 1.7 GB of metrics, nearly all of
  // it lines capacity drops.
  const kept: string[] = [];
  /**
   * The start of a line whose end has not arrived yet (joined when its newline comes), copied out of its chunk as
   * one-byte text (`latin1` keeps every byte as it is): a view into the chunk would keep the whole chunk (up to
   * 64 KB, memory outside V8's heap) alive until the next one arrives, and while 8 scrapes share a busy thread
   * that is often long enough for the chunk to be promoted to V8's old generation, where its memory waits for a
   * full collection. At fleet L those chunks started every full collection at rest ("external memory pressure",
   * `--trace-incremental-marking`, 2026-12-05): one every 3-9 s, each 1.3-2.2 s of marking on the main thread.
   */
  let partial = '';
  const judge = (bytes: Buffer, start: number, end: number) => {
    if (keepLine(bytes, start, end)) kept.push(bytes.toString('utf8', start, end));
  };
  /** Judges the partial line, ended by `tail` (the start of a chunk, up to its newline) or by the body's end. */
  const endPartial = (tail?: Buffer) => {
    const line = Buffer.from(tail ? partial + tail.toString('latin1') : partial, 'latin1');
    partial = '';
    judge(line, 0, line.length);
  };
  return {
    add: chunk => {
      let from = 0;
      let end = chunk.indexOf(0x0a);
      if (partial.length > 0) {
        if (end < 0) {
          partial += chunk.toString('latin1');
          return;
        }
        endPartial(chunk.subarray(0, end));
        from = end + 1;
        end = chunk.indexOf(0x0a, from);
      }
      for (; end >= 0; end = chunk.indexOf(0x0a, from)) {
        judge(chunk, from, end);
        from = end + 1;
      }
      if (from < chunk.length) partial = chunk.toString('latin1', from);
    },
    text: () => {
      if (partial.length > 0) endPartial();
      return kept.length > 0 ? `${kept.join('\n')}\n` : '';
    },
  };
}
