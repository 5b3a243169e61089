import { generateFleet, resolveOptions } from '@flux-fleet/fleet-sim';
import type {
  FindingType,
  ObjectQuery,
  ReconcileStateName,
} from '@flux-fleet/plugin-flux-fleet-common';
import { testFleet } from '../__testUtils__/fluxFixtures';
import { loadGeneratedFleet } from '../__testUtils__/generatedFleet';
import { plainObjectPage } from '../__testUtils__/plainObjectQuery';
import type { IndexedObject } from '../derive/IndexedObject';
import { objectPage } from './objectPages';
import { PageParts } from './PageParts';
import { TextMatches } from './TextMatches';

/** A random number generator with a seed, so that a failing query can be told again. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const some = <T>(values: readonly T[]): T[] => {
    const n = 1 + Math.floor(next() * 2);
    return [...new Set(Array.from({ length: n }, () => pick(values)))];
  };
  return { next, pick, some };
}

/** A generated fleet (3 clusters of the simulator's S preset, fewer services), listed into the index and analysed. */
function generatedIndex() {
  const generated = generateFleet(resolveOptions({ size: 'S', seed: 7, services: 60 }));
  const { fleet, index } = testFleet(generated.map(c => c.name));
  const objects = loadGeneratedFleet(fleet, generated);
  jest.advanceTimersByTime(2_000);
  const handles = (): IndexedObject[] =>
    fleet.all().flatMap(({ view }) => [...view.slots()].map(slot => view.object(slot)!));
  return { fleet, index, objects, handles };
}

/** A random query over the values the fleet has: up to three filters, free text sometimes, any sort. */
function randomQuery(r: ReturnType<typeof random>, objects: IndexedObject[]): ObjectQuery {
  const values = <T>(of: (o: IndexedObject) => T | null) =>
    [...new Set(objects.map(of))].filter((v): v is T => v !== null);
  const filters: Array<() => Partial<ObjectQuery>> = [
    () => ({ cluster: r.some(values(o => o.cluster)) }),
    () => ({ kind: r.some(values(o => o.kind)) }),
    () => ({ state: r.some(values<ReconcileStateName>(o => o.stateName)) }),
    () => ({ namespace: r.some(values(o => o.namespace)) }),
    () => ({ tenant: r.some(values(o => o.boundary.tenant)) }),
    () => ({ shard: r.some(values(o => o.owner.shard)) }),
    () => ({ instance: r.some(values(o => o.owner.instance)) }),
    () => ({ owner: r.some(['ok', 'orphan', 'contested'] as const) }),
    () => ({ service: r.some(values(o => o.service)) }),
    () => ({ finding: r.some(values<FindingType>(o => o.findings[0] ?? null)) }),
  ];
  let query: ObjectQuery = {};
  const count = Math.floor(r.next() * 4);
  for (let i = 0; i < count; i++) query = { ...query, ...r.pick(filters)() };
  if (r.next() < 0.3) {
    const o = r.pick(objects);
    const source = r.pick([o.name, o.namespace, o.stateMessage ?? 'failed', 'api', 'ZZZ-none']);
    const start = Math.floor(r.next() * Math.max(1, source.length - 3));
    query.q = source.slice(start, start + 2 + Math.floor(r.next() * 5)).toUpperCase();
  }
  return {
    ...query,
    sort: r.pick(['key', 'name', 'state', 'updatedAt', 'cluster', 'kind'] as const),
    order: r.pick(['asc', 'desc'] as const),
    limit: r.pick([1, 7, 50, 100, 333]),
  };
}

const keysOf = (page: { items: Array<{ key: string }> }) => page.items.map(o => o.key);

