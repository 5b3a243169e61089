import type { ObjectQuery } from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from '../derive/IndexedObject';
import { DEFAULT_LIMIT, MAX_LIMIT, ObjectPage } from '../derive/objectQuery';
import { decodeCursor, encodeCursor, sortValue } from '../derive/pageOrder';

/** Free text as a case-insensitive matcher over the fields `q` searches (docs/api.md), one object at a time. */
export function plainTextMatcher(q: string | undefined): ((o: IndexedObject) => boolean) | undefined {
  const text = q?.trim();
  if (!text) return undefined;
  const pattern = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  return o =>
    pattern.test(o.name) ||
    pattern.test(o.namespace) ||
    pattern.test(o.cluster) ||
    (o.service !== null && pattern.test(o.service)) ||
    (o.boundary.tenant !== null && pattern.test(o.boundary.tenant)) ||
    (o.stateMessage !== undefined && pattern.test(o.stateMessage));
}

function plainFilter(query: ObjectQuery): (o: IndexedObject) => boolean {
  const has = <T>(values: readonly T[] | undefined, value: T) => !values?.length || values.includes(value);
  const text = plainTextMatcher(query.q);
  return o =>
    has(query.cluster, o.cluster) &&
    has(query.kind, o.kind) &&
    has(query.state, o.stateName) &&
    has(query.namespace, o.namespace) &&
    has(query.owner, o.owner.status) &&
    (!query.instance?.length || (o.owner.instance !== null && query.instance.includes(o.owner.instance))) &&
    (!query.shard?.length || (o.owner.shard !== null && query.shard.includes(o.owner.shard))) &&
    (!query.tenant?.length || (o.boundary.tenant !== null && query.tenant.includes(o.boundary.tenant))) &&
    (!query.service?.length || (o.service !== null && query.service.includes(o.service))) &&
    (!query.finding?.length || o.findings.some(f => query.finding!.includes(f))) &&
    (!text || text(o));
}

/**
 * `GET /objects` answered the plainest way (docs/api.md), the reference the index's answers are compared with:
 * every object tested against every filter, all matches sorted by (sort value, key), the page cut after the
 * cursor's position.
 */
export function plainObjectPage(objects: readonly IndexedObject[], query: ObjectQuery): ObjectPage {
  const sort = query.sort ?? 'key';
  const order = query.order ?? 'asc';
  const limit = Math.min(Math.max(query.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
  const sign = order === 'desc' ? -1 : 1;
  const compare = (a: { value: string | number; key: string }, b: { value: string | number; key: string }) => {
    if (a.value !== b.value) return sign * (a.value < b.value ? -1 : 1);
    return a.key === b.key ? 0 : sign * (a.key < b.key ? -1 : 1);
  };
  const matches = objects
    .filter(plainFilter(query))
    .map(o => ({ o, value: sortValue(o, sort), key: o.key }))
    .sort(compare);
  const after = query.cursor ? decodeCursor(query.cursor, sort, order) : undefined;
  const rest = after ? matches.filter(m => compare(m, after) > 0) : matches;
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(m => m.o),
    totalCount: matches.length,
    ...(rest.length > page.length &&
      last && { nextCursor: encodeCursor(sort, order, { value: last.value, key: last.key }) }),
  };
}
