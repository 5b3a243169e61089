import { ListBodyReader } from './ListBodyReader';

/** Reads a body cut into chunks at the given positions; returns the items handed over and what surrounds them. */
function read(body: string | Buffer, cuts: number[] = []) {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const items: unknown[] = [];
  const reader = new ListBodyReader(item => items.push(item));
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.write(bytes.subarray(start, cut));
    start = cut;
  }
  return { items, rest: reader.end(), count: reader.itemCount };
}

const tricky = {
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: {
    name: 'payments-api',
    namespace: 'team-payments',
    labels: { 'app.kubernetes.io/name': 'pay]ments{', items: '[]' },
    annotations: { note: 'a "quoted" \\ back\\slash, a \\" pair, }]{[ and ünïcödé — ✓' },
  },
  spec: { items: [{ a: 1 }, [2, [3]]], path: './apps\\', interval: '10m' },
  status: { conditions: [{ type: 'Ready', status: 'True', message: 'Applied revision: main@sha1:4f1c' }] },
};

const list = {
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'KustomizationList',
  metadata: { resourceVersion: '918273', continue: 'eyJydiI6MX0' },
  items: [tricky, { ...tricky, metadata: { ...tricky.metadata, name: 'second' } }, { kind: 'Kustomization' }],
};

describe('ListBodyReader', () => {
  it('hands over each item parsed on its own and returns the metadata with items left out', () => {
    const { items, rest, count } = read(JSON.stringify(list));
    expect(items).toEqual(list.items);
    expect(count).toBe(3);
    expect(rest).toEqual({ ...list, items: [] });
  });

  it('reads the same whatever the chunks, even when a chunk ends inside a string, an escape or a character', () => {
    const body = Buffer.from(JSON.stringify(list, null, 1), 'utf8');
    for (let cut = 1; cut < body.length; cut++) {
      const { items, rest } = read(body, [cut]);
      expect({ cut, items }).toEqual({ cut, items: list.items });
      expect(rest).toEqual({ ...list, items: [] });
    }
    const everyByte = Array.from({ length: body.length - 1 }, (_, i) => i + 1);
    expect(read(body, everyByte).items).toEqual(list.items);
  });

  it('hands over items that are not objects, and nothing for an empty list', () => {
    expect(read('{"kind":"List","items":[1, "two", null, [3], {"x":"]"} ]}').items).toEqual([
      1,
      'two',
      null,
      [3],
      { x: ']' },
    ]);
    const empty = read('{"kind":"KustomizationList","metadata":{},"items":[]}');
    expect(empty.items).toEqual([]);
    expect(empty.rest).toEqual({ kind: 'KustomizationList', metadata: {}, items: [] });
  });

  it('returns a body that is not a list as it is (a Status, items that are not an array)', () => {
    const status = { kind: 'Status', status: 'Failure', code: 410, details: { items: [1] } };
    expect(read(JSON.stringify(status))).toEqual({ items: [], rest: status, count: 0 });
    expect(read('{"items":null,"metadata":{}}').rest).toEqual({ items: null, metadata: {} });
  });

  it('leaves items whose key is spelt with escapes in what it returns, for the caller to read', () => {
    const { items, rest } = read('{"it\\u0065ms":[{"a":1}]}');
    expect(items).toEqual([]);
    expect(rest).toEqual({ items: [{ a: 1 }] });
  });

  it('fails on a body that is not JSON or ends too soon, after the items it could read', () => {
    expect(() => read('<html>not json</html>')).toThrow(SyntaxError);
    const body = JSON.stringify(list);
    const truncated = body.slice(0, body.lastIndexOf('{"kind":"Kustomization"}') + 5);
    const items: unknown[] = [];
    const reader = new ListBodyReader(item => items.push(item));
    reader.write(Buffer.from(truncated));
    expect(() => reader.end()).toThrow('the body ends before its JSON does');
    expect(items).toEqual(list.items.slice(0, 2));
    expect(() => read('{"items":[{"a":1},{"b":}]}')).toThrow(SyntaxError);
  });
});
