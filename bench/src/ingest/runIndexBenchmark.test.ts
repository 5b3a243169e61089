import { lastJsonDocument, readIndexFigures } from './runIndexBenchmark';

describe('reading the index benchmark', () => {
  const output = [
    'warn: cluster prod-eu-west-1 is slow',
    '{',
    '  "fleet": "S",',
    '  "clusters": 3,',
    '  "lists": { "pageSize": 500, "concurrentLists": 12 },',
    '  "syncMs": 760,',
    '  "memory": { "objects": 2155, "rssBytesPerObject": 19946, "heapBytesPerObject": 3226 }',
    '}',
    'fleet-sim: SIGTERM, stopping',
    '',
  ].join('\n');

  it('takes the figures from the JSON the benchmark prints among its log lines', () => {
    expect(readIndexFigures(lastJsonDocument(output))).toMatchObject({
      clusters: 3,
      syncMs: 760,
      fluxObjects: 2155,
      rssBytesPerObject: 19946,
      heapBytesPerObject: 3226,
      concurrentLists: 12,
      pageSize: 500,
    });
  });

  it('names the figures a changed benchmark no longer prints', () => {
    expect(() => readIndexFigures({ clusters: 3, memory: {} })).toThrow(
      "the index benchmark's output lacks syncMs, fluxObjects, rssBytesPerObject, heapBytesPerObject, concurrentLists, pageSize",
    );
    expect(() => lastJsonDocument('no figures\n')).toThrow('no JSON document');
  });
});
