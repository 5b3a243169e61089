import type { FluxObjectRecord } from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from './IndexedObject';
import type { ObjectQuery } from '@flux-fleet/plugin-flux-fleet-common';
import { plainObjectPage, plainTextMatcher as textMatcher } from '../__testUtils__/plainObjectQuery';
import { STATE_SEVERITY } from './objectQuery';

const STATES = ['ready', 'failed', 'stalled', 'suspended', 'progressing'] as const;
const KINDS = ['Kustomization', 'HelmRelease', 'GitRepository'] as const;

function object(i: number): IndexedObject {
  const cluster = `c${i % 3}`;
  const namespace = `ns-${i % 7}`;
  const kind = KINDS[i % KINDS.length];
  const name = `app-${(i * 7919) % 1000}`;
  const key = `${cluster}/${namespace}/${kind}/${name}`;
  const state = {
    state: STATES[i % STATES.length],
    ...(i % 4 === 0 && { message: `Health check FAILED for ${name}` }),
  };
  return {
    key,
    slot: i,
    cluster,
    namespace,
    kind,
    name,
    record: { key, cluster, namespace, kind, name } as unknown as FluxObjectRecord,
    stateName: state.state,
    stateMessage: state.message,
    state,
    owner: { status: 'ok', instance: 'flux-system', shard: 'main', controller: 'x' },
    boundary: {
      cluster,
      instance: 'flux-system',
      namespace,
      tenant: i % 5 === 0 ? 'Payments' : null,
      serviceAccount: null,
      serviceAccountSource: null,
      lockdown: false,
      enforcement: 'none',
      reasons: [],
    },
    service: i % 2 ? `svc-${i % 11}` : null,
    findings: [],
    updatedAt: 1_700_000_000_000 + ((i * 104729) % 5000),
  };
}

const objects = Array.from({ length: 500 }, (_, i) => object(i)).filter(
  (o, i, all) => all.findIndex(x => x.key === o.key) === i,
);

/** Every page of a query, following cursors. */
function pages(query: ObjectQuery) {
  const seen: IndexedObject[] = [];
  let cursor: string | undefined;
  const totals = new Set<number>();
  for (let n = 0; n < 100; n++) {
    const page = plainObjectPage(objects, { ...query, cursor });
    totals.add(page.totalCount);
    seen.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return { seen, totals };
}

// the reference the index's answers are compared with (index/objectPages.test.ts)
describe('plainObjectPage', () => {
  it.each([
    ['key', 'asc'],
    ['key', 'desc'],
    ['name', 'asc'],
    ['state', 'asc'],
    ['updatedAt', 'desc'],
    ['cluster', 'asc'],
    ['kind', 'desc'],
  ] as const)(
    'pages through every object exactly once in %s %s order',
    (sort, order) => {
      const { seen, totals } = pages({ sort, order, limit: 37 });
      expect([...totals]).toEqual([objects.length]);
      expect(seen.map(o => o.key).sort()).toEqual(objects.map(o => o.key).sort());
      const value = (o: IndexedObject) => {
        switch (sort) {
          case 'name':
            return o.name;
          case 'state':
            return STATE_SEVERITY.indexOf(o.stateName);
          case 'updatedAt':
            return o.updatedAt;
          case 'cluster':
            return o.cluster;
          case 'kind':
            return o.kind;
          default:
            return o.key;
        }
      };
      const outOfOrder = seen.filter((o, i) => {
        if (i === 0) return false;
        const [a, b] = [value(seen[i - 1]), value(o)];
        return order === 'asc' ? a > b : a < b;
      });
      expect(outOfOrder).toEqual([]);
    },
  );

  it('puts the worst states first when sorting by state', () => {
    const { seen } = pages({ sort: 'state', limit: 5 });
    expect(seen[0].state.state).toBe('stalled');
    expect(seen[seen.length - 1].state.state).toBe('ready');
  });

  it('caps the page at 1000 and defaults to 100', () => {
    expect(plainObjectPage(objects, { limit: 5000 }).items.length).toBe(Math.min(1000, objects.length));
    expect(plainObjectPage(objects, {}).items.length).toBe(100);
  });

  it('refuses a cursor of another sort order, or one it never gave out', () => {
    const cursor = plainObjectPage(objects, { sort: 'name', limit: 10 }).nextCursor!;
    expect(() => plainObjectPage(objects, { sort: 'key', cursor })).toThrow(
      'The cursor belongs to a list sorted by name asc, not key asc',
    );
    expect(() => plainObjectPage(objects, { cursor: 'garbage' })).toThrow(
      "The cursor 'garbage' is not one this API gave out",
    );
  });
});

describe('plainTextMatcher', () => {
  it('matches name, namespace, cluster, service, tenant and message, ignoring case', () => {
    const match = textMatcher('payments')!;
    const tenantMatches = objects.filter(match);
    expect(tenantMatches.length).toBeGreaterThan(0);
    expect(tenantMatches.every(o => o.boundary.tenant === 'Payments')).toBe(true);
    expect(objects.filter(textMatcher('health check failed')!).length).toBe(
      objects.filter(o => o.state.message).length,
    );
    expect(objects.filter(textMatcher('c1/')!)).toEqual([]);
    expect(textMatcher('  ')).toBeUndefined();
  });
});
