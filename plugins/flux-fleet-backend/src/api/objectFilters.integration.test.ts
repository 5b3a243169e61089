import type {
  ClusterHealth,
  FleetObject,
} from '@flux-fleet/plugin-flux-fleet-common';
import {
  allObjects,
  FleetBackend,
  startFleetBackend,
} from '../__testUtils__/startFleetBackend';

jest.setTimeout(60_000);

/** Every page of a query's answer, following cursors. */
async function everyPage(
  fleet: FleetBackend,
  query: string,
): Promise<FleetObject[]> {
  const items: FleetObject[] = [];
  let cursor: string | undefined;
  do {
    const page = await fleet.get(
      `/objects?${query}&limit=1000${
        cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
      }`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** The values of a field among the objects, most common first (to query both frequent and rare values). */
function valuesOf(
  objects: FleetObject[],
  field: (o: FleetObject) => string | null | undefined,
): string[] {
  const counts = new Map<string, number>();
  for (const o of objects) {
    const v = field(o);
    if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([v]) => v);
}

describe('object filters and summaries of the index, against every object taken one by one', () => {
  let fleet: FleetBackend;
  let objects: FleetObject[];

  beforeAll(async () => {
    fleet = await startFleetBackend({ sim: { clusters: 2 } });
    await fleet.waitFor('synced', async () => {
      const { items } = await fleet.get('/clusters');
      return items.every((c: ClusterHealth) => c.synced) ? true : undefined;
    });
    objects = await allObjects(fleet);
  });

  afterAll(() => fleet?.stop());

  const fields: Record<string, (o: FleetObject) => string | null | undefined> =
    {
      cluster: o => o.ref.cluster,
      kind: o => o.ref.kind,
      state: o => o.state.state,
      namespace: o => o.ref.namespace,
      tenant: o => o.boundary.tenant,
      instance: o => o.owner.instance,
      shard: o => o.owner.shard,
      service: o => o.service,
      owner: o => o.owner.status,
    };

  it('answers each filter, alone and with two values, with exactly the objects that have them', async () => {
    expect(objects.length).toBeGreaterThan(1000);
    for (const [name, field] of Object.entries(fields)) {
      const values = valuesOf(objects, field);
      const picks = [
        [values[0]],
        [values[values.length - 1]],
        values.slice(1, 3),
      ].filter(p => p.length > 0 && p.every(Boolean));
      for (const pick of picks) {
        const found = await everyPage(
          fleet,
          `${name}=${pick.map(encodeURIComponent).join(',')}`,
        );
        const expected = objects.filter(o => pick.includes(field(o) ?? ''));
        expect({ name, pick, keys: found.map(o => o.key).sort() }).toEqual({
          name,
          pick,
          keys: expected.map(o => o.key).sort(),
        });
      }
    }
  });

  it('answers findings, combined filters and free text the same way', async () => {
    const finding = valuesOf(objects, o => o.findings[0])[0];
    const withFinding = await everyPage(fleet, `finding=${finding}`);
    expect(withFinding.map(o => o.key).sort()).toEqual(
      objects
        .filter(o => o.findings.includes(finding as any))
        .map(o => o.key)
        .sort(),
    );

    const [kind] = valuesOf(objects, fields.kind);
    const [namespace] = valuesOf(objects, fields.namespace);
    const combined = await everyPage(
      fleet,
      `kind=${kind}&namespace=${namespace}&owner=ok`,
    );
    expect(combined.map(o => o.key).sort()).toEqual(
      objects
        .filter(
          o =>
            o.ref.kind === kind &&
            o.ref.namespace === namespace &&
            o.owner.status === 'ok',
        )
        .map(o => o.key)
        .sort(),
    );

    const text = objects[Math.floor(objects.length / 2)].ref.name
      .slice(0, 5)
      .toUpperCase();
    const byText = await everyPage(fleet, `q=${encodeURIComponent(text)}`);
    const lower = text.toLowerCase();
    expect(byText.map(o => o.key).sort()).toEqual(
      objects
        .filter(o =>
          [
            o.ref.name,
            o.ref.namespace,
            o.ref.cluster,
            o.service,
            o.boundary.tenant,
            o.state.message,
          ].some(v => v?.toLowerCase().includes(lower)),
        )
        .map(o => o.key)
        .sort(),
    );
  });

  it('counts tenants and shards as their objects say', async () => {
    const tenants = (await fleet.get('/tenants')).items;
    const byTenant = new Map<string, FleetObject[]>();
    for (const o of objects) {
      if (o.boundary.tenant === null) continue;
      byTenant.set(o.boundary.tenant, [
        ...(byTenant.get(o.boundary.tenant) ?? []),
        o,
      ]);
    }
    expect(tenants.map((t: any) => t.name).sort()).toEqual(
      [...byTenant.keys()].sort(),
    );
    for (const t of tenants) {
      const own = byTenant.get(t.name)!;
      const counts: Record<string, number> = {};
      for (const o of own)
        counts[o.boundary.enforcement] =
          (counts[o.boundary.enforcement] ?? 0) + 1;
      expect({
        name: t.name,
        objectCount: t.objectCount,
        counts: t.countsByEnforcement,
      }).toEqual({
        name: t.name,
        objectCount: own.length,
        counts,
      });
      expect(
        t.namespaces.map((n: any) => `${n.cluster}/${n.namespace}`).sort(),
      ).toEqual(
        [
          ...new Set(own.map(o => `${o.ref.cluster}/${o.ref.namespace}`)),
        ].sort(),
      );
      expect(
        t.shards
          .map((x: any) => `${x.cluster}/${x.instance}/${x.shard}`)
          .sort(),
      ).toEqual(
        [
          ...new Set(
            own
              .filter(o => o.owner.status === 'ok')
              .map(
                o => `${o.ref.cluster}/${o.owner.instance}/${o.owner.shard}`,
              ),
          ),
        ].sort(),
      );
    }

    const shards = (await fleet.get('/shards')).items;
    expect(shards.length).toBeGreaterThan(2);
    for (const shard of shards) {
      const own = objects.filter(
        o =>
          o.ref.cluster === shard.cluster &&
          o.owner.status === 'ok' &&
          o.owner.instance === shard.instance &&
          o.owner.shard === shard.name,
      );
      const byKind: Record<string, number> = {};
      const byState: Record<string, number> = {};
      for (const o of own) {
        byKind[o.ref.kind] = (byKind[o.ref.kind] ?? 0) + 1;
        byState[o.state.state] = (byState[o.state.state] ?? 0) + 1;
      }
      expect({
        shard: shard.name,
        n: shard.objectCount,
        byKind: shard.countsByKind,
        byState: shard.countsByState,
      }).toEqual({ shard: shard.name, n: own.length, byKind, byState });
    }
  });
});
