import type { ObjectFilters } from './useCursorPages';

/** The filters of one shard's objects: a shard's name is only unique within its cluster's Flux instance. */
export function shardFilters(cluster: string, instance: string, shard: string): ObjectFilters {
  return { cluster: [cluster], instance: [instance], shard: [shard] };
}
