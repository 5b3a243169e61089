import type {
  FluxController,
  FluxObjectRecord,
  NamespaceRecord,
  ValuePool,
  WorkloadRecord,
} from '@flux-fleet/plugin-flux-fleet-common';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { StoredEvent } from '../service/fluxEvents';

/** What a snapshot of one cluster holds: its store as read, and when each object last changed. */
export interface ClusterSnapshotData {
  format: 1;
  objects: FluxObjectRecord[];
  /** When each object last changed (ms), aligned with `objects`. */
  updatedAt: number[];
  controllers: FluxController[];
  namespaces: NamespaceRecord[];
  workloads: WorkloadRecord[];
  events: Array<[string, StoredEvent[]]>;
}

/** JSON, gzipped at the fastest level: a snapshot is written often and read rarely. */
export function encodeSnapshot(data: ClusterSnapshotData): Buffer {
  return gzipSync(JSON.stringify(data), { level: 1 });
}

/**
 * Reads a snapshot back, sharing its strings and label sets through the index's pool as freshly read objects
 * do, so a restored cluster costs the same memory as a watched one. Throws on a snapshot it cannot read.
 */
export function decodeSnapshot(data: Buffer, pool: ValuePool): ClusterSnapshotData {
  const parsed = JSON.parse(gunzipSync(data).toString('utf8')) as ClusterSnapshotData;
  if (parsed?.format !== 1 || !Array.isArray(parsed.objects)) {
    throw new Error(`snapshot format ${String(parsed?.format)} is not one this version reads`);
  }
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
  return {
    format: 1,
    objects: parsed.objects.map(o => revive(o) as FluxObjectRecord),
    updatedAt: Array.isArray(parsed.updatedAt) ? parsed.updatedAt : [],
    controllers: (parsed.controllers ?? []).map(c => revive(c) as FluxController),
    namespaces: (parsed.namespaces ?? []).map(n => revive(n) as NamespaceRecord),
    workloads: (parsed.workloads ?? []).map(w => revive(w) as WorkloadRecord),
    events: parsed.events ?? [],
  };
}