describe('objectPage', () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-07-14T10:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('answers 300 random queries, page after page, exactly as a plain scan and full sort of the fleet do', () => {
    const { fleet, handles } = generatedIndex();
    const all = handles();
    expect(all.length).toBeGreaterThan(500);
    const r = random(17);
    // free text through the kept matches, as the index answers it
    const texts = new TextMatches(fleet);
    const parts = new PageParts();
    let compared = 0;
    let nonEmpty = 0;
    for (let n = 0; n < 300; n++) {
      const query = randomQuery(r, all);
      let cursor: string | undefined;
      for (let pageNumber = 0; pageNumber < 3; pageNumber++) {
        const q = { ...query, cursor };
        const indexed = objectPage(fleet.all(), q, undefined, texts, parts);
        const plain = plainObjectPage(all, q);
        // asked again, first pages answer from the clusters' kept parts
        expect(keysOf(objectPage(fleet.all(), q, undefined, texts, parts))).toEqual(keysOf(indexed));
        expect({ query: q, keys: keysOf(indexed), total: indexed.totalCount, next: indexed.nextCursor }).toEqual({
          query: q,
          keys: keysOf(plain),
          total: plain.totalCount,
          next: plain.nextCursor,
        });
        compared++;
        if (indexed.items.length > 0) nonEmpty++;
        cursor = indexed.nextCursor;
        if (!cursor) break;
      }
    }
    // the queries were not all empty answers
    expect(nonEmpty).toBeGreaterThan(compared / 2);
    fleet.close();
  });

  it('answers a first page again from kept parts, bringing a changed cluster up to date without scanning it', () => {
    const { fleet, objects, handles } = generatedIndex();
    const parts = new PageParts();
    const queries: ObjectQuery[] = [
      { state: ['failed', 'stalled', 'blocked'], sort: 'updatedAt', order: 'desc', limit: 20 },
      { kind: ['Kustomization'], sort: 'name', limit: 50 },
      { sort: 'state', limit: 10 },
    ];
    const ask = () => {
      for (const q of queries) {
        const page = objectPage(fleet.all(), q, undefined, undefined, parts);
        const plain = plainObjectPage(handles(), q);
        expect({ keys: keysOf(page), total: page.totalCount }).toEqual({ keys: keysOf(plain), total: plain.totalCount });
      }
    };
    ask();
    const scans = new Map(fleet.all().map(e => [e.name, jest.spyOn(e.view, 'forEachMatch')]));
    // the first cluster's objects fail, one after another: each lands first in two of the queries' pages
    const changing = objects.filter(o => o.cluster === fleet.all()[0].name).slice(0, 6);
    for (const [n, o] of changing.entries()) {
      o.raw.status = { ...o.raw.status, conditions: [{ type: 'Ready', status: 'False', reason: 'BuildFailed', message: `failed ${n}` }] };
      o.sink.upsert(o.raw);
      jest.advanceTimersByTime(2_000);
      ask();
    }
    const scanned = Object.fromEntries([...scans].map(([name, spy]) => [name, spy.mock.calls.length]));
    expect(scanned).toEqual(Object.fromEntries(fleet.all().map(e => [e.name, 0])));
    fleet.close();
  });

  it('keeps first pages exact as objects change state, message and time, come and go (kept parts against a plain scan)', () => {
    const { fleet, objects, handles } = generatedIndex();
    const r = random(29);
    const texts = new TextMatches(fleet);
    const parts = new PageParts();
    // the fleet page's questions and a few more, with small limits so that kept places run out and scans follow
    const queries: ObjectQuery[] = [
      { kind: ['HelmRelease'], state: ['failed'], limit: 3 },
      { state: ['failed', 'stalled', 'blocked'], sort: 'updatedAt', order: 'desc', limit: 5 },
      { q: 'api', sort: 'name', limit: 7 },
      { q: 'quota', sort: 'updatedAt', limit: 2 },
      { sort: 'state', order: 'desc', limit: 4 },
      { state: ['ready'], sort: 'key', order: 'desc', limit: 1 },
      { kind: ['Kustomization', 'GitRepository'], sort: 'kind', limit: 6 },
    ];
    const messages = ['Disk quota exceeded', 'api server said no', 'Applied revision', 'Reconciliation in progress'];
    const removed: typeof objects = [];
    const spies = fleet.all().map(e => jest.spyOn(e.view, 'forEachMatch'));
    let answered = 0;
    for (let round = 0; round < 60; round++) {
      // a few objects change status; sometimes one goes away or comes back (a structural change)
      for (let i = 0; i < 1 + Math.floor(r.next() * 6); i++) {
        const o = r.pick(objects);
        if (removed.includes(o)) continue;
        const status = r.pick(['True', 'False', 'Unknown']);
        o.raw.status = {
          ...o.raw.status,
          conditions: [{ type: 'Ready', status, reason: status === 'True' ? 'Succeeded' : 'Failed', message: r.pick(messages) }],
        };
        o.sink.upsert(o.raw);
      }
      if (r.next() < 0.15) {
        const o = r.pick(objects);
        if (removed.includes(o)) {
          removed.splice(removed.indexOf(o), 1);
          o.sink.upsert(o.raw);
        } else {
          removed.push(o);
          o.sink.remove(o.raw);
        }
      }
      jest.advanceTimersByTime(2_000);
      for (const q of queries) {
        const page = objectPage(fleet.all(), q, undefined, texts, parts);
        const plain = plainObjectPage(handles(), q);
        expect({ round, q, keys: keysOf(page), total: page.totalCount, next: page.nextCursor }).toEqual({
          round,
          q,
          keys: keysOf(plain),
          total: plain.totalCount,
          next: plain.nextCursor,
        });
        answered++;
      }
    }
    const scans = spies.reduce((n, spy) => n + spy.mock.calls.length, 0);
    // most answers came from parts brought up to date, not from scans of every cluster
    expect(scans).toBeLessThan((answered * fleet.all().length) / 2);
    fleet.close();
  });

  it('scans a cluster again when its kept part has fewer places than a page before its boundary', () => {
    const { fleet, objects, handles } = generatedIndex();
    const parts = new PageParts();
    const scans = jest.spyOn(fleet.all()[0].view, 'forEachMatch');
    const query: ObjectQuery = { cluster: [fleet.all()[0].name], state: ['ready'], sort: 'name', limit: 2 };
    const keyOf = (o: (typeof objects)[number]) =>
      `${o.cluster}/${o.raw.metadata.namespace}/${(o.raw as { kind?: string }).kind}/${o.raw.metadata.name}`;
    const ask = () => {
      const page = objectPage(fleet.all(), query, undefined, undefined, parts);
      const plain = plainObjectPage(handles(), query);
      expect({ keys: keysOf(page), total: page.totalCount }).toEqual({ keys: keysOf(plain), total: plain.totalCount });
    };
    const setReady = (key: string, status: string, message: string) => {
      const o = objects.find(candidate => keyOf(candidate) === key)!;
      o.raw.status = { ...o.raw.status, conditions: [{ type: 'Ready', status, reason: 'X', message }] };
      o.sink.upsert(o.raw);
    };
    ask();
    const ready = keysOf(plainObjectPage(handles(), { ...query, limit: 1000 }));
    expect(ready.length).toBeGreaterThan(10);
    // the first of the four places the part keeps fails: three are left, enough for a page
    setReady(ready[0], 'False', 'failed');
    jest.advanceTimersByTime(2_000);
    ask();
    // the last ready object changes and stays ready: it falls after the places the part keeps
    setReady(ready[ready.length - 1], 'True', 'Applied revision again');
    jest.advanceTimersByTime(2_000);
    ask();
    expect(scans).toHaveBeenCalledTimes(1);
    // two more fail: one place is left before the boundary, fewer than a page
    for (const key of ready.slice(1, 3)) setReady(key, 'False', 'failed');
    jest.advanceTimersByTime(2_000);
    ask();
    expect(scans).toHaveBeenCalledTimes(2);
    fleet.close();
  });

  it('leaves out what the caller may not read, before counting and paging', () => {
    const { fleet, handles } = generatedIndex();
    const readable = (o: IndexedObject) => o.namespace.length % 2 === 0;
    const query: ObjectQuery = { sort: 'state', limit: 50 };
    const indexed = objectPage(fleet.all(), query, readable);
    const plain = plainObjectPage(handles().filter(readable), query);
    expect(indexed.totalCount).toBe(plain.totalCount);
    expect(indexed.totalCount).toBeLessThan(handles().length);
    expect(keysOf(indexed)).toEqual(keysOf(plain));
    fleet.close();
  });

  it.each(['state', 'updatedAt', 'name'] as const)(
    'pages by %s through a fleet that changes between pages without repeating or skipping an unchanged object',
    sort => {
      const { fleet, objects, handles } = generatedIndex();
      const query: ObjectQuery = { sort, order: 'desc', limit: 97 };
      const before = new Map(handles().map(o => [o.key, o.stateName]));
      const seen: string[] = [];
      const changed = new Set<string>();
      let cursor: string | undefined;
      for (let n = 0; n < 1000; n++) {
        const page = objectPage(fleet.all(), { ...query, cursor });
        seen.push(...keysOf(page));
        cursor = page.nextCursor;
        if (!cursor) break;
        // between pages, five objects fail: their state and time change, so they may move across the cursor
        for (let i = 0; i < 5; i++) {
          const o = objects[(n * 131 + i * 17) % objects.length];
          o.raw.status = {
            ...o.raw.status,
            conditions: [{ type: 'Ready', status: 'False', reason: 'BuildFailed', message: `failed ${n}` }],
          };
          o.sink.upsert(o.raw);
          const namespace = o.raw.metadata.namespace;
          changed.add(`${o.cluster}/${namespace}/${(o.raw as { kind?: string }).kind}/${o.raw.metadata.name}`);
        }
        jest.advanceTimersByTime(2_000);
      }
      const unchanged = [...before.keys()].filter(k => !changed.has(k));
      const seenUnchanged = seen.filter(k => !changed.has(k));
      expect(changed.size).toBeGreaterThan(0);
      expect(seenUnchanged.length).toBe(new Set(seenUnchanged).size);
      expect(new Set(seenUnchanged)).toEqual(new Set(unchanged));
      fleet.close();
    },
  );

  it('keeps the matches of a free text up to date as messages change, as a plain scan finds them', () => {
    const { fleet, objects, handles } = generatedIndex();
    const texts = new TextMatches(fleet);
    const ask = (q: string) => {
      const query: ObjectQuery = { q, sort: 'name', limit: 1000 };
      const kept = objectPage(fleet.all(), query, undefined, texts);
      expect(keysOf(kept)).toEqual(keysOf(plainObjectPage(handles(), query)));
      // the lists of slots by state follow the changes too
      for (const state of [['failed'], ['ready', 'progressing']] as ReconcileStateName[][]) {
        const byState: ObjectQuery = { state, kind: ['Kustomization', 'HelmRelease'], limit: 1000 };
        expect(keysOf(objectPage(fleet.all(), byState))).toEqual(keysOf(plainObjectPage(handles(), byState)));
      }
      return kept.totalCount;
    };
    const before = { marker: ask('disk quota'), common: ask('a') };
    // twelve objects fail with a message that contains the text, then four of them recover
    const failing = objects.filter((_, i) => i % 50 === 0).slice(0, 12);
    const setReady = (o: (typeof objects)[number], status: string, message: string) => {
      o.raw.status = { ...o.raw.status, conditions: [{ type: 'Ready', status, reason: 'X', message }] };
      o.sink.upsert(o.raw);
    };
    for (const o of failing) setReady(o, 'False', 'Disk quota exceeded on the node');
    jest.advanceTimersByTime(2_000);
    expect(ask('disk quota')).toBe(before.marker + 12);
    for (const o of failing.slice(0, 4)) setReady(o, 'True', 'Applied revision');
    jest.advanceTimersByTime(2_000);
    expect(ask('disk quota')).toBe(before.marker + 8);
    expect(ask('a')).toBeGreaterThan(0);
    expect(before.common).toBeGreaterThan(0);
    fleet.close();
  });

  it('pages past a cursor whose object is gone, from where it was', () => {
    const { fleet, objects } = generatedIndex();
    const first = objectPage(fleet.all(), { sort: 'name', limit: 10 });
    const last = objects.find(
      o => `${o.cluster}/${o.raw.metadata.namespace}/${(o.raw as { kind?: string }).kind}/${o.raw.metadata.name}` ===
        first.items[9].key,
    )!;
    last.sink.remove(last.raw);
    jest.advanceTimersByTime(2_000);
    const next = objectPage(fleet.all(), { sort: 'name', limit: 10, cursor: first.nextCursor });
    const whole = objectPage(fleet.all(), { sort: 'name', limit: 30 });
    expect(keysOf(whole)).not.toContain(first.items[9].key);
    expect(keysOf(next)).toEqual(keysOf(whole).slice(9, 19));
    fleet.close();
  });
});
