import { createApiRef } from '@backstage/core-plugin-api';
import { CompoundEntityRef } from '@backstage/catalog-model';
import {
  ActionResult,
  CapacityHistory,
  CapacityReport,
  ClusterHealth,
  EntityView,
  Finding,
  FindingType,
  FleetObject,
  FleetObjectDetail,
  FleetSummary,
  FleetVersionView,
  FluxObjectRef,
  InstanceSummary,
  MalformedObject,
  ObjectQuery,
  Page,
  ShardingPlan,
  ShardSummary,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';

/**
 * Reads the Flux Fleet backend (`/api/flux-fleet`, see `docs/api.md`) and asks it to act on Flux objects.
 *
 * @public
 */
export interface FluxFleetApi {
  /** The Flux objects of a catalog entity across clusters. */
  getEntityView(entity: CompoundEntityRef): Promise<EntityView>;
  /** Every configured cluster with its health. */
  getClusters(): Promise<ClusterHealth[]>;
  /** The fleet at a glance. */
  getSummary(): Promise<FleetSummary>;
  /** Flux instances, optionally of one cluster. */
  getInstances(filter?: { cluster?: string }): Promise<InstanceSummary[]>;
  /** Shards with their load, optionally of one cluster or instance. */
  getShards(filter?: {
    cluster?: string;
    instance?: string;
  }): Promise<ShardSummary[]>;
  /** Tenants across the fleet. */
  getTenants(): Promise<TenantSummary[]>;
  /** One page of Flux objects matching the query; follow `nextCursor` for the next page. */
  getObjects(query: ObjectQuery): Promise<Page<FleetObject>>;
  /** One Flux object with its dependencies, inventory, events and findings. */
  getObject(ref: FluxObjectRef): Promise<FleetObjectDetail>;
  /** Findings, optionally of one cluster or of some types. */
  getFindings(filter?: {
    cluster?: string;
    type?: FindingType[];
  }): Promise<Finding[]>;
  /**
   * Objects malformed as read, optionally of one cluster: skipped, or served with the problems named. Optional:
   * implementations made before it may leave it out.
   */
  getMalformed?(filter?: { cluster?: string }): Promise<MalformedObject[]>;
  /** Which Flux release each instance runs, how far behind the latest, and what blocks its upgrade (rules §10). */
  getVersions(): Promise<FleetVersionView>;
  /** Capacity of every instance (rules §12), optionally of one cluster or instance. */
  getCapacity(filter?: { cluster?: string; instance?: string }): Promise<CapacityReport>;
  /** The sharding plan of one instance (rules §13); `shards` the shards wanted besides `main`. */
  getCapacityPlan(query: { cluster: string; instance: string; shards?: number }): Promise<ShardingPlan>;
  /** Measured utilisation and queue wait of one instance's controllers over recent hours. */
  getCapacityHistory(query: { cluster: string; instance: string }): Promise<CapacityHistory>;
  /** Asks Flux to reconcile the object now; `force` re-runs a HelmRelease's install or upgrade. */
  reconcile(
    ref: FluxObjectRef,
    options?: { force?: boolean },
  ): Promise<ActionResult>;
  /** Stops Flux from reconciling the object (`spec.suspend: true`). */
  suspend(ref: FluxObjectRef): Promise<ActionResult>;
  /** Lets Flux reconcile the object again (`spec.suspend: false`). */
  resume(ref: FluxObjectRef): Promise<ActionResult>;
}

/**
 * The API reference of {@link FluxFleetApi}.
 *
 * @public
 */
export const fluxFleetApiRef = createApiRef<FluxFleetApi>({
  id: 'plugin.flux-fleet.api',
});
