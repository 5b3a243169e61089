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
import { BreakablePath, WholeItems, WORDS_CELL } from '../shared/WholeItems';
import { Fragment } from 'react';

/** The first few paths of a list, each part kept whole and a line break allowed after a slash, then how many more. */
function some(paths: string[][], max = 4) {
  if (paths.length === 0) return '—';
  return (
    <>
      {paths.slice(0, max).map((parts, n) => (
        <Fragment key={n}>
          {n > 0 && ', '}
          <BreakablePath parts={parts} />
        </Fragment>
      ))}
      {paths.length > max && ` and ${paths.length - max} more`}
    </>
  );
}

/**
 * The tenants of the fleet: the group that owns each, its namespaces and the shards it uses, its objects, and its
 * weakest boundary with the count per enforcement level. A tenant's name filters the objects to it.
 *
 * Test ids: `flux-fleet-tenants`; each name is a button "Objects of tenant <name>".
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
      render: t => some(t.namespaces.map(n => [n.cluster, n.namespace])),
    },
    {
      title: 'Shards used',
      cellStyle: WORDS_CELL,
      render: t =>
        some(t.shards.map(s => [s.cluster, s.instance, s.shard])),
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
