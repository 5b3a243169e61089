export { FleetObjectsTable } from './FleetObjectsTable';
export type { ObjectFilters } from './useCursorPages';
export { shardFilters } from './shardFilters';
