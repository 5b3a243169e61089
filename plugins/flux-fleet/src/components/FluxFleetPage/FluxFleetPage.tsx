import {
  Content,
  Header,
  Page,
  Progress,
  ResponseErrorPanel,
  Table,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';
import useAsync from 'react-use/esm/useAsync';
import { fluxFleetApiRef } from '../../api';

/** The platform team's view of the fleet. */
export const FluxFleetPage = () => {
  const api = useApi(fluxFleetApiRef);
  const { value, loading, error } = useAsync(() => api.getClusters(), [api]);
  return (
    <Page themeId="tool">
      <Header
        title="Flux Fleet"
        subtitle="Clusters, instances, shards and what is broken"
      />
      <Content>
        {loading && <Progress />}
        {error && <ResponseErrorPanel error={error} />}
        {value && (
          <Table<ClusterHealth>
            title="Clusters"
            options={{ paging: false, search: false }}
            columns={[
              { title: 'Cluster', field: 'name' },
              { title: 'Status', field: 'status' },
              { title: 'Flux objects', field: 'objectCount' },
            ]}
            data={value}
          />
        )}
      </Content>
    </Page>
  );
};
