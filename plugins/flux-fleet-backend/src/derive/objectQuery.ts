import { InputError } from '@backstage/errors';
import type {
  ObjectQuery,
  ReconcileStateName,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from './IndexedObject';

/** Default and largest page of `GET /objects` (docs/api.md). */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** The order of `sort=state`: worst first, as the UI groups a service's rows. */
export const STATE_SEVERITY: readonly ReconcileStateName[] = [
  'stalled',
  'failed',
  'blocked',
  'never-reconciled',
  'unknown',
  'terminating',
  'progressing',
  'suspended',
  'ready',
];
const SEVERITY_RANK = new Map(STATE_SEVERITY.map((s, i) => [s, i]));

type SortField = NonNullable<ObjectQuery['sort']>;
type SortValue = string | number;

function sortValue(object: IndexedObject, sort: SortField): SortValue {
  switch (sort) {
    case 'name':
      return object.name;
    case 'state':
      return SEVERITY_RANK.get(object.stateName) ?? STATE_SEVERITY.length;
    case 'updatedAt':
      return object.updatedAt;
    case 'cluster':
      return object.cluster;
    case 'kind':
      return object.kind;
    case 'key':
    default:
      return object.key;
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** A position in a sorted list: the sort value and key of the last object of the previous page. */
interface Position {
  value: SortValue;
  key: string;
}

interface Cursor extends Position {
  sort: SortField;
  order: 'asc' | 'desc';
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(
    JSON.stringify([cursor.sort, cursor.order, cursor.value, cursor.key]),
  ).toString('base64url');
}

function decodeCursor(text: string, sort: SortField, order: 'asc' | 'desc'): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 4 ||
    (typeof parsed[2] !== 'string' && typeof parsed[2] !== 'number') ||
    typeof parsed[3] !== 'string'
  ) {
    throw new InputError(
      `The cursor '${text}' is not one this API gave out; start again without a cursor`,
    );
  }
  if (parsed[0] !== sort || parsed[1] !== order) {
    throw new InputError(
      `The cursor belongs to a list sorted by ${parsed[0]} ${parsed[1]}, not ${sort} ${order}; start again without a cursor`,
    );
  }
  return { value: parsed[2], key: parsed[3] };
}

/** A page of matching objects, in order, with the total and the next page's cursor. */
export interface ObjectPage {
  items: IndexedObject[];
  totalCount: number;
  nextCursor?: string;
}

/**
 * Orders matches and cuts one page without sorting them all: a bounded heap keeps the `limit` first objects after
 * the cursor, so a page of 100 out of 100k matches costs one pass, not a sort of 100k.
 */
export class PageSelector {
  private readonly heap: Array<{ object: IndexedObject; value: SortValue }> = [];
  private readonly after?: Position;
  private readonly sort: SortField;
  private readonly order: 'asc' | 'desc';
  private readonly limit: number;
  private total = 0;
  private afterCount = 0;

  constructor(query: Pick<ObjectQuery, 'sort' | 'order' | 'limit' | 'cursor'>) {
    this.sort = query.sort ?? 'key';
    this.order = query.order ?? 'asc';
    this.limit = Math.min(Math.max(query.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
    this.after = query.cursor
      ? decodeCursor(query.cursor, this.sort, this.order)
      : undefined;
  }

  /** Orders two positions: negative when `a` comes first. */
  private compare(a: Position, b: Position): number {
    const c = compareValues(a.value, b.value) || compareValues(a.key, b.key);
    return this.order === 'desc' ? -c : c;
  }

  /** Offers one matching object. */
  add(object: IndexedObject): void {
    this.total++;
    const position = { value: sortValue(object, this.sort), key: object.key };
    if (this.after && this.compare(position, this.after) <= 0) return;
    this.afterCount++;
    const heap = this.heap;
    const item = { object, value: position.value };
    if (heap.length < this.limit) {
      heap.push(item);
      this.siftUp(heap.length - 1);
    } else if (this.compareItems(item, heap[0]) < 0) {
      heap[0] = item;
      this.siftDown(0);
    }
  }

  /** The page, in order. */
  page(): ObjectPage {
    const items = [...this.heap].sort((a, b) => this.compareItems(a, b));
    const last = items[items.length - 1];
    return {
      items: items.map(i => i.object),
      totalCount: this.total,
      ...(this.afterCount > items.length &&
        last && {
          nextCursor: encodeCursor({
            sort: this.sort,
            order: this.order,
            value: last.value,
            key: last.object.key,
          }),
        }),
    };
  }

  private compareItems(
    a: { object: IndexedObject; value: SortValue },
    b: { object: IndexedObject; value: SortValue },
  ): number {
    return this.compare(
      { value: a.value, key: a.object.key },
      { value: b.value, key: b.object.key },
    );
  }

  // a max-heap on the page order: the root is the last of the kept objects
  private siftUp(start: number) {
    const heap = this.heap;
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compareItems(heap[i], heap[parent]) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  private siftDown(start: number) {
    const heap = this.heap;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < heap.length && this.compareItems(heap[left], heap[largest]) > 0) {
        largest = left;
      }
      if (right < heap.length && this.compareItems(heap[right], heap[largest]) > 0) {
        largest = right;
      }
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest], heap[i]];
      i = largest;
    }
  }
}

/** Free text as a case-insensitive matcher over the fields `q` searches (docs/api.md). */
export function textMatcher(q: string | undefined): ((o: IndexedObject) => boolean) | undefined {
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
