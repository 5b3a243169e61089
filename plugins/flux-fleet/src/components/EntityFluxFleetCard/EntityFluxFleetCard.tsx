import {
  EmptyState,
  InfoCard,
  Progress,
  ResponseErrorPanel,
  Table,
  TableColumn,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { getCompoundEntityRef } from '@backstage/catalog-model';
import { useEntity } from '@backstage/plugin-catalog-react';
import { FleetObject } from '@flux-fleet/plugin-flux-fleet-common';
import useAsync from 'react-use/esm/useAsync';
import { fluxFleetApiRef } from '../../api';

const columns: TableColumn<FleetObject>[] = [
  { title: 'Cluster', field: 'ref.cluster' },
  { title: 'Object', render: o => `${o.ref.kind} ${o.ref.namespace}/${o.ref.name}` },
  { title: 'Shard', render: o => o.owner.shard ?? o.owner.status },
  { title: 'State', field: 'state.state' },
];

/** Per cluster: which Flux instance and shard reconciles the entity, its reconcile state and boundary. */
export const EntityFluxFleetCard = () => {
  const { entity } = useEntity();
  const api = useApi(fluxFleetApiRef);
  const { value, loading, error } = useAsync(
    () => api.getEntityView(getCompoundEntityRef(entity)),
    [api, entity],
  );

  if (loading) {
    return (
      <InfoCard title="Flux Fleet">
        <Progress />
      </InfoCard>
    );
  }
  if (error) {
    return (
      <InfoCard title="Flux Fleet">
        <ResponseErrorPanel error={error} />
      </InfoCard>
    );
  }
  if (!value || value.objects.length === 0) {
    return (
      <InfoCard title="Flux Fleet">
        <EmptyState
          missing="data"
          title="No Flux objects found for this entity"
          description="Label the Flux objects (or the workloads they apply) with backstage.io/kubernetes-id, or annotate this entity with backstage.io/kubernetes-label-selector."
        />
      </InfoCard>
    );
  }
  return (
    <Table<FleetObject>
      title="Flux Fleet"
      options={{ paging: false, search: false }}
      columns={columns}
      data={value.objects}
    />
  );
};
