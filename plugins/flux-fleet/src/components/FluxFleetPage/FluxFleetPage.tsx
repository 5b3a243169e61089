import { Header, Page } from '@backstage/core-components';
import { FluxFleetPageContent } from './FluxFleetPageContent';

/**
 * The fleet page for the legacy frontend system, with its own header. (The new frontend system mounts
 * {@link FluxFleetPageContent} under the page header it provides.)
 */
export const FluxFleetPage = () => (
  <Page themeId="tool">
    <Header
      title="Flux Fleet"
      subtitle="Clusters, instances, shards, tenants, and what is wrong"
    />
    <FluxFleetPageContent />
  </Page>
);
