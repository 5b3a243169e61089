/**
 * Entity page views of the two plugins on the same backend and fleet, and what each costs the clusters:
 *  - Flux Fleet: `GET /api/flux-fleet/entity/component/default/<name>` (its entity card and tab), answered from
 *    the index;
 *  - the Kubernetes plugin's entity tab: `POST /api/kubernetes/services/<name>` with the entity (refreshed every
 *    10 s while the tab is open), which asks every cluster for its object types and the Flux custom resources;
 *  - the community Flux plugin's entity cards (`EntityFluxDeploymentsCard`, `EntityFluxSourcesCard`): two
 *    `POST /api/kubernetes/resources/custom/query` at once, for HelmRelease + Kustomization and for the sources.
 * Cluster requests are counted at the simulator by user: Flux Fleet reads as each cluster's admin user, the
 * Kubernetes plugin with the read-only token.
 */
import type { RunningSimulator } from '../simulator';
import { distribution, round2, type Distribution } from '../stats';
import type { BackendClient, TimedAnswer } from './backendClient';
import { FLUX_CUSTOM_RESOURCES } from './backendConfig';

/** The plugins (and ways of using them) compared. */
export type PageKind = 'fluxFleet' | 'kubernetesTab' | 'fluxCards';

/** What a page kind requests, for the report. */
export const PAGE_REQUESTS: Record<
  PageKind,
  { plugin: string; short: string; request: string; clusterUser: string }
> = {
  fluxFleet: {
    plugin: 'Flux Fleet',
    short: 'Flux Fleet',
    request: 'GET /api/flux-fleet/entity/component/default/:name',
    clusterUser: 'flux-fleet-admin',
  },
  kubernetesTab: {
    plugin: 'Kubernetes plugin, entity tab',
    short: "the Kubernetes plugin's entity tab",
    request: 'POST /api/kubernetes/services/:name',
    clusterUser: 'flux-fleet-readonly',
  },
  fluxCards: {
    plugin: 'community Flux plugin, deployments + sources cards',
    short: "the community Flux plugin's cards",
    request: '2 × POST /api/kubernetes/resources/custom/query',
    clusterUser: 'flux-fleet-readonly',
  },
};

/** The figures of a series of page views. */
export interface PageViewSeries {
  kind: PageKind;
  views: number;
  latencyMs: Distribution;
  /** Views that answered something else than 200, or not within the timeout. */
  failed: number;
  timedOut: number;
  /** Answers by HTTP status (`0`: none within the timeout). */
  statuses: Record<string, number>;
  /** Flux objects a view shows, on average (a check that both plugins find the entity's objects). */
  fluxObjectsPerView: number;
  /** Kubernetes plugin only: errors its answers list per view (404s of types or versions a cluster lacks). */
  clusterErrorsPerView?: number;
  /** Requests the simulated clusters received from this plugin during the views. */
  clusterRequests: number;
  clusterRequestsPerView: number;
  /**
   * Flux Fleet only: requests it makes anyway besides those the simulator's counts leave out (relists,
   * discovery), at the rate measured over an idle window just before; `clusterRequests` minus what that rate
   * predicts is what the views caused.
   */
  background?: { requestsPerSecond: number; expectedDuringViews: number };
}

/** The Kubernetes backend's answer: per cluster, resources by type, and the errors of the requests that failed. */
interface KubernetesAnswer {
  items?: Array<{
    resources?: Array<{ type: string; resources?: unknown[] }>;
    errors?: unknown[];
  }>;
}

/** Flux objects and cluster errors in a view's answer (the Flux cards' answer is the list of both cards'). */
export function countShown(
  kind: PageKind,
  body: unknown,
): { fluxObjects: number; clusterErrors: number } {
  if (kind === 'fluxFleet') {
    return {
      fluxObjects:
        (body as { objects?: unknown[] } | undefined)?.objects?.length ?? 0,
      clusterErrors: 0,
    };
  }
  const answers = (Array.isArray(body) ? body : [body]) as Array<
    KubernetesAnswer | undefined
  >;
  let fluxObjects = 0;
  let clusterErrors = 0;
  for (const answer of answers) {
    for (const cluster of answer?.items ?? []) {
      clusterErrors += cluster.errors?.length ?? 0;
      for (const group of cluster.resources ?? []) {
        if (group.type === 'customresources')
          fluxObjects += group.resources?.length ?? 0;
      }
    }
  }
  return { fluxObjects, clusterErrors };
}

/** Answers a page view of one kind for one service. */
export type PageView = (
  service: string,
  timeoutMs: number,
) => Promise<TimedAnswer>;

