import { MiddlewareFactory } from '@backstage/backend-defaults/rootHttpRouter';
import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import express from 'express';
import { once } from 'node:events';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { MAX_GZIP_BYTES, MIN_GZIP_BYTES, sendJson } from './sendJson';

/** An app with Backstage's own compression middleware in front, as the backend's root router has it. */
function appSending(body: string) {
  const middleware = MiddlewareFactory.create({
    config: new ConfigReader({}),
    logger: mockServices.logger.mock(),
  });
  const app = express();
  app.use(middleware.compression());
  // as CORS does for a request with an Origin
  app.use((_req, res, next) => {
    res.vary('Origin');
    next();
  });
  app.get('/answer', (req, res) => sendJson(req, res, body));
  return app;
}

/** The status, headers and raw bytes of an answer (node's http: no client decodes or adds headers). */
async function rawAnswer(app: express.Express, acceptEncoding?: string) {
  const server = app.listen(0);
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      get(
        {
          port,
          path: '/answer',
          headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding },
        },
        resolve,
      ).on('error', reject),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return { res, bytes: Buffer.concat(chunks) };
  } finally {
    server.close();
  }
}

const large = JSON.stringify({
  items: Array.from({ length: 200 }, (_, i) => ({ name: `podinfo-${i}`, state: 'ready' })),
});

describe('sendJson', () => {
  it.each([
    ['a browser', 'gzip, deflate, br, zstd'],
    ["node's fetch", 'gzip, deflate'],
  ])('gzips a long answer for %s, once, and says the answer varies with Accept-Encoding', async (_, accept) => {
    const { res, bytes } = await rawAnswer(appSending(large), accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Origin, Accept-Encoding');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    // gzipped once: the middleware left it alone, so one gunzip gives the JSON back
    expect(JSON.parse(gunzipSync(bytes).toString('utf8'))).toEqual(JSON.parse(large));
    expect(bytes.length).toBeLessThan(large.length / 4);
  });

  it.each([
    ['no Accept-Encoding', undefined],
    ['identity only', 'identity'],
  ])('sends a long answer as it is with %s', async (_, accept) => {
    const { res, bytes } = await rawAnswer(appSending(large), accept);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(bytes.toString('utf8')).toBe(large);
    expect(Number(res.headers['content-length'])).toBe(large.length);
  });

  it.each([
    ['gzip refused', 'gzip;q=0, deflate', 'deflate'],
    ['brotli only', 'br', 'br'],
  ])('leaves a long answer to the middleware with %s', async (_, accept, encoding) => {
    const { res, bytes } = await rawAnswer(appSending(large), accept);
    expect(res.headers['content-encoding']).toBe(encoding);
    const decoded = encoding === 'br' ? brotliDecompressSync(bytes) : inflateSync(bytes);
    expect(decoded.toString('utf8')).toBe(large);
  });

  it('leaves an answer over a MiB to the middleware, which gzips it on the thread pool', async () => {
    const huge = JSON.stringify({
      items: Array.from({ length: 50_000 }, (_, i) => ({ name: `podinfo-${i}`, state: 'ready' })),
    });
    expect(huge.length).toBeGreaterThan(MAX_GZIP_BYTES);
    const { res, bytes } = await rawAnswer(appSending(huge), 'gzip, deflate');
    expect(res.headers['content-encoding']).toBe('gzip');
    // the middleware streams it: no Content-Length, as it cannot know the gzipped length ahead
    expect(res.headers['content-length']).toBeUndefined();
    expect(gunzipSync(bytes).toString('utf8')).toBe(huge);
  });

  it('sends a short answer as it is, even to a caller that accepts gzip', async () => {
    const short = JSON.stringify({ items: [] });
    expect(short.length).toBeLessThan(MIN_GZIP_BYTES);
    const { res, bytes } = await rawAnswer(appSending(short), 'gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(bytes.toString('utf8')).toBe(short);
  });
});
