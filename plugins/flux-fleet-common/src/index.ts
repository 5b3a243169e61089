/**
 * Flux Fleet's vocabulary, data model and pure Flux derivations, shared by the backend, the catalog module and
 * the frontend. No I/O here.
 *
 * @packageDocumentation
 */
export * from './vocabulary';
export * from './types';
export * from './permissions';
export * from './api';
