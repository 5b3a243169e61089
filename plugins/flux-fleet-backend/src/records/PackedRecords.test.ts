import {
  FluxObjectRecord,
  normalizeFluxObject,
  ValuePool,
} from '@flux-fleet/plugin-flux-fleet-common';
import { generateFleet, resolveOptions } from '@flux-fleet/fleet-sim';
import { PackedRecords } from './PackedRecords';
import { classifyRecordChange } from './recordChange';

const pool = new ValuePool();

function recordOf(raw: unknown): FluxObjectRecord {
  const result = normalizeFluxObject('prod-eu', raw, { pool });
  if (!result.record) throw new Error(result.error);
  return result.record;
}

/** A Kustomization with whatever the test needs on top. */
function kustomization(extra: { metadata?: object; spec?: object; status?: object } = {}) {
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'payments-api', namespace: 'team-payments', generation: 3, ...extra.metadata },
    spec: { interval: '10m', sourceRef: { kind: 'GitRepository', name: 'payments' }, ...extra.spec },
    status: {
      observedGeneration: 3,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ReconciliationSucceeded',
          message: 'Applied revision: main@sha1:4f1c',
          lastTransitionTime: '2026-07-14T09:13:10Z',
          observedGeneration: 3,
        },
      ],
      lastAppliedRevision: 'main@sha1:4f1c',
      lastAttemptedRevision: 'main@sha1:4f1c',
      ...extra.status,
    },
  };
}

/** Packs records into consecutive slots and reads them back. */
function roundTrip(records: FluxObjectRecord[]): Array<FluxObjectRecord | undefined> {
  const packed = new PackedRecords();
  records.forEach((r, slot) => packed.write(slot, r));
  return records.map((r, slot) => packed.read(slot, r.key));
}

/** The fields capacity reads of a record (`CapacityRecord`). */
function capacityFields(r: FluxObjectRecord) {
  const { kind, namespace, labels, suspend, annotations, interval, lastReconcileDurationMs } = r;
  return { kind, namespace, labels, suspend, annotations, interval, lastReconcileDurationMs };
}

/** Packs records into consecutive slots and reads back what capacity reads of each. */
function capacityRoundTrip(records: FluxObjectRecord[]) {
  const packed = new PackedRecords();
  records.forEach((r, slot) => packed.write(slot, r));
  return records.map((_, slot) => packed.capacityRecordAt(slot));
}

