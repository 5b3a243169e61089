import { ObjectQuery } from '@flux-fleet/plugin-flux-fleet-common';

/**
 * The query string of `GET /objects` for a query: list filters comma-separated, empty filters left out, so the
 * same query always gives the same URL (and the browser's cache and the tests can rely on it).
 */
export function objectQueryParams(query: ObjectQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') {
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length > 0) {
        params.set(name, value.join(','));
      }
    } else {
      params.set(name, String(value));
    }
  }
  params.sort();
  return params;
}
