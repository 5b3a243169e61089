/*
 * Heap that the packed records of one generated cluster take, per object: the simulator's generator builds the
 * objects a cluster of a fleet size serves (no server), each is normalised and packed as the index does, and
 * only the packed columns (and the pool the normaliser shares values through) are kept. A quick figure for a
 * change of the record layout, without the minutes a synced fleet takes.
 *
 *   node --expose-gc --require @backstage/cli/config/nodeTransform.cjs bench/packedMemory.ts [--size M]
 */
import { normalizeFluxObject, ValuePool } from '@flux-fleet/plugin-flux-fleet-common';
import { generateFleet, resolveOptions } from '@flux-fleet/fleet-sim';
import { RecordTable } from '../src/records/RecordTable';

const size = (process.argv[process.argv.indexOf('--size') + 1] ?? 'M') as 'S' | 'M' | 'L';
const gc = (globalThis as { gc?: () => void }).gc;

function heapUsed(): number {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage().heapUsed;
}

const [cluster] = generateFleet(resolveOptions({ size, seed: 1, clusters: 1 }));

/** Every Flux object the cluster serves, parsed (a fresh copy each time, as a list page gives them). */
function* servedObjects() {
  for (const served of cluster.served) {
    if (!served.type.flux) continue;
    const apiVersion = `${served.type.group}/${served.versions[0]}`;
    for (const stored of cluster.store.table(served.type).objects.values()) {
      const raw = { apiVersion, kind: served.type.kind, ...JSON.parse(stored.body) };
      yield { raw, kind: served.type.kind, apiVersion };
    }
  }
}

// once through, so that what the generator builds lazily is not counted
for (const served of servedObjects()) if (!served.raw) throw new Error('an empty object');
const before = heapUsed();
// the index's pool, as FleetClusters makes it
const pool = new ValuePool(50_000);
const table = new RecordTable();
let objects = 0;
for (const { raw, kind, apiVersion } of servedObjects()) {
  const { record } = normalizeFluxObject(cluster.name, raw, { kind, apiVersion, pool });
  if (!record) continue;
  table.set(record);
  objects++;
}
const after = heapUsed();
let messageChars = 0;
for (const slot of table.existingSlots()) messageChars += table.readyMessageAt(slot)?.length ?? 0;
process.stdout.write(
  `${JSON.stringify({
    size,
    objects,
    heapBytesPerObject: Math.round((after - before) / objects),
    readyMessageCharsPerObject: Math.round(messageChars / objects),
  })}\n`,
);