describe('PackedRecords', () => {
  it('reads back what it was given for odd records: huge numbers, odd times and statuses, rare fields', () => {
    const records = [
      recordOf(kustomization()),
      recordOf(
        kustomization({
          metadata: {
            generation: 2 ** 40,
            deletionTimestamp: '2026-07-14T10:00:00Z',
            annotations: { 'reconcile.fluxcd.io/requestedAt': '2026-07-14T09:12:03.114253411Z' },
          },
          spec: {
            suspend: true,
            serviceAccountName: 'deployer',
            kubeConfig: { secretRef: { name: 'remote' } },
            dependsOn: [{ name: 'crds', namespace: 'flux-system' }],
          },
          status: {
            observedGeneration: 2 ** 40 - 1,
            lastHandledReconcileAt: '2026-07-14T09:12:03.114253411Z',
            lastAttemptedRevision: 'main@sha1:9999',
            history: [{ lastReconciledDuration: '1000000h' }],
            inventory: { entries: [{ id: 'team-payments_api_apps_Deployment', v: 'v1' }, { v: 'v1' }] },
            conditions: [
              {
                type: 'Ready',
                status: 'Maybe',
                reason: 'Odd',
                message: 'x'.repeat(2000),
                lastTransitionTime: '2026-07-14T09:13:10.5+02:00',
                observedGeneration: 2 ** 35,
              },
              { type: 'Stalled', status: 'True', reason: 'BuildFailed' },
              { type: 'Reconciling', status: 'True', reason: 'Progressing' },
            ],
          },
        }),
      ),
      recordOf(kustomization({ status: { conditions: 'not a list' } })),
      recordOf({ ...kustomization(), status: undefined }),
      recordOf(kustomization({ status: { conditions: [{ type: 'Ready', status: 'False' }] } })),
      // more inventory entries than the column holds
      { ...recordOf(kustomization()), inventoryCount: 70_000 },
    ];
    const read = roundTrip(records);
    expect(read).toEqual(records);
    records.forEach((r, i) => expect(classifyRecordChange(r, read[i]!)).toBe('none'));
    expect(read[1]!.problems!.length).toBeGreaterThan(0);
    expect(capacityRoundTrip(records)).toEqual(records.map(capacityFields));
    expect(capacityRoundTrip(records)[1]).toMatchObject({ suspend: true, lastReconcileDurationMs: 3.6e12 });
  });

  it('reads back codes past 16 bits and generations past 15, once columns have widened for them', () => {
    const base = recordOf(kustomization());
    // more distinct namespaces (and so codes) than 16 bits hold, and generations between 2^15 and 2^31
    const records = Array.from({ length: 70_000 }, (_, i) => ({
      ...base,
      key: `prod-eu/ns-${i}/Kustomization/payments-api`,
      namespace: `ns-${i}`,
      generation: 30_000 + i,
      observedGeneration: 30_000 + i,
      ready: { ...base.ready!, observedGeneration: i % 2 ? 40_000 : -40_000 },
    }));
    const read = roundTrip(records);
    for (const slot of [0, 2767, 2768, 65_534, 65_535, 65_536, 69_999]) {
      expect(read[slot]).toEqual(records[slot]);
    }
  });

  it('forgets a cleared slot, and a slot written again holds only the new record', () => {
    const packed = new PackedRecords();
    const first = recordOf(
      kustomization({ metadata: { deletionTimestamp: '2026-07-14T10:00:00Z' }, spec: { suspend: true } }),
    );
    const second = recordOf(kustomization({ metadata: { name: 'other' } }));
    packed.write(0, first);
    packed.clear(0);
    expect(packed.has(0)).toBe(false);
    expect(packed.read(0, first.key)).toBeUndefined();
    packed.write(0, second);
    expect(packed.read(0, second.key)).toEqual(second);
  });

  it('keeps reading the right values after dropping codes no record uses', () => {
    const packed = new PackedRecords();
    const records = Array.from({ length: 5000 }, (_, i) =>
      recordOf(kustomization({ metadata: { name: `app-${i}`, namespace: `ns-${i}` } })),
    );
    records.forEach((r, slot) => packed.write(slot, r));
    // most objects go away, then the columns are compacted
    for (let slot = 0; slot < 4990; slot++) packed.clear(slot);
    packed.compactCodes(records.length);
    for (let slot = 4990; slot < 5000; slot++) {
      expect(packed.read(slot, records[slot].key)).toEqual(records[slot]);
    }
  });

  it('reads back every Flux object of a generated cluster as the normaliser made it', () => {
    // the simulator's generator builds the objects a cluster would serve; no server is started
    const [cluster] = generateFleet(resolveOptions({ size: 'S', seed: 5, clusters: 1 }));
    const records: FluxObjectRecord[] = [];
    for (const served of cluster.served) {
      if (!served.type.flux) continue;
      const apiVersion = `${served.type.group}/${served.versions[0]}`;
      for (const stored of cluster.store.table(served.type).objects.values()) {
        const raw = { apiVersion, kind: served.type.kind, ...JSON.parse(stored.body) };
        const result = normalizeFluxObject(cluster.name, raw, { kind: served.type.kind, apiVersion, pool });
        if (result.record) records.push(result.record);
      }
    }
    expect(records.length).toBeGreaterThan(500);
    const read = roundTrip(records);
    const different = records.filter((r, i) => classifyRecordChange(r, read[i]!) !== 'none');
    expect(different.map(r => r.key)).toEqual([]);
    expect(read).toEqual(records);
    expect(capacityRoundTrip(records)).toEqual(records.map(capacityFields));
  });
});
