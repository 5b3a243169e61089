/**
 * Catalog entity names for clusters, instances, shards and Flux objects, and the labels Flux Fleet puts on
 * entities. Names are deterministic, readable (`prod-eu.flux-system.shard1`,
 * `prod-eu.team-payments.kustomization.payments-api`) and valid under Backstage's rules (at most 63 of
 * `[A-Za-z0-9-_.]`, starting and ending with a letter or digit). When the readable form would be too long, or
 * would lose information (a character Backstage does not allow, an empty part), a short stable hash of the exact
 * identity is appended so that different identities never share a name.
 */
import type { FluxObjectRef } from './types';

/** Label keys Flux Fleet puts on catalog entities (values sanitised); the same keys as annotations hold the exact values. */
export const ENTITY_LABELS = {
  cluster: 'flux-fleet.io/cluster',
  instance: 'flux-fleet.io/instance',
  shard: 'flux-fleet.io/shard',
  tenant: 'flux-fleet.io/tenant',
  namespace: 'flux-fleet.io/namespace',
  kind: 'flux-fleet.io/kind',
} as const;

/** Annotation keys Flux Fleet puts on catalog entities. */
export const ENTITY_ANNOTATIONS = {
  /** The key of the Flux object an entity stands for, `cluster/namespace/kind/name`. */
  objectKey: 'flux-fleet.io/object-key',
} as const;

/** Longest entity name and label value Backstage accepts. */
export const MAX_ENTITY_NAME_LENGTH = 63;

const HASH_LENGTH = 10;
const VALID = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Whether a text is a valid Backstage entity name (and a valid non-empty label value). */
export function isValidEntityName(value: string): boolean {
  return (
    value.length >= 1 &&
    value.length <= MAX_ENTITY_NAME_LENGTH &&
    VALID.test(value)
  );
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/**
 * A short stable hash of a text (FNV-1a, 64 bits over its UTF-8 bytes, first 40 bits in base 16): the same in
 * every process, browser or Node.
 */
export function shortHash(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0').slice(0, HASH_LENGTH);
}

/** A part with what Backstage does not allow replaced by `-`, and separators trimmed at both ends. */
function sanitize(part: string): string {
  return part
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

/**
 * Joins parts with `.` into a valid name, hashing the exact parts when the readable form is lossy or too long.
 * A `.` inside a part would pass for a separator (`prod.eu` + `x` = `prod` + `eu.x`), so it counts as lossy,
 * except in the last part when `lastMayHoldDots` (Kubernetes object names such as `podinfo.v1`, after a fixed
 * number of parts that never hold one).
 */
function nameOf(parts: readonly string[], lastMayHoldDots = false): string {
  const clean = parts.map(sanitize);
  const lossy = clean.some(
    (c, i) =>
      c !== parts[i] ||
      c === '' ||
      (c.includes('.') && !(lastMayHoldDots && i === parts.length - 1)),
  );
  const readable = clean.filter(Boolean).join('.');
  if (!lossy && readable.length <= MAX_ENTITY_NAME_LENGTH) {
    return readable;
  }
  // JSON keeps the parts apart exactly (a `.` inside a part cannot pass for a separator).
  const hash = shortHash(JSON.stringify(parts));
  const prefix = sanitize(
    readable.slice(0, MAX_ENTITY_NAME_LENGTH - HASH_LENGTH - 1),
  );
  return prefix ? `${prefix}-${hash}` : hash;
}

/** A valid label value for any text: sanitised, and hashed when that loses information or it is too long. */
export function entityLabelValue(value: string): string {
  if (value === '') return '';
  return nameOf([value], true);
}

/** Entity name of a cluster: `prod-eu`. */
export function clusterEntityName(cluster: string): string {
  return nameOf([cluster]);
}

/** Entity name of a Flux instance: `prod-eu.flux-system`. */
export function instanceEntityName(cluster: string, instance: string): string {
  return nameOf([cluster, instance]);
}

/** Entity name of a shard: `prod-eu.flux-system.shard1`. */
export function shardEntityName(
  cluster: string,
  instance: string,
  shard: string,
): string {
  return nameOf([cluster, instance, shard]);
}

/** Entity name of a Flux object: `prod-eu.team-payments.kustomization.payments-api`. */
export function objectEntityName(ref: FluxObjectRef): string {
  return nameOf(
    [ref.cluster, ref.namespace, ref.kind.toLowerCase(), ref.name],
    true,
  );
}

/** What {@link entityLabels} labels an entity with; null or absent values are left out. */
export type EntityLabelValues = Partial<
  Record<keyof typeof ENTITY_LABELS, string | null | undefined>
>;

/**
 * The labels (sanitised values, for catalog filters such as `metadata.labels.flux-fleet.io/shard=shard2`) and
 * annotations (the exact values) Flux Fleet puts on an entity, in key order.
 */
export function entityLabels(values: EntityLabelValues): {
  labels: Record<string, string>;
  annotations: Record<string, string>;
} {
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  const fields = Object.keys(ENTITY_LABELS) as Array<
    keyof typeof ENTITY_LABELS
  >;
  for (const field of fields.sort((a, b) =>
    ENTITY_LABELS[a] < ENTITY_LABELS[b] ? -1 : 1,
  )) {
    const value = values[field];
    if (value === undefined || value === null || value === '') continue;
    labels[ENTITY_LABELS[field]] = entityLabelValue(value);
    annotations[ENTITY_LABELS[field]] = value;
  }
  return { labels, annotations };
}
