/*
 * STAND-IN until `@flux-fleet/plugin-flux-fleet-common` exports its `entityNames.ts` (issue 2, item 10): the
 * catalog entity names and label keys of Flux Fleet belong there, beside the rest of the vocabulary. This file
 * keeps the same shape so that swapping it for the common exports is an import change; delete it then.
 */
import { createHash } from 'node:crypto';
import type { FluxObjectRef } from '@flux-fleet/plugin-flux-fleet-common';

/** Label (and annotation) keys Flux Fleet puts on catalog entities. */
export const ENTITY_LABELS = {
  cluster: 'flux-fleet.io/cluster',
  instance: 'flux-fleet.io/instance',
  shard: 'flux-fleet.io/shard',
  tenant: 'flux-fleet.io/tenant',
  namespace: 'flux-fleet.io/namespace',
  kind: 'flux-fleet.io/kind',
} as const;

const MAX_LENGTH = 63;
const HASH_LENGTH = 8;

/** Replaces what Backstage names and label values do not allow, and trims separators at both ends. */
function sanitize(value: string): string {
  return value
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

/** Joins parts into a valid name; when too long, a prefix plus a short stable hash of the whole. */
function nameOf(parts: string[]): string {
  const full = parts.map(sanitize).filter(Boolean).join('.');
  const raw = parts.join('/');
  if (full.length <= MAX_LENGTH && full.length > 0) return full;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, HASH_LENGTH);
  const prefix = sanitize(full.slice(0, MAX_LENGTH - HASH_LENGTH - 1));
  return prefix ? `${prefix}-${hash}` : hash;
}

/** A valid label value for a value, hashed when too long. */
export function entityLabelValue(value: string): string {
  return nameOf([value]);
}

/** Entity name of a cluster. */
export function clusterEntityName(cluster: string): string {
  return nameOf([cluster]);
}

/** Entity name of a Flux instance. */
export function instanceEntityName(cluster: string, instance: string): string {
  return nameOf([cluster, instance]);
}

/** Entity name of a shard. */
export function shardEntityName(
  cluster: string,
  instance: string,
  shard: string,
): string {
  return nameOf([cluster, instance, shard]);
}

/** Entity name of a Flux object. */
export function objectEntityName(ref: FluxObjectRef): string {
  return nameOf([ref.cluster, ref.namespace, ref.kind.toLowerCase(), ref.name]);
}
