/**
 * The API under load: Flux Fleet's entity view, object list with filters and fleet summary, and the catalog's own
 * entity lookup on the same backend as the baseline, each loaded in turn.
 */
import { ratio } from '../stats';
import { loadRoute, type RouteLoad } from './apiLoad';
import type { BackendClient } from './backendClient';

/** The figures of the API under load. */
export interface ApiUnderLoad {
  connections: number;
  seconds: number;
  routes: RouteLoad[];
  /** The route every other is compared with: the catalog's own entity lookup on the same backend. */
  baseline: string;
  /** p50 of each route over the baseline's p50. */
  p50ToBaseline: Record<string, number | undefined>;
}

/** Object lists of the fleet page: fleet-wide filters and text search, sorted. */
export function fleetWideObjectQueries(): string[] {
  const base = '/api/flux-fleet/objects';
  return [
    `${base}?kind=HelmRelease&state=failed&limit=100`,
    `${base}?state=failed,stalled,blocked&sort=updatedAt&order=desc&limit=100`,
    `${base}?q=api&sort=name&limit=100`,
  ];
}

/** Object lists of one cluster: its Kustomizations sorted by state, cluster after cluster. */
export function clusterObjectQueries(clusters: string[]): string[] {
  return clusters.map(
    c =>
      `/api/flux-fleet/objects?cluster=${encodeURIComponent(
        c,
      )}&kind=Kustomization&sort=state&limit=100`,
  );
}

/** Fails naming the path when one does not answer 200 (a load of errors measures nothing). */
async function checkPaths(
  client: BackendClient,
  paths: string[],
): Promise<void> {
  for (const path of new Set(paths)) {
    const answer = await client.call(path);
    if (answer.status !== 200) {
      throw new Error(
        `GET ${path} answered ${answer.status}: ${JSON.stringify(
          answer.body,
        )?.slice(0, 300)}`,
      );
    }
  }
}

/** Loads each route for `seconds` with `connections` requests in flight; the baseline last. */
export async function measureApiUnderLoad(options: {
  client: BackendClient;
  services: string[];
  clusters: string[];
  connections: number;
  seconds: number;
  log(line: string): void;
}): Promise<ApiUnderLoad> {
  const { client, services } = options;
  const routes: Record<string, string[]> = {
    'entity view': services.map(
      s => `/api/flux-fleet/entity/component/default/${s}`,
    ),
    'objects, fleet-wide filters': fleetWideObjectQueries(),
    'objects of one cluster and kind': clusterObjectQueries(options.clusters),
    'fleet summary': ['/api/flux-fleet/summary'],
    'baseline: catalog entity by name': services.map(
      s => `/api/catalog/entities/by-name/component/default/${s}`,
    ),
  };
  const loads: RouteLoad[] = [];
  for (const [name, paths] of Object.entries(routes)) {
    await checkPaths(client, paths);
    options.log(
      `API under load: ${name}, ${options.connections} connections, ${options.seconds} s`,
    );
    loads.push(
      await loadRoute({
        name,
        baseUrl: client.baseUrl,
        token: client.token,
        paths,
        seconds: options.seconds,
        connections: options.connections,
      }),
    );
  }
  const baseline = loads[loads.length - 1];
  return {
    connections: options.connections,
    seconds: options.seconds,
    routes: loads,
    baseline: baseline.name,
    p50ToBaseline: Object.fromEntries(
      loads.map(l => [l.name, ratio(l.latencyMs.p50, baseline.latencyMs.p50)]),
    ),
  };
}
