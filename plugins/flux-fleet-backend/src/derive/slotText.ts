import type { ViewColumns } from './ViewColumns';

/** Free text `q` as a case-insensitive pattern (docs/api.md); undefined when there is none. */
export function textPattern(q: string | undefined): RegExp | undefined {
  const text = q?.trim();
  if (!text) return undefined;
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

/**
 * The free-text filter of a query over one cluster's view, by slot: the fields `q` searches (name, namespace,
 * cluster, service, tenant, message; docs/api.md). The cluster is tested once, namespace and tenant once per
 * distinct boundary, the service once per distinct service; only name and message are tested per object, and
 * only when nothing shared matched. Undefined when every object of the view matches (the cluster's name does).
 */
export function slotTextMatcher(
  view: ViewColumns,
  pattern: RegExp,
): ((slot: number) => boolean) | undefined {
  if (pattern.test(view.cluster)) return undefined;
  const boundaries = Uint8Array.from(view.boundaryList(), b =>
    pattern.test(b.namespace) || (b.tenant !== null && pattern.test(b.tenant)) ? 1 : 0,
  );
  const services = new Map<string, boolean>();
  const serviceMatches = (service: string) => {
    let matches = services.get(service);
    if (matches === undefined) {
      matches = pattern.test(service);
      services.set(service, matches);
    }
    return matches;
  };
  return slot => {
    if (boundaries[view.boundaryCodeOf(slot)]) return true;
    const service = view.serviceOf(slot);
    if (service !== null && serviceMatches(service)) return true;
    if (pattern.test(view.nameAt(slot))) return true;
    const message = view.stateMessageOf(slot);
    return message !== undefined && pattern.test(message);
  };
}
