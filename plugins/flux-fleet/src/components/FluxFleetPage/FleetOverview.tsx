import { InfoCard } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Grid from '@material-ui/core/Grid';
import Typography from '@material-ui/core/Typography';
import Skeleton from '@material-ui/lab/Skeleton';
import { ClusterHealth } from '@flux-fleet/plugin-flux-fleet-common';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';
import { ObjectFilters } from '../FleetObjectsTable';
import { LoadError } from '../shared/LoadError';
import { WholeWords } from '../shared/WholeItems';
import { countsByClusterAndState, HealthMap } from './HealthMap';
import { overviewHeadline } from '../../lib/overviewHeadline';
import {
  BusiestShards,
  FindingsBySeverity,
  FluxVersions,
  TenantsWithoutBoundary,
} from './OverviewCards';
import { useRefreshOn } from './useRefreshOn';

const Loading = () => (
  <>
    <Skeleton variant="text" width="40%" />
    <Skeleton variant="rect" height={120} />
  </>
);

/**
 * The platform team's first screen, led by one sentence (how many objects failed, blocked or stalled, where most
 * are, which clusters cannot be read now): the health map (clusters × reconcile state), the findings by severity, the
 * busiest shards, the Flux versions per cluster and the tenants without an enforced boundary. Every count leads to
 * the objects table filtered to it. Each part loads (and fails) on its own.
 *
 * Test ids: `flux-fleet-overview`, `flux-fleet-overview-headline`, and those of its parts.
 */
export const FleetOverview = (props: {
  clusters?: ClusterHealth[];
  refreshTick: number;
  onObjects: (filters: ObjectFilters) => void;
}) => {
  const api = useApi(fluxFleetApiRef);
  const summary = useRefreshable(() => api.getSummary(), [api]);
  const shards = useRefreshable(() => api.getShards(), [api]);
  const tenants = useRefreshable(() => api.getTenants(), [api]);
  useRefreshOn(props.refreshTick, summary.refresh);
  useRefreshOn(props.refreshTick, shards.refresh);
  useRefreshOn(props.refreshTick, tenants.refresh);
  const { clusters, onObjects } = props;

  return (
    <Grid container spacing={2} data-testid="flux-fleet-overview">
      <Grid item xs={12}>
        {summary.value && shards.value && clusters ? (
          <Typography variant="h6" component="p" data-testid="flux-fleet-overview-headline">
            <WholeWords
              text={overviewHeadline(summary.value, countsByClusterAndState(shards.value), clusters)}
            />
          </Typography>
        ) : (
          !summary.error && !shards.error && <Skeleton variant="text" width="60%" height={32} />
        )}
      </Grid>
      <Grid item xs={12}>
        <InfoCard
          title="Health map"
          subheader="Objects per cluster and reconcile state; a count opens those objects"
        >
          {shards.value && clusters ? (
            <Box overflow="auto">
              <HealthMap
                clusters={clusters}
                shards={shards.value}
                onObjects={onObjects}
              />
            </Box>
          ) : (
            (shards.error && (
              <LoadError
                what="the shards"
                error={shards.error}
                onRetry={shards.refresh}
              />
            )) || <Loading />
          )}
        </InfoCard>
      </Grid>
      <Grid item xs={12} md={6} xl={3}>
        {summary.value ? (
          <FindingsBySeverity summary={summary.value} onObjects={onObjects} />
        ) : (
          (summary.error && (
            <LoadError
              what="the fleet summary"
              error={summary.error}
              onRetry={summary.refresh}
            />
          )) || <Loading />
        )}
      </Grid>
      <Grid item xs={12} md={6} xl={3}>
        {shards.value ? (
          <BusiestShards shards={shards.value} onObjects={onObjects} />
        ) : (
          <Loading />
        )}
      </Grid>
      <Grid item xs={12} md={6} xl={3}>
        {clusters ? <FluxVersions clusters={clusters} /> : <Loading />}
      </Grid>
      <Grid item xs={12} md={6} xl={3}>
        {tenants.value ? (
          <TenantsWithoutBoundary
            tenants={tenants.value}
            onObjects={onObjects}
          />
        ) : (
          (tenants.error && (
            <LoadError
              what="the tenants"
              error={tenants.error}
              onRetry={tenants.refresh}
            />
          )) || <Loading />
        )}
      </Grid>
    </Grid>
  );
};
