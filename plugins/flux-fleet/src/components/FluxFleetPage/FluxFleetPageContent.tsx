import {
  Content,
  ContentHeader,
  Progress,
  SupportButton,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Tab from '@material-ui/core/Tab';
import Tabs from '@material-ui/core/Tabs';
import {
  FluxObjectRef,
  SIGNAL_CHANNELS,
} from '@flux-fleet/plugin-flux-fleet-common';
import { useCallback, useState } from 'react';
import { fluxFleetApiRef } from '../../api';
import { useLiveRefresh } from '../../hooks/useLiveRefresh';
import { useRefreshable } from '../../hooks/useRefreshable';
import { ClusterNotices } from '../entity/ClusterNotices';
import { FleetObjectsTable, ObjectFilters } from '../FleetObjectsTable';
import { ObjectDetailDrawer } from '../ObjectDetail';
import { CapacityView } from '../CapacityView';
import { FluxVersionsView } from '../FluxVersionsView';
import { ClustersTable } from './ClustersTable';
import { FindingsPanel } from './FindingsPanel';
import { FleetOverview } from './FleetOverview';
import { FleetSummaryBar } from './FleetSummaryBar';
import { InstancesAndShards } from './InstancesAndShards';
import { TenantsTable } from './TenantsTable';
import { LoadError } from '../shared/LoadError';
import { useRefreshOn } from './useRefreshOn';

/** The tabs of the fleet page, in order. */
export const FLEET_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'clusters', label: 'Clusters' },
  { id: 'instances', label: 'Instances & shards' },
  { id: 'capacity', label: 'Capacity' },
  { id: 'versions', label: 'Flux versions' },
  { id: 'tenants', label: 'Tenants' },
  { id: 'findings', label: 'Findings' },
  { id: 'objects', label: 'Objects' },
] as const;

type FleetTab = (typeof FLEET_TABS)[number]['id'];

/**
 * The fleet page's content, without a page header (the new frontend system gives pages theirs): a content header
 * with the support button, the fleet summary, then tabs: the overview first (health map, findings by severity,
 * busiest shards, Flux versions, tenants without an enforced boundary), clusters, instances and shards (with the load per shard), capacity, Flux versions
 * (upgrade readiness), tenants, findings and the objects table
 * (server-side filters and paging). Counts, shards, tenants and findings lead to the objects table filtered to
 * them; objects open their detail view. Live: the visible tab refreshes when the backend signals a change.
 *
 * Test ids: `flux-fleet-page`, `flux-fleet-tab-<id>` (the panel of each tab: overview, clusters, instances, versions, tenants,
 * findings, objects); tabs are named by their label.
 */
export const FluxFleetPageContent = () => {
  const api = useApi(fluxFleetApiRef);
  const [tab, setTab] = useState<FleetTab>('overview');
  const [filters, setFilters] = useState<ObjectFilters>({});
  const [opened, setOpened] = useState<FluxObjectRef>();
  const [tick, setTick] = useState(0);
  const bump = useCallback(() => setTick(t => t + 1), []);
  useLiveRefresh(SIGNAL_CHANNELS.fleet, bump);

  const clusters = useRefreshable(() => api.getClusters(), [api]);
  useRefreshOn(tick, clusters.refresh);

  const showObjects = useCallback((next: ObjectFilters) => {
    setFilters(next);
    setTab('objects');
  }, []);

  return (
    <Content>
      <ContentHeader
        title="Fleet overview"
        description="Which clusters, shards and teams are in trouble"
      >
        <SupportButton>
          Flux Fleet reads every configured cluster's Flux objects. A count
          opens the objects behind it; an object opens its dependencies, events
          and the flux commands to look further.
        </SupportButton>
      </ContentHeader>
      <Box data-testid="flux-fleet-page">
        <FleetSummaryBar
          refreshTick={tick}
          onState={state => showObjects({ state: [state] })}
        />
        {clusters.value && <ClusterNotices clusters={clusters.value} />}
        <Tabs
          value={tab}
          onChange={(_event, value: FleetTab) => setTab(value)}
          indicatorColor="primary"
          variant="scrollable"
          aria-label="Fleet views"
        >
          {FLEET_TABS.map(t => (
            <Tab
              key={t.id}
              value={t.id}
              label={t.label}
              id={`flux-fleet-tab-button-${t.id}`}
              aria-controls={`flux-fleet-tab-${t.id}`}
              // as wide as its label: at MUI's 160 px each, the eight tabs overflowed 1280 px and "Objects" was
              // hidden behind a scroll arrow
              style={{ minWidth: 0, paddingLeft: 16, paddingRight: 16 }}
            />
          ))}
        </Tabs>
        <Box
          role="tabpanel"
          id={`flux-fleet-tab-${tab}`}
          aria-labelledby={`flux-fleet-tab-button-${tab}`}
          data-testid={`flux-fleet-tab-${tab}`}
          pt={2}
        >
          {tab === 'overview' && (
            <FleetOverview
              clusters={clusters.value}
              refreshTick={tick}
              onObjects={showObjects}
            />
          )}
          {tab === 'clusters' &&
            (clusters.value ? (
              <ClustersTable
                clusters={clusters.value}
                onCluster={cluster => showObjects({ cluster: [cluster] })}
              />
            ) : (
              (clusters.error && (
                <LoadError
                  what="the clusters"
                  error={clusters.error}
                  onRetry={clusters.refresh}
                />
              )) || <Progress />
            ))}
          {tab === 'instances' && (
            <InstancesAndShards refreshTick={tick} onObjects={showObjects} />
          )}
          {tab === 'capacity' && <CapacityView />}
          {tab === 'versions' && (
            <FluxVersionsView refreshTick={tick} onOpen={setOpened} />
          )}
          {tab === 'tenants' && (
            <TenantsTable
              refreshTick={tick}
              onTenant={tenant => showObjects({ tenant: [tenant] })}
            />
          )}
          {tab === 'findings' && (
            <FindingsPanel
              refreshTick={tick}
              onObjects={showObjects}
              onOpen={setOpened}
            />
          )}
          {tab === 'objects' && (
            <FleetObjectsTable
              clusters={clusters.value ?? []}
              filters={filters}
              onFiltersChange={setFilters}
              onOpen={setOpened}
              refreshTick={tick}
            />
          )}
        </Box>
      </Box>
      <ObjectDetailDrawer
        objectRef={opened}
        clusters={clusters.value}
        onClose={() => setOpened(undefined)}
        onChanged={bump}
      />
    </Content>
  );
};
