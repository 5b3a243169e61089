import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonText, sendJsonText } from './jsonText';

describe('sendJsonText', () => {
  let server: Server;
  let next: JsonText;
  let base: string;
  beforeAll(async () => {
    server = createServer((_req, res) => sendJsonText(res, 200, next, 'application/json'));
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>(r => server.close(() => r())));

  /** A list of `n` objects with non-ASCII names, as parts. */
  function list(n: number, tag: string): { text: JsonText; json: unknown } {
    const items = Array.from({ length: n }, (_, i) => ({ metadata: { name: `${tag}-ü-${i}`, pad: 'x'.repeat(400) } }));
    const parts = ['{"items":['];
    items.forEach((item, i) => parts.push(i > 0 ? ',' : '', JSON.stringify(item)));
    parts.push(']}');
    return { text: new JsonText(parts), json: { items } };
  }

  it.each([
    ['a small answer, in a Buffer of its own', 3],
    ['a large page, through the pool', 2_000],
  ])('sends %s whole, with its length in bytes', async (_name, n) => {
    const { text, json } = list(n, 'a');
    next = text;
    const response = await fetch(base);
    const body = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toEqual(json);
  });

  it('sends a second large page right after the first, each with its own content', async () => {
    for (const tag of ['first', 'second', 'third']) {
      const { text, json } = list(2_000, tag);
      next = text;
      expect(await (await fetch(base)).json()).toEqual(json);
    }
  });
});
