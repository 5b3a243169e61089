import { CompoundEntityRef } from '@backstage/catalog-model';
import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import {
  ActionResult,
  CapacityHistory,
  CapacityReport,
  ShardingPlan,
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
  ShardSummary,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FluxFleetApi } from './FluxFleetApi';
import { objectQueryParams } from './objectQueryParams';

/** `cluster/namespace/kind/name` as URL path segments. */
function objectPath(ref: FluxObjectRef): string {
  return [ref.cluster, ref.namespace, ref.kind, ref.name]
    .map(encodeURIComponent)
    .join('/');
}

/** A query string from optional filters, or nothing when none is set. */
function queryString(filter: Record<string, string | string[] | undefined>) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) {
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text) {
      params.set(name, text);
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The {@link FluxFleetApi} over HTTP, with the signed-in user's Backstage credentials (the fetch API adds them).
 * Failed requests throw a `ResponseError` whose `cause.message` is the backend's own message.
 *
 * @public
 */
export class FluxFleetClient implements FluxFleetApi {
  constructor(
    private readonly options: {
      discoveryApi: DiscoveryApi;
      fetchApi: FetchApi;
    },
  ) {}

  async getEntityView(entity: CompoundEntityRef): Promise<EntityView> {
    const path = [entity.kind, entity.namespace, entity.name]
      .map(encodeURIComponent)
      .join('/');
    return this.request<EntityView>(`/entity/${path}`);
  }

  async getClusters(): Promise<ClusterHealth[]> {
    return (await this.request<{ items: ClusterHealth[] }>('/clusters')).items;
  }

  async getSummary(): Promise<FleetSummary> {
    return this.request<FleetSummary>('/summary');
  }

  async getInstances(filter: { cluster?: string } = {}) {
    return (
      await this.request<{ items: InstanceSummary[] }>(
        `/instances${queryString(filter)}`,
      )
    ).items;
  }

  async getShards(filter: { cluster?: string; instance?: string } = {}) {
    return (
      await this.request<{ items: ShardSummary[] }>(
        `/shards${queryString(filter)}`,
      )
    ).items;
  }

  async getCapacity(filter: { cluster?: string; instance?: string } = {}): Promise<CapacityReport> {
    return this.request<CapacityReport>(`/capacity${queryString(filter)}`);
  }

  async getCapacityPlan(query: { cluster: string; instance: string; shards?: number }): Promise<ShardingPlan> {
    const { shards, ...rest } = query;
    return this.request<ShardingPlan>(
      `/capacity/plan${queryString({ ...rest, ...(shards !== undefined ? { shards: String(shards) } : {}) })}`,
    );
  }

  async getCapacityHistory(query: { cluster: string; instance: string }): Promise<CapacityHistory> {
    return this.request<CapacityHistory>(`/capacity/history${queryString(query)}`);
  }

  async getVersions(): Promise<FleetVersionView> {
    return this.request<FleetVersionView>('/versions');
  }

  async getTenants(): Promise<TenantSummary[]> {
    return (await this.request<{ items: TenantSummary[] }>('/tenants')).items;
  }

  async getObjects(query: ObjectQuery): Promise<Page<FleetObject>> {
    const params = objectQueryParams(query).toString();
    return this.request<Page<FleetObject>>(
      `/objects${params ? `?${params}` : ''}`,
    );
  }

  async getObject(ref: FluxObjectRef): Promise<FleetObjectDetail> {
    return this.request<FleetObjectDetail>(`/objects/${objectPath(ref)}`);
  }

  async getFindings(
    filter: { cluster?: string; type?: FindingType[] } = {},
  ): Promise<Finding[]> {
    return (
      await this.request<{ items: Finding[] }>(
        `/findings${queryString(filter)}`,
      )
    ).items;
  }

  async getMalformed(filter: { cluster?: string } = {}): Promise<MalformedObject[]> {
    return (await this.request<{ items: MalformedObject[] }>(`/malformed${queryString(filter)}`)).items;
  }

  async reconcile(
    ref: FluxObjectRef,
    options: { force?: boolean } = {},
  ): Promise<ActionResult> {
    return this.request<ActionResult>(`/objects/${objectPath(ref)}/reconcile`, {
      method: 'POST',
      body: options.force ? { force: true } : {},
    });
  }

  async suspend(ref: FluxObjectRef): Promise<ActionResult> {
    return this.request<ActionResult>(`/objects/${objectPath(ref)}/suspend`, {
      method: 'POST',
      body: {},
    });
  }

  async resume(ref: FluxObjectRef): Promise<ActionResult> {
    return this.request<ActionResult>(`/objects/${objectPath(ref)}/resume`, {
      method: 'POST',
      body: {},
    });
  }

  private async request<T>(
    path: string,
    init?: { method: 'POST'; body: object },
  ): Promise<T> {
    const baseUrl = await this.options.discoveryApi.getBaseUrl('flux-fleet');
    const response = await this.options.fetchApi.fetch(
      `${baseUrl}${path}`,
      init && {
        method: init.method,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(init.body),
      },
    );
    if (!response.ok) {
      throw await ResponseError.fromResponse(response);
    }
    return (await response.json()) as T;
  }
}
