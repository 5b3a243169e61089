import { ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import { gunzipSync, gzipSync } from 'node:zlib';
import { snapshotSourceOf } from '../__testUtils__/snapshotSource';
import { ClusterSnapshotData, decodeSnapshot, encodeSnapshot } from './clusterSnapshot';

/** A snapshot of `count` objects, with the odd values a store can hold. */
function snapshotOf(count: number): ClusterSnapshotData {
  const objects = Array.from({ length: count }, (_, i) => ({
    key: `prod/team-${i % 7}/Kustomization/app-${i}`,
    cluster: 'prod',
    namespace: `team-${i % 7}`,
    kind: 'Kustomization',
    name: `app-${i}`,
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    labels: { 'backstage.io/kubernetes-id': `app-${i % 50}`, 'toolkit.fluxcd.io/tenant': 'ünïcode "quoted"\n' },
    generation: i,
    ready:
      i % 3 === 0
        ? { status: 'True', reason: 'ReconciliationSucceeded', message: `Applied revision: main@sha1:${i}` }
        : undefined,
    inventoryCount: i % 11,
  }));
  return {
    format: 1,
    objects: objects as unknown as ClusterSnapshotData['objects'],
    updatedAt: objects.map((_, i) => 1_700_000_000_000 + i),
    controllers: [],
    namespaces: [{ cluster: 'prod', name: 'team-1', labels: { 'toolkit.fluxcd.io/tenant': 'payments' } }],
    workloads: [],
    events: [['prod/team-1/Kustomization/app-1', []]],
  };
}

const text = (encoded: Buffer) => gunzipSync(encoded).toString('utf8');

describe('cluster snapshots', () => {
  it('are the gzipped JSON of the cluster’s store, whatever its size', async () => {
    for (const count of [0, 1, 5_000]) {
      const data = snapshotOf(count);
      expect(text(await encodeSnapshot(snapshotSourceOf(data)))).toBe(JSON.stringify(data));
    }
  });

  it('read back equal to what was written', async () => {
    const data = snapshotOf(3);
    const decoded = await decodeSnapshot(await encodeSnapshot(snapshotSourceOf(data)), new ValuePool());
    expect(decoded).toEqual(JSON.parse(JSON.stringify(data)));
  });

  it('hold each object as it is when written: one deleted meanwhile is left out, its time with it', async () => {
    const data = snapshotOf(4);
    const source = snapshotSourceOf(data);
    const gone = data.objects[1].key;
    const decoded = await decodeSnapshot(
      await encodeSnapshot({ ...source, read: key => (key === gone ? undefined : source.read(key)) }),
      new ValuePool(),
    );
    expect(decoded.objects.map(o => o.key)).toEqual(data.objects.filter(o => o.key !== gone).map(o => o.key));
    expect(decoded.updatedAt).toEqual([data.updatedAt[0], data.updatedAt[2], data.updatedAt[3]]);
  });

  it('read objects and let other work run a slice at a time while a large cluster is written', async () => {
    const data = snapshotOf(20_000);
    const source = snapshotSourceOf(data);
    // turns of the event loop while the encoder works, and objects read by then
    let turns = 0;
    let encoding = true;
    const readAtTurn: number[] = [];
    let read = 0;
    const turn = () => {
      turns++;
      readAtTurn.push(read);
      if (encoding) setImmediate(turn);
    };
    setImmediate(turn);
    const encoded = await encodeSnapshot({
      ...source,
      read: key => {
        read++;
        return source.read(key);
      },
    });
    encoding = false;
    // megabytes of JSON: dozens of slices, and the objects read along, not all before the first
    expect(JSON.stringify(data).length).toBeGreaterThan(5_000_000);
    expect(turns).toBeGreaterThan(50);
    expect(readAtTurn[1]).toBeLessThan(1_000);
    expect(text(encoded)).toBe(JSON.stringify(data));
  });

  it('that are not gzipped JSON of the known format are refused', async () => {
    await expect(decodeSnapshot(Buffer.from('not gzip'), new ValuePool())).rejects.toThrow();
    const wrongFormat = Buffer.from(
      text(await encodeSnapshot(snapshotSourceOf(snapshotOf(1)))).replace('"format":1', '"format":2'),
    );
    await expect(decodeSnapshot(gzipSync(wrongFormat), new ValuePool())).rejects.toThrow(
      'snapshot format 2 is not one this version reads',
    );
  });
});
