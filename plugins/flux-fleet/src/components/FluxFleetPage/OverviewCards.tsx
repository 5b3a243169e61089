import { InfoCard } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import LinearProgress from '@material-ui/core/LinearProgress';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import {
  ClusterHealth,
  FINDING_SEVERITY,
  FINDING_TYPES,
  FindingSeverity,
  FindingType,
  FleetSummary,
  ShardSummary,
  TenantSummary,
  UTILISATION_NEAR_CAPACITY,
  UTILISATION_OVER_CAPACITY,
} from '@flux-fleet/plugin-flux-fleet-common';
import { ENFORCEMENT_LABEL } from '../../lib/boundaryText';
import { FINDING_LABEL } from '../../lib/findingText';
import { StateTone } from '../../lib/stateText';
import { ObjectFilters, shardFilters } from '../FleetObjectsTable';
import { StatusTone } from '../shared/StatusTone';
import { TruncatedText } from '../shared/TruncatedText';

const SEVERITIES: ReadonlyArray<[FindingSeverity, string, StateTone]> = [
  ['error', 'Errors', 'error'],
  ['warning', 'Warnings', 'warning'],
  ['info', 'Notes', 'pending'],
];

const format = (n: number) => n.toLocaleString('en-US');

/**
 * The fleet's findings by severity, each with its types and counts (from the fleet summary); a type opens the
 * objects table filtered to it.
 *
 * Test ids: `flux-fleet-overview-findings`, `flux-fleet-overview-severity-<severity>`.
 */
export const FindingsBySeverity = (props: {
  summary: FleetSummary;
  onObjects: (filters: ObjectFilters) => void;
}) => {
  const counts = props.summary.findingsByType;
  const total = (types: FindingType[]) =>
    types.reduce((sum, t) => sum + (counts[t] ?? 0), 0);
  return (
    <InfoCard title="Findings" noPadding={false}>
      <Box data-testid="flux-fleet-overview-findings">
        {total([...FINDING_TYPES]) === 0 && (
          <Typography variant="body2">
            No findings: every object has one controller, its references resolve
            and every tenant is inside an enforced boundary.
          </Typography>
        )}
        {SEVERITIES.map(([severity, label, tone]) => {
          const types = FINDING_TYPES.filter(
            t => FINDING_SEVERITY[t] === severity && (counts[t] ?? 0) > 0,
          );
          if (types.length === 0) return null;
          return (
            <Box
              key={severity}
              mb={1.5}
              data-testid={`flux-fleet-overview-severity-${severity}`}
            >
              <Typography variant="subtitle2" component="h3">
                <StatusTone tone={tone}>
                  {label}: {format(total(types))}
                </StatusTone>
              </Typography>
              {types.map(t => (
                <Box key={t} pl={3} display="flex" style={{ gap: 8 }}>
                  <Typography
                    variant="body2"
                    style={{ minWidth: '3.5em', textAlign: 'right' }}
                  >
                    {format(counts[t] ?? 0)}
                  </Typography>
                  <Link
                    component="button"
                    variant="body2"
                    onClick={() => props.onObjects({ finding: [t] })}
                    aria-label={`Objects with finding: ${FINDING_LABEL[t]}`}
                    style={{ textAlign: 'left' }}
                  >
                    {FINDING_LABEL[t]}
                  </Link>
                </Box>
              ))}
            </Box>
          );
        })}
      </Box>
    </InfoCard>
  );
};

/** How many shards the overview lists: the busiest. */
const SHARDS_LISTED = 6;

/**
 * The busiest shards: estimated utilisation of their busiest controller (rules §9), with object counts; a shard
 * opens the objects table filtered to it.
 *
 * Test ids: `flux-fleet-overview-load`.
 */