/** The page views of each kind against one backend (entities are read from its catalog once). */
export async function pageViewers(
  client: BackendClient,
  services: string[],
): Promise<Record<PageKind, PageView>> {
  // catalog entities pass through untouched, as the Kubernetes frontend sends them
  const entities = new Map<string, unknown>();
  for (const service of services) {
    entities.set(
      service,
      await client.get<unknown>(
        `/api/catalog/entities/by-name/component/default/${service}`,
      ),
    );
  }
  const customQuery = (
    service: string,
    customResources: object[],
    timeoutMs: number,
  ) =>
    client.call('/api/kubernetes/resources/custom/query', {
      body: { entityRef: `component:default/${service}`, customResources },
      timeoutMs,
    });
  return {
    fluxFleet: (service, timeoutMs) =>
      client.call(`/api/flux-fleet/entity/component/default/${service}`, {
        timeoutMs,
      }),
    kubernetesTab: (service, timeoutMs) =>
      client.call(`/api/kubernetes/services/${service}`, {
        body: { entity: entities.get(service) },
        timeoutMs,
      }),
    fluxCards: async (service, timeoutMs) => {
      const [deployments, sources] = await Promise.all([
        customQuery(service, FLUX_CUSTOM_RESOURCES.deployments, timeoutMs),
        customQuery(service, FLUX_CUSTOM_RESOURCES.sources, timeoutMs),
      ]);
      // the page is complete when both cards are
      const slower = deployments.ms >= sources.ms ? deployments : sources;
      const failedOne = [deployments, sources].find(a => a.status !== 200);
      return {
        ...slower,
        body: [deployments.body, sources.body],
        status: failedOne?.status ?? 200,
        timedOut: deployments.timedOut || sources.timedOut,
      };
    },
  };
}

/**
 * Views `views` pages of one kind over `services`: one after another (what one user waits for), or all at once
 * (`concurrent`, used when a cluster hangs, so that the series takes one timeout rather than one per view).
 */
export async function viewPages(options: {
  kind: PageKind;
  view: PageView;
  services: string[];
  views: number;
  timeoutMs: number;
  simulator: RunningSimulator;
  concurrent?: boolean;
  /** Seconds of idle time first, to learn Flux Fleet's background request rate. */
  idleSeconds?: number;
}): Promise<PageViewSeries> {
  const user = PAGE_REQUESTS[options.kind].clusterUser;
  const requestsOf = async () =>
    (await options.simulator.requestsByUser())[user] ?? 0;

  let background: PageViewSeries['background'];
  let backgroundRate = 0;
  if (options.idleSeconds) {
    const before = await requestsOf();
    await new Promise(r => setTimeout(r, options.idleSeconds! * 1000));
    backgroundRate = ((await requestsOf()) - before) / options.idleSeconds;
  }

  const before = await requestsOf();
  const started = Date.now();
  const services = Array.from(
    { length: options.views },
    (_, i) => options.services[i % options.services.length],
  );
  const answers: TimedAnswer[] = [];
  if (options.concurrent) {
    answers.push(
      ...(await Promise.all(
        services.map(s => options.view(s, options.timeoutMs)),
      )),
    );
  } else {
    for (const service of services)
      answers.push(await options.view(service, options.timeoutMs));
  }
  const seconds = (Date.now() - started) / 1000;
  const clusterRequests = (await requestsOf()) - before;
  if (options.idleSeconds) {
    background = {
      requestsPerSecond: round2(backgroundRate),
      expectedDuringViews: round2(backgroundRate * seconds),
    };
  }
  const caused = clusterRequests - (background?.expectedDuringViews ?? 0);
  const shown = answers
    .filter(a => a.status === 200)
    .map(a => countShown(options.kind, a.body));
  const mean = (values: number[]) =>
    values.length
      ? round2(values.reduce((x, y) => x + y, 0) / values.length)
      : 0;
  return {
    kind: options.kind,
    views: options.views,
    latencyMs: distribution(answers.map(a => a.ms)),
    failed: answers.filter(a => a.status !== 200).length,
    timedOut: answers.filter(a => a.timedOut).length,
    statuses: answers.reduce<Record<string, number>>((counts, a) => {
      counts[a.status] = (counts[a.status] ?? 0) + 1;
      return counts;
    }, {}),
    fluxObjectsPerView: mean(shown.map(c => c.fluxObjects)),
    ...(options.kind === 'fluxFleet'
      ? {}
      : { clusterErrorsPerView: mean(shown.map(c => c.clusterErrors)) }),
    clusterRequests,
    clusterRequestsPerView: round2(Math.max(0, caused) / options.views),
    ...(background ? { background } : {}),
  };
}
