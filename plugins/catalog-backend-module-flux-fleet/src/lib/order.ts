/**
 * Text in code-unit order, never the locale's, so the same structure always gives byte-identical entities.
 * (`flux-fleet-common` has the same comparison in `order.ts`; use it from there once its index exports it.)
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
