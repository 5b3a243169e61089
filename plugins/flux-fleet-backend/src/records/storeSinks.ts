import {
  fluxObjectKey,
  isFluxKind,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { InformerSink } from '../watch/ResourceInformer';
import { sameValue } from './recordChange';

/**
 * A sink for the supporting objects of a store, kept in a map. Any change to them is structural: controllers decide owners,
 * namespaces tenants, workloads services. The map keeps what `kept` takes of each value read (all of it by default).
 */
export function keyedSink<T, K = T>(
  store: {
    markStructural(): void;
    noteMalformed(kind: string, raw: unknown, error: string): void;
  },
  map: Map<string, K>,
  read: (raw: unknown) => { value: T } | { ignored: true } | { error: string },
  keyOf: (value: T) => string,
  keyOfDeleted?: (raw: unknown) => string | undefined,
  /** Whether an entry is this sink's (a list removes the entries of this sink it did not see). */
  belongs: (key: string) => boolean = () => true,
  kept: (value: T) => K = value => value as unknown as K,
): InformerSink {
  let seen: Set<string> | undefined;
  const removeKey = (key: string) => {
    if (map.delete(key)) store.markStructural();
  };
  return {
    listStarted: () => {
      seen = new Set();
    },
    upsert: raw => {
      const result = read(raw);
      if ('error' in result) {
        store.noteMalformed('object', raw, result.error);
        return;
      }
      if ('ignored' in result) return;
      const key = keyOf(result.value);
      seen?.add(key);
      const value = kept(result.value);
      if (!sameValue(map.get(key), value)) {
        map.set(key, value);
        store.markStructural();
      }
    },
    remove: raw => {
      const result = read(raw);
      const key = 'value' in result ? keyOf(result.value) : keyOfDeleted?.(raw);
      if (key) removeKey(key);
    },
    listFinished: () => {
      if (!seen) return;
      for (const key of map.keys()) {
        if (belongs(key) && !seen.has(key)) removeKey(key);
      }
      seen = undefined;
    },
  };
}


export function resultOf<T>(
  result:
    | { record: T; error?: undefined }
    | { record?: undefined; error: string },
): { value: T } | { error: string } {
  return result.record ? { value: result.record } : { error: result.error! };
}

function metadataOf(raw: unknown): { name?: unknown; namespace?: unknown } {
  return ((raw as { metadata?: unknown })?.metadata ?? {}) as {
    name?: unknown;
    namespace?: unknown;
  };
}

export function metadataKey(raw: unknown): string | undefined {
  const { name, namespace } = metadataOf(raw);
  return typeof name === 'string' && typeof namespace === 'string'
    ? `${namespace}/${name}`
    : undefined;
}

/** The key of a raw Flux object of a known kind (for deletions, which need no normalising). */
export function keyOfRaw(
  cluster: string,
  kind: string,
  raw: unknown,
): string | undefined {
  const { name, namespace } = metadataOf(raw);
  if (
    !isFluxKind(kind) ||
    typeof name !== 'string' ||
    typeof namespace !== 'string'
  ) {
    return undefined;
  }
  return fluxObjectKey(cluster, namespace, kind, name);
}

export function describeRaw(kind: string, raw: unknown): string {
  const { name, namespace } = metadataOf(raw);
  return `${kind} ${String(namespace ?? '')}/${String(name ?? '?')}`;
}
