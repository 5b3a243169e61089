import type {
  Finding,
  FindingType,
  ObjectQuery,
  Owner,
  TenancyBoundary,
} from '@flux-fleet/plugin-flux-fleet-common';
import {
  FLUX_KINDS,
  RECONCILE_STATES,
} from '@flux-fleet/plugin-flux-fleet-common';

export const NO_FINDINGS: readonly FindingType[] = Object.freeze([]);

/**
 * Equal lists of finding types are one frozen array, shared by every object of every cluster that has them, and
 * numbered: the view keeps the number. Code 0 is "no findings".
 */
export const findingTypeLists: Array<readonly FindingType[]> = [NO_FINDINGS];
const findingTypeCodes = new Map<string, number>([['', 0]]);

/** The number of the list of finding types of some findings. */
export function findingTypesCodeOf(findings: readonly Finding[]): number {
  if (findings.length === 0) return 0;
  const types = [...new Set(findings.map(f => f.type))];
  const signature = types.join(',');
  let code = findingTypeCodes.get(signature);
  if (code === undefined) {
    code = findingTypeLists.length;
    findingTypeLists.push(Object.freeze(types));
    findingTypeCodes.set(signature, code);
  }
  return code;
}

/** Which of `names` a filter allows, by position; undefined when the filter is absent (all are). */
export function maskOf(names: readonly string[], allowed: readonly string[] | undefined): Uint8Array | undefined {
  if (!allowed?.length) return undefined;
  return Uint8Array.from(names, name => (allowed.includes(name) ? 1 : 0));
}

/** A filter decided for each distinct value once, by code; undefined when there is no filter. */
export function decide<T>(values: readonly T[], passes: ((value: T) => boolean) | undefined): Uint8Array | undefined {
  return passes && Uint8Array.from(values, value => (passes(value) ? 1 : 0));
}

/** The owner filter of a query, decided per distinct owner; undefined when the query has none. */
export function ownerFilter(query: ObjectQuery): ((owner: Owner) => boolean) | undefined {
  const { owner: statuses, instance, shard } = query;
  if (!statuses?.length && !instance?.length && !shard?.length) return undefined;
  return owner =>
    (!statuses?.length || statuses.includes(owner.status)) &&
    (!instance?.length || (owner.instance !== null && instance.includes(owner.instance))) &&
    (!shard?.length || (owner.shard !== null && shard.includes(owner.shard)));
}

/** A boundary's namespace is its object's (rules §5), so the namespace filter is decided per boundary too. */
export function boundaryFilter(query: ObjectQuery): ((boundary: TenancyBoundary) => boolean) | undefined {
  const { namespace, tenant } = query;
  if (!namespace?.length && !tenant?.length) return undefined;
  return boundary =>
    (!namespace?.length || namespace.includes(boundary.namespace)) &&
    (!tenant?.length || (boundary.tenant !== null && tenant.includes(boundary.tenant)));
}

export const KIND_CODE = new Map<string, number>(FLUX_KINDS.map((k, i) => [k, i]));
export const STATE_CODE = new Map<string, number>(RECONCILE_STATES.map((s, i) => [s, i]));

/** The object is in the view (an analysis has derived it). */
export const SHOWN = 1;
/** Its reconcile request has gone unhandled (rules §2), as last derived. */
export const NOT_HANDLED = 2;
/** Its state's message is its Ready condition's (most are): read from the record, not kept twice. */
export const MESSAGE_IS_READY = 4;

/**
 * Numbers the distinct values a column holds (owners, boundaries), for one analysis: the view keeps a number per
 * object, not a reference.
 */
export class ValueList<T> {
  readonly values: T[] = [];
  private readonly codes = new Map<T, number>();

  codeOf(value: T): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }
}
