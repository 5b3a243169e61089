export { FleetObjectsTable } from './FleetObjectsTable';
export type { ObjectFilters } from './useCursorPages';
