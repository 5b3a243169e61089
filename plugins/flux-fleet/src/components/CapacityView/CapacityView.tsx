import { EmptyState } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Skeleton from '@material-ui/lab/Skeleton';
import {
  SIGNAL_CHANNELS,
  type CapacityVerdict,
  type InstanceCapacity,
} from '@flux-fleet/plugin-flux-fleet-common';
import { useCallback, useState } from 'react';
import { fluxFleetApiRef } from '../../api';
import { useLiveRefresh } from '../../hooks/useLiveRefresh';
import { useRefreshable } from '../../hooks/useRefreshable';
import { useRefreshOn } from '../FluxFleetPage/useRefreshOn';
import { LoadError } from '../shared/LoadError';
import { InstanceCapacityCard } from './InstanceCapacityCard';

const CONFIGURE = (
  <Typography variant="body2" component="span">
    Capacity verdicts come from the Flux controllers' metrics. Give Flux Fleet's credentials <code>get</code> on{' '}
    <code>pods</code> and <code>pods/proxy</code> in the Flux namespaces (ClusterRole), or set{' '}
    <code>fluxFleet.capacity.prometheus</code> to a Prometheus that scrapes the controllers. Without either, figures
    are estimated from reconcile durations and intervals.
  </Typography>
);

const VERDICT_RANK: Record<CapacityVerdict, number> = { 'over-capacity': 0, 'near-capacity': 1, ok: 2 };

/** The fleet's answer in one sentence: how many instances are over or near capacity, else that all have room. */
function headline(items: InstanceCapacity[]): string {
  const count = (v: CapacityVerdict) => items.filter(i => i.verdict === v).length;
  const over = count('over-capacity');
  const near = count('near-capacity');
  const of = `${items.length} Flux instance${items.length === 1 ? '' : 's'}`;
  if (over + near === 0) return `All ${of} have room.`;
  const parts = [over > 0 && `${over} over capacity`, near > 0 && `${near} near capacity`].filter(Boolean);
  return `${parts.join(' and ')} of ${of}, worst first.`;
}

/**
 * The Capacity view of the fleet page: per instance the one-sentence answer to "is it near its limit, should I
 * shard?", with every controller's verdict, reasons and figures (measured or estimated), its recent hours as
 * charts, and a sharding plan. Refreshes when the backend signals a verdict change (`flux-fleet:capacity`).
 *
 * Test ids: `capacity-view`, `capacity-instance-<cluster>-<instance>`, `capacity-plan-<cluster>-<instance>`.
 */
export const CapacityView = (props: { refreshTick?: number }) => {
  const api = useApi(fluxFleetApiRef);
  const [tick, setTick] = useState(0);
  const bump = useCallback(() => setTick(t => t + 1), []);
  useLiveRefresh(SIGNAL_CHANNELS.capacity, bump);
  const report = useRefreshable(() => api.getCapacity(), [api]);
  const refreshTick = tick + (props.refreshTick ?? 0);
  useRefreshOn(refreshTick, report.refresh);

  if (report.error && !report.value) {
    return <LoadError what="the capacity of the fleet" error={report.error} onRetry={report.refresh} />;
  }
  if (!report.value) {
    return (
      <Box data-testid="capacity-view" aria-busy="true">
        {[0, 1, 2].map(n => (
          <Skeleton key={n} variant="rect" height={120} style={{ marginBottom: 16 }} />
        ))}
      </Box>
    );
  }
  // worst first: the question is whether any installation is near its limit, so an over-capacity instance leads
  const items = [...report.value.items].sort((a, b) => VERDICT_RANK[a.verdict] - VERDICT_RANK[b.verdict]);
  const allEstimated = items.length > 0 && items.every(i => i.source === 'estimate');
  return (
    <Box data-testid="capacity-view">
      {items.length === 0 && (
        <EmptyState missing="data" title="No Flux instance found yet" description={CONFIGURE} />
      )}
      {items.length > 0 && (
        <Typography variant="h6" component="p" data-testid="capacity-headline" gutterBottom>
          {headline(items)}
        </Typography>
      )}
      {allEstimated && <Box mb={2}>{CONFIGURE}</Box>}
      {items.map(i => (
        <Box key={`${i.cluster}/${i.instance}`} mb={2}>
          <InstanceCapacityCard capacity={i} refreshTick={refreshTick} />
        </Box>
      ))}
    </Box>
  );
};
