import {
  FluxObjectRecord,
  normalizeFluxObject,
  ValuePool,
} from '@flux-fleet/plugin-flux-fleet-common';
import { generateFleet, resolveOptions } from '@flux-fleet/fleet-sim';
import { kustomization } from '../../__testUtils__/fluxFixtures';
import { readRecordBatch, RECORD_FIELD_NAMES, RecordBatchWriter } from './recordBatch';

/** Every Flux object of one generated cluster, as a list page gives them. */
function generatedObjects(): Array<{ raw: unknown; kind: string; apiVersion: string }> {
  const [cluster] = generateFleet(resolveOptions({ size: 'S', seed: 3, clusters: 1 }));
  const objects: Array<{ raw: unknown; kind: string; apiVersion: string }> = [];
  for (const served of cluster.served) {
    if (!served.type.flux) continue;
    const apiVersion = `${served.type.group}/${served.versions[0]}`;
    for (const stored of cluster.store.table(served.type).objects.values()) {
      objects.push({ raw: { apiVersion, kind: served.type.kind, ...JSON.parse(stored.body) }, kind: served.type.kind, apiVersion });
    }
  }
  return objects;
}

/** A batch as the worker writes it, through structured cloning as a message between threads carries it. */
function throughWorker(records: FluxObjectRecord[]) {
  const writer = new RecordBatchWriter();
  for (const record of records) writer.add(record);
  return structuredClone(writer.take());
}

/** A record with every field set, as no generated object has. */
const EVERY_FIELD: FluxObjectRecord = {
  key: 'prod/apps/HelmRelease/web',
  cluster: 'prod',
  namespace: 'apps',
  kind: 'HelmRelease',
  name: 'web',
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  writtenApiVersion: 'v2beta1',
  generation: 7,
  labels: { app: 'web', 'sharding.fluxcd.io/key': 'shard2' },
  annotations: { 'reconcile.fluxcd.io/requestedAt': '2026-12-07T10:00:00Z' },
  deletionTimestamp: '2026-12-07T11:00:00Z',
  suspend: true,
  serviceAccountName: 'apps-deployer',
  interval: '5m',
  sourceRef: { kind: 'HelmRepository', name: 'charts', namespace: 'flux-system' },
  chart: 'web',
  dependsOn: [{ kind: 'HelmRelease', name: 'db' }, { kind: 'HelmRelease', name: 'crds', namespace: 'infra' }],
  url: 'https://charts.example.com',
  remote: true,
  inventory: 'apps_web_apps_Deployment v1',
  inventoryCount: 1,
  conditionsError: 'status.conditions[2] should be an object but is 7; ignored',
  ready: { status: 'False', reason: 'UpgradeFailed', message: 'Helm upgrade failed', lastTransitionTime: '2026-12-07T10:01:00Z', observedGeneration: 6 },
  stalled: { status: 'True', reason: 'RetriesExceeded' },
  reconciling: { status: 'Unknown', message: 'Running upgrade', observedGeneration: 7 },
  observedGeneration: 6,
  lastHandledReconcileAt: '2026-12-07T10:00:00Z',
  revision: '1.2.3',
  attemptedRevision: '1.2.4',
  artifactHost: 'source-controller.flux-system.svc.cluster.local.',
  lastReconcileDurationMs: 1234,
  problems: ['the message of condition Ready was 2000 characters long; cut to 1024', 'spec.interval is odd'],
};

describe('record batches (list worker → main thread)', () => {
  it('give back every record of a generated cluster as the main thread would have normalised it', () => {
    const objects = generatedObjects();
    const workerPool = new ValuePool(1_000);
    const fromWorker = objects.map(o => normalizeFluxObject('c1', o.raw, { kind: o.kind, apiVersion: o.apiVersion, pool: workerPool }).record!);
    const mainPool = new ValuePool();
    const read = readRecordBatch(throughWorker(fromWorker), 'c1', mainPool);
    const here = objects.map(o => normalizeFluxObject('c1', o.raw, { kind: o.kind, apiVersion: o.apiVersion, pool: new ValuePool() }).record!);
    expect(read).toHaveLength(objects.length);
    expect(read).toEqual(here);
    // the kinds a generated cluster serves, each read back
    expect(new Set(read.map(r => r.kind)).size).toBeGreaterThanOrEqual(8);
  });

  it('carries every field of a record, set or not', () => {
    const bare: FluxObjectRecord = {
      key: 'prod/apps/Kustomization/api',
      cluster: 'prod',
      namespace: 'apps',
      kind: 'Kustomization',
      name: 'api',
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      labels: {},
      annotations: {},
      suspend: false,
      remote: false,
      inventoryCount: 0,
    };
    const [every, none] = readRecordBatch(throughWorker([EVERY_FIELD, bare]), 'prod', new ValuePool());
    expect(every).toEqual(EVERY_FIELD);
    expect(Object.keys(EVERY_FIELD).sort()).toEqual([...RECORD_FIELD_NAMES].sort());
    expect(none).toEqual(bare);
    // undefined fields are there, undefined, as the normaliser builds them (one hidden class for every record)
    expect(Object.keys(none)).toEqual(RECORD_FIELD_NAMES);
  });

  it('shares label sets, references and strings through the main thread pool, as normalising there does', () => {
    const raw = [
      kustomization('a', { labels: { team: 'payments' }, spec: { sourceRef: { kind: 'GitRepository', name: 'fleet', namespace: 'flux-system' } } }),
      kustomization('b', { labels: { team: 'payments' }, spec: { sourceRef: { kind: 'GitRepository', name: 'fleet', namespace: 'flux-system' } } }),
    ];
    const pool = new ValuePool();
    const normalisedHere = normalizeFluxObject('c1', raw[0], { pool }).record!;
    const workerPool = new ValuePool();
    const [a, b] = readRecordBatch(
      throughWorker(raw.map(r => normalizeFluxObject('c1', r, { pool: workerPool }).record!)),
      'c1',
      pool,
    );
    expect(a.labels).toBe(normalisedHere.labels);
    expect(b.labels).toBe(normalisedHere.labels);
    expect(a.sourceRef).toBe(normalisedHere.sourceRef);
    expect(b.sourceRef).toBe(normalisedHere.sourceRef);
    expect(Object.isFrozen(a.labels)).toBe(true);
  });

  it('sends each distinct string of a batch once', () => {
    const pool = new ValuePool();
    const records = ['a', 'b', 'c'].map(
      name => normalizeFluxObject('c1', kustomization(name, { labels: { team: 'payments' } }), { pool }).record!,
    );
    const writer = new RecordBatchWriter();
    for (const record of records) writer.add(record);
    const batch = writer.take();
    expect(batch.count).toBe(3);
    expect(new Set(batch.strings).size).toBe(batch.strings.length);
    expect(batch.strings.filter(s => s === 'apps')).toHaveLength(1);
    expect(batch.sets).toHaveLength(2); // the shared label set and the empty annotations
    // the writer starts anew
    expect(writer.take().count).toBe(0);
  });

  it('refuses a batch whose values do not match its records', () => {
    const batch = throughWorker([EVERY_FIELD]);
    expect(() => readRecordBatch({ ...batch, values: [...batch.values, 1] }, 'prod', new ValuePool())).toThrow(
      'a record batch has 1 values left after its 1 records',
    );
  });
});
