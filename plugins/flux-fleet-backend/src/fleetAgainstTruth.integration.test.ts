import type { FleetObject, Finding } from '@flux-fleet/plugin-flux-fleet-common';
import { allObjects, FleetBackend, startFleetBackend } from './__testUtils__/startFleetBackend';

jest.setTimeout(60_000);

/** Compares field by field and lists every difference, so a failure says exactly what is wrong. */
function mismatches(api: FleetObject[], truth: any[]): string[] {
  const byKey = new Map(api.map(o => [o.key, o]));
  const problems: string[] = [];
  for (const t of truth) {
    const key = `${t.cluster}/${t.namespace}/${t.kind}/${t.name}`;
    const o = byKey.get(key);
    if (!o) {
      problems.push(`${key}: missing from the API`);
      continue;
    }
    byKey.delete(key);
    const actual = {
      owner: o.owner.status,
      instance: o.owner.instance,
      shard: o.owner.shard,
      state: o.state.state,
      tenant: o.boundary.tenant,
      serviceAccount: o.boundary.serviceAccount,
      boundary: o.boundary.enforcement,
      service: o.service,
    };
    const expected = {
      owner: t.owner,
      instance: t.instance,
      shard: t.shard,
      state: t.state,
      tenant: t.tenant,
      serviceAccount: t.serviceAccount,
      boundary: t.boundary,
      service: t.service,
    };
    for (const field of Object.keys(expected) as Array<keyof typeof expected>) {
      if (actual[field] !== expected[field]) {
        problems.push(
          `${key}: ${field} is ${JSON.stringify(actual[field])}, truth says ${JSON.stringify(
            expected[field],
          )}`,
        );
      }
    }
  }
  for (const key of byKey.keys()) problems.push(`${key}: in the API but not in the truth`);
  return problems;
}

describe('Flux Fleet against the simulator’s ground truth (fleet S, faults off)', () => {
  let fleet: FleetBackend;

  beforeAll(async () => {
    fleet = await startFleetBackend({});
    await fleet.waitFor('every cluster synced', async () => {
      const { items } = await fleet.get('/clusters');
      return items.every((c: any) => c.synced && c.status === 'synced') ? items : undefined;
    });
  });

  afterAll(() => fleet?.stop());

  it('derives owner, state, tenant, service account, boundary and service of every object as the truth says', async () => {
    const truth = fleet.sim.truth();
    const objects = await allObjects(fleet);
    const problems = mismatches(objects, truth.objects);
    if (problems.length) {
      // print them all: the assertion below only says how many
      console.log(`${problems.length} mismatches:\n${problems.slice(0, 200).join('\n')}`);
    }
    expect(objects.length).toBe(truth.objects.length);
    expect(problems).toEqual([]);
  });

  it('reports every injected finding and no false ones', async () => {
    const truth = fleet.sim.truth();
    const { items } = await fleet.get('/findings');
    const reported = new Set(
      (items as Finding[])
        .filter(f => f.object)
        .map(f => `${f.type} ${f.object!.cluster}/${f.object!.namespace}/${f.object!.kind}/${f.object!.name}`),
    );
    const expected = new Set(
      truth.findings.map(f => `${f.type} ${f.cluster}/${f.namespace}/${f.kind}/${f.name}`),
    );
    const missed = [...expected].filter(f => !reported.has(f));
    const extra = [...reported].filter(f => !expected.has(f));
    if (missed.length || extra.length) {
      console.log(`missed:\n${missed.join('\n')}\nnot in the truth:\n${extra.join('\n')}`);
    }
    expect(expected.size).toBeGreaterThan(0);
    expect({ missed, extra }).toEqual({ missed: [], extra: [] });
  });

  it('reads each cluster’s environment from its kube-system label, as the simulator built it (rules §11)', async () => {
    const truth = fleet.sim.truth();
    const { items } = await fleet.get('/clusters');
    const actual = Object.fromEntries(
      items.map((c: any) => [c.name, { environment: c.environment, source: c.environmentSource }]),
    );
    const expected = Object.fromEntries(
      truth.clusters.map(c => [
        c.name,
        c.environment
          ? { environment: c.environment, source: { from: 'label', namespace: 'kube-system' } }
          : { environment: undefined, source: undefined },
      ]),
    );
    expect(truth.clusters.some(c => c.environment)).toBe(true);
    expect(actual).toEqual(expected);
  });
});
