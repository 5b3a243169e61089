import {
  getCompoundEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import { useEntity } from '@backstage/plugin-catalog-react';
import {
  EntityView,
  InstanceSummary,
  SIGNAL_CHANNELS,
} from '@flux-fleet/plugin-flux-fleet-common';
import useAsync from 'react-use/esm/useAsync';
import { fluxFleetApiRef } from '../../api';
import { useLiveRefresh } from '../../hooks/useLiveRefresh';
import { useRefreshable } from '../../hooks/useRefreshable';

/**
 * The instances that own the entity's objects: from the view when the backend includes them, else read per
 * cluster involved. A failed read leaves the instance shown by its namespace alone.
 */
function useOwningInstances(view: EntityView | undefined, wanted: boolean) {
  const api = useApi(fluxFleetApiRef);
  const fromView = view?.instances;
  const clusters = [
    ...new Set(
      (view?.objects ?? [])
        .filter(o => o.owner.instance !== null)
        .map(o => o.ref.cluster),
    ),
  ].sort();
  const clustersKey = clusters.join(',');
  const { value } = useAsync(async () => {
    if (!wanted || fromView || clusters.length === 0) {
      return [];
    }
    const lists = await Promise.allSettled(
      clusters.map(cluster => api.getInstances({ cluster })),
    );
    return lists.flatMap(list =>
      list.status === 'fulfilled' ? list.value : [],
    );
    // clustersKey stands for clusters
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, clustersKey, Boolean(fromView), wanted]);
  return fromView ?? value ?? [];
}

/** Finds the summary of an object's instance. */
export function findInstance(
  instances: InstanceSummary[],
  cluster: string,
  name: string | null,
): InstanceSummary | undefined {
  return instances.find(i => i.cluster === cluster && i.name === name);
}

/**
 * The Flux objects of the current catalog entity across clusters, refreshed in place when the backend signals a
 * change on the entity's channel; with the instances that own them when `withInstances` is set.
 */
export function useEntityFluxView(options: { withInstances?: boolean } = {}) {
  const { entity } = useEntity();
  const api = useApi(fluxFleetApiRef);
  const entityRef = stringifyEntityRef(entity);
  const view = useRefreshable(
    () => api.getEntityView(getCompoundEntityRef(entity)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api, entityRef],
  );
  const { live } = useLiveRefresh(
    SIGNAL_CHANNELS.entity(entityRef),
    view.refresh,
  );
  const instances = useOwningInstances(
    view.value,
    Boolean(options.withInstances),
  );
  return { entity, entityRef, view, live, instances };
}
