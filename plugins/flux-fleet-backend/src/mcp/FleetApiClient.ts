import type {
  AuthService,
  BackstageCredentials,
  DiscoveryService,
} from '@backstage/backend-plugin-api';
import {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ResponseError,
  ServiceUnavailableError,
} from '@backstage/errors';

/** Query parameters of a GET: list filters become repeated parameters, undefined ones are left out. */
export type ApiQuery = Record<string, string | number | boolean | readonly string[] | undefined>;

/** The errors the REST API answers with, by the name in its error body, so a caller sees the API's own words. */
const ERRORS_BY_NAME: Record<string, new (message: string) => Error> = {
  InputError,
  AuthenticationError,
  NotAllowedError,
  NotFoundError,
  ConflictError,
  ServiceUnavailableError,
};

/**
 * Flux Fleet's own REST API (`/api/flux-fleet`, docs/api.md), called on behalf of the caller of an action.
 *
 * The actions go through HTTP instead of calling the fleet index, as Backstage's catalog actions go through the
 * catalog client: the read filter (`flux-fleet.object.read`), the action permissions, the refusal of service
 * principals, the audit records and the read-only refusals are then the very code the REST API runs, so an action
 * can answer neither more nor differently than the API would for the same person. A user's credentials stay a
 * user's through `getPluginRequestToken({ onBehalfOf })`: the token it issues carries the user as its principal.
 */
export class FleetApiClient {
  constructor(
    private readonly auth: AuthService,
    private readonly discovery: DiscoveryService,
  ) {}

  /** GET a path of the API as the caller; the parsed body, or the API's error. */
  get<T>(path: string, query: ApiQuery, credentials: BackstageCredentials): Promise<T> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
    }
    const search = params.toString();
    return this.request<T>('GET', search ? `${path}?${search}` : path, undefined, credentials);
  }

  /** POST to a path of the API as the caller; the parsed body, or the API's error. */
  post<T>(path: string, body: object, credentials: BackstageCredentials): Promise<T> {
    return this.request<T>('POST', path, body, credentials);
  }

  private async request<T>(
    method: 'GET' | 'POST',
    path: string,
    body: object | undefined,
    credentials: BackstageCredentials,
  ): Promise<T> {
    const [baseUrl, { token }] = await Promise.all([
      this.discovery.getBaseUrl('flux-fleet'),
      this.auth.getPluginRequestToken({ onBehalfOf: credentials, targetPluginId: 'flux-fleet' }),
    ]);
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body && { 'Content-Type': 'application/json' }),
      },
      body: body && JSON.stringify(body),
    });
    if (response.ok) return (await response.json()) as T;
    throw await apiError(response);
  }
}

/** The API's error as the error of the same name, with the API's message (which names the cluster and object). */
async function apiError(response: Response): Promise<Error> {
  const error = await ResponseError.fromResponse(response);
  const Known = ERRORS_BY_NAME[error.body?.error?.name];
  return Known ? new Known(error.body.error.message) : error;
}

/** The API path of one Flux object, each segment encoded. */
export function objectPath(ref: {
  cluster: string;
  namespace: string;
  kind: string;
  name: string;
}): string {
  return `/objects/${[ref.cluster, ref.namespace, ref.kind, ref.name].map(encodeURIComponent).join('/')}`;
}