export const BusiestShards = (props: {
  shards: readonly ShardSummary[];
  onObjects: (filters: ObjectFilters) => void;
}) => {
  const busiest = [...props.shards]
    .sort((a, b) => b.utilisation - a.utilisation)
    .slice(0, SHARDS_LISTED);
  const instances = new Set(
    props.shards.map(s => `${s.cluster}/${s.instance}`),
  );
  return (
    <InfoCard
      title="Instances and shards"
      subheader={`${instances.size} instances, ${props.shards.length} shards; the busiest by estimated load (rules §9); measured: the Capacity tab`}
    >
      <Box data-testid="flux-fleet-overview-load">
        {busiest.map(s => {
          const percent = Math.round(s.utilisation * 100);
          const tone = loadTone(s.utilisation);
          const name = `${s.cluster} / ${s.instance} / ${s.name}`;
          return (
            <Box key={name} mb={1}>
              <Box
                display="flex"
                justifyContent="space-between"
                style={{ gap: 8 }}
              >
                <Link
                  component="button"
                  variant="body2"
                  onClick={() => props.onObjects(shardFilters(s.cluster, s.instance, s.name))}
                  aria-label={`Objects of shard ${name}`}
                >
                  <TruncatedText text={name} maxWidth="22em" />
                </Link>
                <Typography variant="body2" style={{ whiteSpace: 'nowrap' }}>
                  <StatusTone tone={tone}>
                    {percent} % · {format(s.objectCount)} objects
                  </StatusTone>
                </Typography>
              </Box>
              <LinearProgress
                variant="determinate"
                value={Math.min(100, percent)}
                color={tone === 'ok' ? 'primary' : 'secondary'}
                aria-label={`Estimated load of ${name}: ${percent} %`}
              />
            </Box>
          );
        })}
      </Box>
    </InfoCard>
  );
};

/**
 * The Flux versions each cluster runs, the clusters on more than one version or on another version than the
 * fleet's newest marked.
 *
 * Test ids: `flux-fleet-overview-versions`.
 */
export const FluxVersions = (props: { clusters: readonly ClusterHealth[] }) => {
  const all = [...new Set(props.clusters.flatMap(c => c.fluxVersions))].sort(
    (a, b) => b.localeCompare(a, 'en', { numeric: true }),
  );
  const newest = all[0];
  return (
    <InfoCard
      title="Flux versions"
      subheader={
        all.length > 1
          ? `${all.length} versions across the fleet; newest ${newest}`
          : 'One version across the fleet'
      }
    >
      <Box data-testid="flux-fleet-overview-versions">
        {props.clusters.map(c => {
          const behind = c.fluxVersions.some(v => v !== newest);
          return (
            <Box key={c.name} display="flex" justifyContent="space-between">
              <Typography variant="body2">{c.name}</Typography>
              <Typography variant="body2" style={{ whiteSpace: 'nowrap' }}>
                {c.fluxVersions.length === 0 ? (
                  <StatusTone tone="warning">no instance found</StatusTone>
                ) : (
                  <StatusTone tone={behind ? 'warning' : 'ok'}>
                    {c.fluxVersions.join(', ')}
                  </StatusTone>
                )}
              </Typography>
            </Box>
          );
        })}
      </Box>
    </InfoCard>
  );
};

/**
 * Tenants whose weakest boundary is not enforced, weakest first; a tenant opens its objects.
 *
 * Test ids: `flux-fleet-overview-tenants`.
 */
export const TenantsWithoutBoundary = (props: {
  tenants: readonly TenantSummary[];
  onObjects: (filters: ObjectFilters) => void;
}) => {
  const open = props.tenants
    .filter(t => t.weakestEnforcement !== 'enforced')
    .sort(
      (a, b) =>
        (a.weakestEnforcement === 'none' ? 0 : 1) -
          (b.weakestEnforcement === 'none' ? 0 : 1) ||
        a.name.localeCompare(b.name),
    );
  return (
    <InfoCard
      title="Tenants without an enforced boundary"
      subheader={`${open.length} of ${props.tenants.length} tenants`}
    >
      <Box data-testid="flux-fleet-overview-tenants">
        {open.length === 0 && (
          <Typography variant="body2">
            Every tenant's objects run inside an enforced boundary.
          </Typography>
        )}
        {open.map(t => (
          <Box key={t.name} display="flex" justifyContent="space-between">
            <Link
              component="button"
              variant="body2"
              onClick={() => props.onObjects({ tenant: [t.name] })}
              aria-label={`Objects of tenant ${t.name}`}
            >
              {t.name}
            </Link>
            <Typography variant="body2" style={{ whiteSpace: 'nowrap' }}>
              <StatusTone
                tone={t.weakestEnforcement === 'none' ? 'error' : 'warning'}
              >
                {ENFORCEMENT_LABEL[t.weakestEnforcement]} ·{' '}
                {format(
                  (t.countsByEnforcement.none ?? 0) +
                    (t.countsByEnforcement.partial ?? 0),
                )}{' '}
                of {format(t.objectCount)} objects
              </StatusTone>
            </Typography>
          </Box>
        ))}
      </Box>
    </InfoCard>
  );
};

/** A shard's load in the capacity verdict's colours (rules §12 thresholds: 95 % over, 70 % near). */
function loadTone(utilisation: number): StateTone {
  if (utilisation >= UTILISATION_OVER_CAPACITY) return 'error';
  if (utilisation >= UTILISATION_NEAR_CAPACITY) return 'warning';
  return 'ok';
}
