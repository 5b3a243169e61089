import { Progress, Table, TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { EntityRefLink } from '@backstage/plugin-catalog-react';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import {
  ENFORCEMENT_LEVELS,
  TenantSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';
import { ENFORCEMENT_LABEL } from '../../lib/boundaryText';
import { LoadError } from '../shared/LoadError';
import { useRefreshOn } from './useRefreshOn';
import { useErrorTextClass } from '../shared/useErrorTextClass';
import { NOWRAP_CELL } from '../shared/TruncatedText';
import { WholeItems, WholeWords, WORDS_CELL } from '../shared/WholeItems';
import { tenantsHeadline } from '../../lib/tenantsHeadline';

/** How many namespaces or shards a cell names before "and N more". */
const SHOWN = 4;

/**
 * Names (a namespace, an instance/shard) with the clusters each is on, the most widespread first: a tenant's
 * namespace is usually the same on every cluster, and listing each cluster/namespace pair ran to 20 lines at fleet M.
 */
function acrossClusters(items: ReadonlyArray<{ cluster: string; name: string }>) {
  const clusters = new Map<string, string[]>();
  for (const { cluster, name } of items) {
    const on = clusters.get(name);
    if (on) on.push(cluster);
    else clusters.set(name, [cluster]);
  }
  return [...clusters]
    .map(([name, on]) => ({ name, clusters: on.sort() }))
    .sort((a, b) => b.clusters.length - a.clusters.length || a.name.localeCompare(b.name));
}

/** Each name on a line of its own with the clusters it is on (all of them on hover), then how many more. */
const OnClusters = (props: { items: ReadonlyArray<{ cluster: string; name: string }> }) => {
  const names = acrossClusters(props.items);
  if (names.length === 0) return <>—</>;
  return (
    <>
      {names.slice(0, SHOWN).map(({ name, clusters }) => (
        <div key={name} title={clusters.join(', ')}>
          <span style={NOWRAP_CELL}>{name}</span>{' '}
          <Typography variant="body2" component="span" color="textSecondary" style={NOWRAP_CELL}>
            {clusters.length === 1 ? `on ${clusters[0]}` : `on ${clusters.length} clusters`}
          </Typography>
        </div>
      ))}
      {names.length > SHOWN && (
        <Typography variant="body2" color="textSecondary">
          and {names.length - SHOWN} more
        </Typography>
      )}
    </>
  );
};

/**
 * The tenants of the fleet, led by one sentence (how many own how many objects, which have objects with no enforced
 * boundary, whether they have owning groups): the group that owns each, its namespaces and the shards it uses (each
 * with the clusters it is on), its objects, and its weakest boundary with the count per enforcement level. A
 * tenant's name filters the objects to it.
 *
 * Test ids: `flux-fleet-tenants`, `flux-fleet-tenants-headline`; each name is a button "Objects of tenant <name>".
 */
export const TenantsTable = (props: {
  refreshTick: number;
  onTenant: (tenant: string) => void;
}) => {
  const api = useApi(fluxFleetApiRef);
  const errorText = useErrorTextClass();
  const tenants = useRefreshable(() => api.getTenants(), [api]);
  useRefreshOn(props.refreshTick, tenants.refresh);
  if (!tenants.value) {
    return tenants.error ? (
      <LoadError
        what="the tenants"
        error={tenants.error}
        onRetry={tenants.refresh}
      />
    ) : (
      <Progress />
    );
  }
  const columns: TableColumn<TenantSummary>[] = [
    {
      title: 'Tenant',
      field: 'name',
      render: t => (
        <Link
          component="button"
          variant="body2"
          aria-label={`Objects of tenant ${t.name}`}
          onClick={() => props.onTenant(t.name)}
        >
          {t.name}
        </Link>
      ),
    },
    {
      title: 'Owning group',
      field: 'group',
      render: t =>
        t.group ? (
          <EntityRefLink entityRef={t.group} defaultKind="group" />
        ) : (
          '—'
        ),
    },
    {
      title: 'Namespaces',
      cellStyle: WORDS_CELL,
      render: t => <OnClusters items={t.namespaces.map(n => ({ cluster: n.cluster, name: n.namespace }))} />,
    },
    {
      title: 'Shards used',
      cellStyle: WORDS_CELL,
      render: t => (
        <OnClusters items={t.shards.map(sh => ({ cluster: sh.cluster, name: `${sh.instance}/${sh.shard}` }))} />
      ),
    },
    { title: 'Flux objects', field: 'objectCount', type: 'numeric' },
    {
      title: 'Boundary',
      field: 'weakestEnforcement',
      render: t => (
        <>
          <Typography
            variant="body2"
            className={t.weakestEnforcement === 'none' ? errorText : undefined}
          >
            {ENFORCEMENT_LABEL[t.weakestEnforcement]} at weakest
          </Typography>
          <Typography variant="caption" color="textSecondary">
            <WholeItems
              items={ENFORCEMENT_LEVELS.filter(l => (t.countsByEnforcement[l] ?? 0) > 0).map(
                l => `${ENFORCEMENT_LABEL[l]} ${t.countsByEnforcement[l]}`,
              )}
              separator=" · "
            />
          </Typography>
        </>
      ),
    },
  ];
  return (
    <div data-testid="flux-fleet-tenants">
      <Typography variant="h6" component="p" gutterBottom data-testid="flux-fleet-tenants-headline">
        <WholeWords text={tenantsHeadline(tenants.value)} />
      </Typography>
      <Table<TenantSummary>
        title={`Tenants (${tenants.value.length})`}
        columns={columns}
        data={tenants.value}
        options={{
          paging: tenants.value.length > 50,
          pageSize: 50,
          padding: 'dense',
        }}
      />
    </div>
  );
};
