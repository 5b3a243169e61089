import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyReader, httpGetLimited, LimitedGetError } from './httpGetLimited';

describe('httpGetLimited', () => {
  let server: Server;
  let base: string;
  /** What the next request answers: status and the chunks of its body, written one by one. */
  let answer: { status: number; chunks: Buffer[] };

  beforeAll(async () => {
    server = createServer(async (_req, res) => {
      res.writeHead(answer.status, { 'Content-Type': 'text/plain' });
      for (const chunk of answer.chunks) {
        res.write(chunk);
        await new Promise(r => setImmediate(r));
      }
      res.end();
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise(r => server.close(r)));

  const get = (keepLine?: (line: string) => boolean, maxBytes = 1 << 20) =>
    httpGetLimited(new URL(`${base}/metrics`), {
      timeoutMs: 5000,
      maxBytes,
      keepLine: keepLine && ((bytes, start, end) => keepLine(bytes.toString('utf8', start, end))),
    });

  it('keeps only the accepted lines of a 200 answer, across chunks that split lines and characters', async () => {
    const text = 'keep{x="ä"} 1\ndrop 2\nkeep{x="ö"} 3\ndrop 4\nkeep 5';
    const bytes = Buffer.from(text, 'utf8');
    // split inside the two-byte 'ä' and in the middle of lines
    const cuts = [9, 10, 17, 30, bytes.length];
    answer = { status: 200, chunks: cuts.map((end, i) => bytes.subarray(i ? cuts[i - 1] : 0, end)) };
    const kept = await get(line => line.startsWith('keep'));
    expect(kept.body).toBe('keep{x="ä"} 1\nkeep{x="ö"} 3\nkeep 5\n');
    // what the server sent, not what was kept: the pod proxy spaces large answers by it
    expect(kept.bytes).toBe(bytes.length);
  });

  it('keeps the whole body of another status, for its message', async () => {
    answer = { status: 403, chunks: [Buffer.from('forbidden: pods/proxy\n')] };
    const kept = await get(() => false);
    expect(kept).toMatchObject({ status: 403, body: 'forbidden: pods/proxy\n' });
  });

  it('caps the bytes received, not the bytes kept', async () => {
    answer = { status: 200, chunks: Array.from({ length: 40 }, () => Buffer.from(`${'x'.repeat(99)}\n`)) };
    await expect(get(() => false, 2048)).rejects.toEqual(
      new LimitedGetError('too-large', 'answered more than 2 KiB'),
    );
  });

  it('keeps no view into a chunk once it is read: a chunk overwritten afterwards changes nothing kept', () => {
    // a view would keep a whole chunk's memory alive while a line waits for its end (see the reader's comment)
    const reader = bodyReader((bytes, start, end) => bytes.toString('utf8', start, end).startsWith('keep'));
    const chunks = ['keep 1\nkee', 'p{x="ä', '"} 2\ndrop 3\nkeep 4'].map(t => Buffer.from(t, 'utf8'));
    for (const chunk of chunks) {
      reader.add(chunk);
      chunk.fill(0x21);
    }
    expect(reader.text()).toBe('keep 1\nkeep{x="ä"} 2\nkeep 4\n');
  });
});
