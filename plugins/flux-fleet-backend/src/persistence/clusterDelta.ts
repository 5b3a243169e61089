import type {
  FluxController,
  FluxObjectRecord,
  NamespaceRecord,
  ValuePool,
} from '@flux-fleet/plugin-flux-fleet-common';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { ClusterDeltaData } from '../records/clusterDeltaTypes';
import type { PersistedWorkload } from '../records/snapshotTypes';
import { reviver } from './clusterSnapshot';

export type { ClusterDeltaData } from '../records/clusterDeltaTypes';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A delta as gzipped JSON (compressed on the thread pool; a delta holds a batch of changes, not a cluster). */
export async function encodeDelta(delta: ClusterDeltaData): Promise<Buffer> {
  return gzipAsync(JSON.stringify(delta), { level: 1 });
}

/** Reads a delta back, sharing its strings through the index's pool; rejects one it cannot read. */
export async function decodeDelta(data: Buffer, pool: ValuePool): Promise<ClusterDeltaData> {
  const parsed = JSON.parse((await gunzipAsync(data)).toString('utf8')) as ClusterDeltaData;
  if (parsed?.format !== 1 || !Array.isArray(parsed.objects) || !Array.isArray(parsed.removed)) {
    throw new Error(`delta format ${String(parsed?.format)} is not one this version reads`);
  }
  const revive = reviver(pool);
  return {
    format: 1,
    objects: parsed.objects.map(o => revive(o) as FluxObjectRecord),
    updatedAt: Array.isArray(parsed.updatedAt) ? parsed.updatedAt : [],
    removed: parsed.removed.filter(k => typeof k === 'string'),
    events: Array.isArray(parsed.events) ? parsed.events : [],
    ...(parsed.controllers && {
      controllers: parsed.controllers.map(c => revive(c) as FluxController),
    }),
    ...(parsed.namespaces && {
      namespaces: parsed.namespaces.map(n => revive(n) as NamespaceRecord),
    }),
    ...(parsed.workloads && {
      workloads: parsed.workloads.map(w => revive(w) as PersistedWorkload),
    }),
    health: parsed.health,
  };
}
