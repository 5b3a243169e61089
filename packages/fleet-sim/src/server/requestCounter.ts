/**
 * Counts the requests a simulated cluster receives, by who sent them, so that a benchmark can tell what a client
 * costs the cluster (for example how many API requests one page view makes). Every request counts, including
 * the ones a fault delays or never answers.
 */

/** Requests received since the cluster started. */
export interface RequestCounts {
  total: number;
  /** User name (`flux-fleet-admin`, `flux-fleet-readonly`, `system:anonymous`, or `unauthenticated`) → requests. */
  byUser: Record<string, number>;
  /**
   * Of those, the requests through the pod proxy (`…/pods/{pod}:{port}/proxy/…`, metrics scrapes), by user: a
   * benchmark tells a client's API reads from its capacity collector's scrapes, which follow their own schedule.
   */
  podProxyByUser: Record<string, number>;
  /**
   * Of those, a controller's lookups before it is scraped, by user: GET of one Deployment, and a list of one
   * namespace's pods (not a watch). A capacity collector makes both for every controller each round; a benchmark
   * leaves them out of what a page view costs, as it does the scrapes.
   */
  controllerLookupsByUser: Record<string, number>;
  /**
   * Of those, the requests that open a watch (`watch=1` or `watch=true`), by user: a watcher renews its watches on
   * its own schedule (the server ends each after its timeout), so a benchmark leaves them out of what a page view
   * costs, as it does the scrapes.
   */
  watchesByUser: Record<string, number>;
  /** Of those, `GET /version`, by user: the probes by which a watcher notices a server that stopped answering. */
  versionProbesByUser: Record<string, number>;
  /**
   * Of those, `SelfSubjectAccessReview`s, by user: a client asking whether its credentials may write, which Flux
   * Fleet does for every cluster every five minutes whatever pages are viewed; a benchmark leaves them out of what
   * a page view costs, as it does the probes.
   */
  accessReviewsByUser: Record<string, number>;
}

/** What a request is, for the counts above. */
export type RequestClass = 'api' | 'pod-proxy' | 'controller-lookup' | 'watch' | 'version-probe' | 'access-review';

/** A request through the pod proxy: `/api/v1/namespaces/{ns}/pods/{pod}[:{port}]/proxy[/…]`. */
const POD_PROXY = /^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+\/proxy(\/|\?|$)/;
const ONE_DEPLOYMENT = /^\/apis\/apps\/v1\/namespaces\/[^/]+\/deployments\/[^/?]+(\?|$)/;
const NAMESPACE_PODS = /^\/api\/v1\/namespaces\/[^/]+\/pods(\?|$)/;
const WATCH = /[?&]watch=(1|true)(&|$)/;
const VERSION = /^\/version\/?(\?|$)/;
const ACCESS_REVIEW = /^\/apis\/authorization\.k8s\.io\/v1\/selfsubjectaccessreviews\/?(\?|$)/;

/** The class of a request by its method and URL. */
export function requestClassOf(method: string | undefined, url: string): RequestClass {
  if (POD_PROXY.test(url)) return 'pod-proxy';
  if (method === 'POST' && ACCESS_REVIEW.test(url)) return 'access-review';
  if (method !== 'GET') return 'api';
  if (WATCH.test(url)) return 'watch';
  if (ONE_DEPLOYMENT.test(url) || NAMESPACE_PODS.test(url)) return 'controller-lookup';
  if (VERSION.test(url)) return 'version-probe';
  return 'api';
}

/** The counter of one cluster server. */
export class RequestCounter {
  private total = 0;
  private readonly byUser = new Map<string, number>();
  private readonly podProxyByUser = new Map<string, number>();
  private readonly controllerLookupsByUser = new Map<string, number>();
  private readonly watchesByUser = new Map<string, number>();
  private readonly versionProbesByUser = new Map<string, number>();
  private readonly accessReviewsByUser = new Map<string, number>();
  /** The count each class of request adds to besides `byUser` (built once: `count` runs on every request). */
  private readonly countsOf: Record<RequestClass, Map<string, number> | undefined> = {
    api: undefined,
    'pod-proxy': this.podProxyByUser,
    'controller-lookup': this.controllerLookupsByUser,
    watch: this.watchesByUser,
    'version-probe': this.versionProbesByUser,
    'access-review': this.accessReviewsByUser,
  };

  count(user: string, kind: RequestClass = 'api'): void {
    this.total += 1;
    this.byUser.set(user, (this.byUser.get(user) ?? 0) + 1);
    const of = this.countsOf[kind];
    of?.set(user, (of.get(user) ?? 0) + 1);
  }

  snapshot(): RequestCounts {
    const sorted = (counts: Map<string, number>) =>
      Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
    return {
      total: this.total,
      byUser: sorted(this.byUser),
      podProxyByUser: sorted(this.podProxyByUser),
      controllerLookupsByUser: sorted(this.controllerLookupsByUser),
      watchesByUser: sorted(this.watchesByUser),
      versionProbesByUser: sorted(this.versionProbesByUser),
      accessReviewsByUser: sorted(this.accessReviewsByUser),
    };
  }
}
