/**
 * Service references other backend plugins use to read the Flux Fleet index without going over HTTP, and the
 * coalescing helper the backend and the catalog module share.
 *
 * @packageDocumentation
 */
export * from './fleetIndexService';
export * from './Coalescer';
