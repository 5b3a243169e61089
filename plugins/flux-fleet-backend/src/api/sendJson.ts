import type express from 'express';
import { constants, gzipSync } from 'node:zlib';

/** Answers shorter than this go as they are, as with Backstage's compression middleware (its threshold). */
export const MIN_GZIP_BYTES = 1024;

/**
 * Answers longer than this are left to the middleware, which compresses on the thread pool: gzip here would hold the
 * event loop about 6 ms a MiB (a 6.1 MB entity view: 35 ms on a loaded machine, 2026-12-07), where a few turns of
 * the loop cost less. A page of 100 objects is about 140 KB; pages of 1,000 and the largest entity views go over.
 */
export const MAX_GZIP_BYTES = 1024 * 1024;

/**
 * zlib's fastest level. An entity's view at fleet L (189 KB, 2026-12-07): 0.25 ms and 16.7 KB at level 1, 0.8 ms
 * and 11.2 KB at the middleware's level 6.
 */
const GZIP_LEVEL = constants.Z_BEST_SPEED;

/**
 * Sends JSON bytes, gzipped here, on the spot, when the caller accepts gzip and the answer is between
 * {@link MIN_GZIP_BYTES} and {@link MAX_GZIP_BYTES}.
 *
 * Why not leave it to Backstage's compression middleware: it compresses through a zlib stream on the thread pool
 * and gets the bytes back over several turns of the event loop, and at fleet L each turn waits behind the index's
 * own work (500 status changes a second, analyses). One entity's view at L shortly after the first sync
 * (2026-12-07, curl, 30 views each): p50 16.4 ms gzipped by the middleware, 5.6 ms not gzipped at all. Gzipped
 * here it costs the loop 0.25 ms. The middleware leaves an answer alone once it has a `Content-Encoding`.
 */
export function sendJson(req: express.Request, res: express.Response, body: Buffer | string): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // the answer depends on the header even when it was not gzipped, for caches in between (added to what the
  // middleware before set, such as CORS's `Vary: Origin`)
  res.vary('Accept-Encoding');
  if (
    bytes.length >= MIN_GZIP_BYTES &&
    bytes.length <= MAX_GZIP_BYTES &&
    req.acceptsEncodings('gzip', 'identity') === 'gzip'
  ) {
    const gzipped = gzipSync(bytes, { level: GZIP_LEVEL });
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', gzipped.length);
    res.end(gzipped);
    return;
  }
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

/**
 * Sends a value as JSON (see {@link sendJson}). Not `res.json`: express would hash every body for an ETag (a SHA-1
 * over up to hundreds of KiB per entity view, 7 % of the route's time at fleet M), and an ETag rarely saves
 * anything here — pages ask again because a signal said the answer changed. Encoded once to bytes: text given to
 * `res.end` is measured for `Content-Length` and then encoded by Node, two passes over it.
 */
export function sendValue(req: express.Request, res: express.Response, value: unknown): void {
  sendJson(req, res, JSON.stringify(value));
}
