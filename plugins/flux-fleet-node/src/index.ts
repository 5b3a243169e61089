/**
 * Service references other backend plugins use to read the Flux Fleet index without going over HTTP.
 *
 * @packageDocumentation
 */
export * from './fleetIndexService';
