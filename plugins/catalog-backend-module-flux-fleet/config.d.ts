import type { SchedulerServiceTaskScheduleDefinitionConfig } from '@backstage/backend-plugin-api';
import type { HumanDuration } from '@backstage/types';

/** Options of one Flux Fleet entity provider. */
interface FluxFleetProviderOptions {
  /**
   * The clusters (names as in `fluxFleet.clusters`) whose structure this provider emits. Default: every cluster of
   * the fleet index. With several providers each must list its clusters, and no cluster may be listed twice
   * (checked at startup): a cluster's entities come from one provider.
   */
  clusters?: string[];
  /**
   * The Flux kinds emitted as `Resource` entities of type `flux-<kind in lower case>`. Default:
   * `[Kustomization, HelmRelease]`. Add `GitRepository`, `OCIRepository`, `HelmRepository`, `Bucket` to emit
   * sources too (reconcilers then `dependsOn` their source).
   */
  kinds?: string[];
  /**
   * Owner of the cluster, instance and shard entities, and of Flux objects without a tenant or whose tenant has no
   * group. An entity reference; a bare name means a group. Default: `group:default/platform`.
   */
  defaultOwner?: string;
  /**
   * Tenant → owner, e.g. `payments: group:default/payments`. Checked first; then the group of the tenant in the
   * backend's `fluxFleet.tenants` mapping; then `tenantOwnerPattern`; then `defaultOwner`.
   */
  tenantOwners?: { [tenant: string]: string };
  /**
   * The owner of a tenant's objects built from its name when no mapping names one, e.g. `group:default/{tenant}`.
   * Beware: the group must exist in the catalog, or the entities show an owner that does not resolve.
   */
  tenantOwnerPattern?: string;
  /**
   * How long an unreachable or unauthorized cluster keeps its entities before they are removed. Default: never
   * (entities stay until the cluster is back and says otherwise, or leaves the configuration).
   */
  removeAfterOutage?: HumanDuration | string;
  /**
   * Emit a `Component` (type `service`) for each service found in the fleet (the `backstage.io/kubernetes-id` of
   * Flux objects) that the catalog does not have. A Component defined elsewhere always wins over the generated one.
   * Default: false.
   */
  createMissingComponents?: boolean;
  /**
   * How long to wait after a structural change in the fleet index before emitting it, so a burst of changes makes
   * one mutation per cluster. Default: 2 seconds.
   */
  debounce?: HumanDuration | string;
  /**
   * The safety refresh: reconciles what the catalog holds with what the index says, for every cluster. Default:
   * every 30 minutes, timeout 10 minutes.
   */
  schedule?: SchedulerServiceTaskScheduleDefinitionConfig;
}

export interface Config {
  catalog?: {
    providers?: {
      /**
       * Flux Fleet entity providers: emit the fleet's structure (clusters, Flux instances, shards, reconcilers and,
       * when configured, sources) as catalog entities, from the Flux Fleet backend's index. Either the options of one
       * provider, or a map of provider id → options.
       */
      fluxFleet?:
        | FluxFleetProviderOptions
        | { [providerId: string]: FluxFleetProviderOptions };
    };
  };
}
