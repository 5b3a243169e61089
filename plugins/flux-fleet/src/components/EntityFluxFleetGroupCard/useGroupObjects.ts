import { stringifyEntityRef } from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import { catalogApiRef, useEntity } from '@backstage/plugin-catalog-react';
import {
  FleetObject,
  RECONCILER_KINDS,
  SIGNAL_CHANNELS,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fluxFleetApiRef } from '../../api';
import { useLiveRefresh } from '../../hooks/useLiveRefresh';
import { useRefreshable } from '../../hooks/useRefreshable';
import { compareStateSeverity } from '../../lib/stateText';

/** How many objects the card reads per way of ownership (tenants, services); the counts say when there are more. */
export const GROUP_OBJECTS_LIMIT = 200;

/** A team's Flux objects and how they were found. */
export interface GroupObjects {
  groupRef: string;
  /** Tenants the tenant → group mapping gives the group. */
  tenants: string[];
  /** Services (`backstage.io/kubernetes-id`, else name) of the Components the group owns. */
  services: string[];
  /** Their reconcilers (Kustomizations, HelmReleases), failing first. */
  objects: FleetObject[];
  /** How many matched in all, before the limit. */
  totalCount: number;
}

/**
 * The Flux objects of the current Group entity across the fleet: those of the tenants mapped to it and those of the
 * services of the Components it owns (catalog ownership), reconcilers only, worst state first. Live: refreshes on
 * the fleet's signal.
 */
export function useGroupObjects() {
  const { entity } = useEntity();
  const api = useApi(fluxFleetApiRef);
  const catalog = useApi(catalogApiRef);
  const groupRef = stringifyEntityRef(entity);
  const view = useRefreshable(async (): Promise<GroupObjects> => {
    const [tenantList, owned] = await Promise.all([
      api.getTenants(),
      catalog.getEntities({
        filter: { kind: 'Component', 'relations.ownedBy': groupRef },
        fields: ['metadata.name', 'metadata.annotations'],
      }),
    ]);
    const tenants = tenantList
      .filter(t => t.group === groupRef)
      .map(t => t.name);
    const services = owned.items.map(
      c =>
        c.metadata.annotations?.['backstage.io/kubernetes-id'] ??
        c.metadata.name,
    );
    const query = {
      kind: [...RECONCILER_KINDS],
      limit: GROUP_OBJECTS_LIMIT,
      sort: 'state' as const,
    };
    const pages = await Promise.all([
      tenants.length > 0
        ? api.getObjects({ ...query, tenant: tenants })
        : undefined,
      services.length > 0
        ? api.getObjects({ ...query, service: services })
        : undefined,
    ]);
    const byKey = new Map<string, FleetObject>();
    for (const page of pages) {
      for (const o of page?.items ?? []) byKey.set(o.key, o);
    }
    const objects = [...byKey.values()].sort(
      (a, b) =>
        compareStateSeverity(a.state.state, b.state.state) ||
        a.key.localeCompare(b.key),
    );
    const totalCount = Math.max(
      objects.length,
      (pages[0]?.totalCount ?? 0) + (pages[1]?.totalCount ?? 0),
    );
    return { groupRef, tenants, services, objects, totalCount };
  }, [api, catalog, groupRef]);
  useLiveRefresh(SIGNAL_CHANNELS.fleet, view.refresh);
  return view;
}
