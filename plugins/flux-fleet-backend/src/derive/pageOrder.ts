import { InputError } from '@backstage/errors';
import {
  FLUX_KINDS,
  ObjectQuery,
  RECONCILE_STATES,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { IndexedObject } from './IndexedObject';
import { STATE_SEVERITY } from './objectQuery';

/** The sort field of `GET /objects`. */
export type SortField = NonNullable<ObjectQuery['sort']>;
/** The value an object sorts by, as the cursor carries it (docs/api.md). */
export type SortValue = string | number;

/** An object's severity by state code (position in `RECONCILE_STATES`): states `STATE_SEVERITY` lacks go last. */
export const SEVERITY_BY_STATE_CODE = Uint8Array.from(RECONCILE_STATES, s => {
  const i = STATE_SEVERITY.indexOf(s);
  return i < 0 ? STATE_SEVERITY.length : i;
});

/** The kinds in name order, and each kind's rank in it by kind code (position in `FLUX_KINDS`). */
export const KINDS_BY_NAME: readonly string[] = [...FLUX_KINDS].sort();
export const KIND_RANK_BY_CODE = Uint32Array.from(FLUX_KINDS, k => KINDS_BY_NAME.indexOf(k));

/** The value of an object a sort orders by, as the cursor carries it: a string or number, compared with `<`. */
export function sortValue(object: IndexedObject, sort: SortField): SortValue {
  switch (sort) {
    case 'name':
      return object.name;
    case 'state':
      return STATE_SEVERITY.indexOf(object.stateName) < 0
        ? STATE_SEVERITY.length
        : STATE_SEVERITY.indexOf(object.stateName);
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

/** A position in a sorted list: the sort value and key of the last object of the previous page. */
export interface Position {
  value: SortValue;
  key: string;
}

/** The opaque cursor of the page after `position` (base64url of JSON: sort, order, value, key). */
export function encodeCursor(sort: SortField, order: 'asc' | 'desc', position: Position): string {
  return Buffer.from(JSON.stringify([sort, order, position.value, position.key])).toString('base64url');
}

/** The position a cursor this API gave out stands for; InputError for any other text, or another sort's cursor. */
export function decodeCursor(text: string, sort: SortField, order: 'asc' | 'desc'): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const numeric = sort === 'state' || sort === 'updatedAt';
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 4 ||
    typeof parsed[2] !== (numeric ? 'number' : 'string') ||
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

/**
 * Where `value` falls in `sorted` (ascending, distinct): its index when it is there, else half-way between its
 * neighbours, so that comparing ranks orders it as comparing the values would.
 */
export function rankIn(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid;
  }
  return sorted[low] === value ? low : low - 0.5;
}
