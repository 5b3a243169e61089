import { ResponseError } from '@backstage/errors';

/**
 * The message to show for a failed request: the backend's own words (e.g. "the credentials for cluster prod-eu-1
 * are read-only") rather than the generic "Request failed with 403 Forbidden" that wraps them.
 */
export function errorMessage(error: unknown): string {
  if (ResponseError.is(error)) {
    const remote = error.cause?.message;
    return remote ? remote : error.message;
  }
  if (error instanceof Error) {
    return error.message;
  }
  return String(error);
}
