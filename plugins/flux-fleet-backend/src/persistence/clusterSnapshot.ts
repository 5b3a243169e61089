import type {
  FluxController,
  FluxObjectRecord,
  NamespaceRecord,
  ValuePool,
} from '@flux-fleet/plugin-flux-fleet-common';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { createGzip, gunzip, gunzipSync } from 'node:zlib';
import type {
  ClusterSnapshotData,
  ClusterSnapshotSource,
  PersistedWorkload,
} from '../records/snapshotTypes';

export type { ClusterSnapshotData, ClusterSnapshotSource } from '../records/snapshotTypes';

/** About this much JSON text is written before the encoder lets other work run (a fraction of a millisecond). */
const SLICE_CHARS = 64 * 1024;

const gunzipAsync = promisify(gunzip);

/**
 * A snapshot as {@link ClusterSnapshotData} in JSON, gzipped at the fastest level (a snapshot is written often
 * and read rarely). It is made a slice at a time: each slice of text goes to zlib, which compresses on the thread
 * pool, and the encoder yields to the event loop before the next. A cluster of thousands of objects written in one
 * go held the backend for tens of milliseconds, and every cluster's at the same tick for most of a second, which
 * every request and signal waited out.
 */
export async function encodeSnapshot(source: ClusterSnapshotSource): Promise<Buffer> {
  const gzip = createGzip({ level: 1 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(gzip, 'end');
  // awaited at the end; a zlib error meanwhile must not count as an unhandled rejection
  ended.catch(() => undefined);
  let text = '';
  const flushIfFull = async () => {
    if (text.length < SLICE_CHARS) return;
    const drained = gzip.write(text);
    text = '';
    if (!drained) await once(gzip, 'drain');
    await new Promise(resolve => setImmediate(resolve));
  };
  const writeArray = async (items: readonly unknown[]) => {
    text += '[';
    for (let i = 0; i < items.length; i++) {
      // JSON.stringify writes null for what it cannot write in an array
      text += `${i === 0 ? '' : ','}${JSON.stringify(items[i]) ?? 'null'}`;
      await flushIfFull();
    }
    text += ']';
  };

  text += '{"format":1,"objects":[';
  const updatedAt: number[] = [];
  for (const key of source.keys) {
    const object = source.read(key);
    if (!object) continue;
    text += `${updatedAt.length === 0 ? '' : ','}${JSON.stringify(object.record)}`;
    updatedAt.push(object.updatedAt);
    await flushIfFull();
  }
  text += `],"updatedAt":${JSON.stringify(updatedAt)},"controllers":`;
  await writeArray(source.controllers);
  text += ',"namespaces":';
  await writeArray(source.namespaces);
  text += ',"workloads":';
  await writeArray(source.workloads);
  text += ',"events":';
  await writeArray(source.events);
  text += '}';
  gzip.end(text);
  await ended;
  return Buffer.concat(chunks);
}

/**
 * Shares a decoded value's strings and label sets through the index's pool, as freshly read objects do (snapshots
 * and deltas).
 */
export function reviver(pool: ValuePool): (value: unknown) => unknown {
  const revive = (value: unknown): unknown => {
    if (typeof value === 'string') return pool.intern(value);
    if (Array.isArray(value)) return value.map(revive);
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] =
          (k === 'labels' || k === 'annotations') && v && typeof v === 'object'
            ? pool.labels(v as Record<string, string>)
            : revive(v);
      }
      return out;
    }
    return value;
  };
  return revive;
}

/**
 * Reads a snapshot back, sharing its strings and label sets through the index's pool as freshly read objects
 * do, so a restored cluster costs the same memory as a watched one. Rejects a snapshot it cannot read.
 */
export async function decodeSnapshot(
  data: Buffer,
  pool: ValuePool,
  options: { onThisThread?: boolean } = {},
): Promise<ClusterSnapshotData> {
  // Decompressed on the thread pool, except at start: there the first snapshot waited 1.19 s behind the other
  // plugins' work on the pool (signing keys, the app's assets) while the next two took 51-77 ms, and the API
  // answers only once restored (fleet S, real backend, `make chaos`).
  const text = (options.onThisThread ? gunzipSync(data) : await gunzipAsync(data)).toString('utf8');
  const parsed = JSON.parse(text) as ClusterSnapshotData;
  if (parsed?.format !== 1 || !Array.isArray(parsed.objects)) {
    throw new Error(`snapshot format ${String(parsed?.format)} is not one this version reads`);
  }
  const revive = reviver(pool);
  return {
    format: 1,
    objects: parsed.objects.map(o => revive(o) as FluxObjectRecord),
    updatedAt: Array.isArray(parsed.updatedAt) ? parsed.updatedAt : [],
    controllers: (parsed.controllers ?? []).map(c => revive(c) as FluxController),
    namespaces: (parsed.namespaces ?? []).map(n => revive(n) as NamespaceRecord),
    workloads: (parsed.workloads ?? []).map(w => revive(w) as PersistedWorkload),
    events: parsed.events ?? [],
  };
}
