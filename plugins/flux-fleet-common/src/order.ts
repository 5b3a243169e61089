/**
 * Orderings shared by every output Flux Fleet emits, so that unchanged input always gives byte-identical output
 * (catalog entities, findings, summaries). Plain code-unit order, never the locale's.
 */
import { MAIN_SHARD } from './vocabulary';

/** Text in code-unit order. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Shard names with `main` first, then in text order. */
export function compareShardNames(a: string, b: string): number {
  if (a === b) return 0;
  if (a === MAIN_SHARD) return -1;
  if (b === MAIN_SHARD) return 1;
  return compareText(a, b);
}
