import { Progress, Table, TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import {
  InstanceSummary,
  ReconcileStateName,
  ShardSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';
import { STATE_LABEL, compareStateSeverity } from '../../lib/stateText';
import { ObjectFilters } from '../FleetObjectsTable';
import { ShardLoadChart } from './ShardLoadChart';
import { LoadError } from '../shared/LoadError';
import { useRefreshOn } from './useRefreshOn';
import { useErrorTextClass } from '../shared/useErrorTextClass';
import { NOWRAP_CELL } from '../shared/TruncatedText';
import { WholeItems, WholeLines, WORDS_CELL } from '../shared/WholeItems';

const counts = (
  record: Partial<Record<string, number>>,
  label?: (key: string) => string,
) => (
  <WholeItems
    items={Object.entries(record)
      .filter(([, n]) => (n ?? 0) > 0)
      .map(([key, n]) => `${label ? label(key) : key} ${n}`)}
  />
);

const ControllerProblems = ({ problems }: { problems: string[] }) => (
  <Typography variant="body2" className={useErrorTextClass()} component="div">
    {problems.map(p => (
      <div key={p}>{p}</div>
    ))}
  </Typography>
);

const instanceColumns: TableColumn<InstanceSummary>[] = [
  { title: 'Cluster', field: 'cluster', cellStyle: NOWRAP_CELL },
  { title: 'Instance', field: 'name', cellStyle: NOWRAP_CELL },
  { title: 'Flux', field: 'version', emptyValue: '—', cellStyle: NOWRAP_CELL },
  {
    title: 'Managed by',
    render: i => (
      <WholeLines
        lines={
          i.operatorManaged
            ? ['Flux Operator', ...(i.fluxInstance ? [`FluxInstance ${i.fluxInstance}`] : [])]
            : ['not operator-managed']
        }
      />
    ),
  },
  {
    // the multi-tenancy settings of Flux's lockdown guide, one a line: at 1280 px, scope and lockdown in columns of
    // their own, kept whole, pushed the shards and controller problems past the card
    title: 'Tenancy',
    render: i => (
      <WholeLines
        lines={[
          i.watchAllNamespaces ? 'all namespaces' : 'its own namespace',
          i.lockdown ? '--no-cross-namespace-refs' : 'cross-namespace refs allowed',
          i.defaultServiceAccount ? `default SA ${i.defaultServiceAccount}` : 'no default SA',
        ]}
      />
    ),
  },
  { title: 'Shards', cellStyle: WORDS_CELL, render: i => <WholeItems items={i.shards} /> },
  {
    title: 'Controller problems',
    cellStyle: WORDS_CELL,
    render: i => {
      const problems = i.controllers.flatMap(c => [
        ...(c.selectorError
          ? [
              `${c.name}: --watch-label-selector does not parse (${c.selectorError}); it watches nothing`,
            ]
          : []),
        ...(c.problems ?? []).map(p => `${c.name}: ${p}`),
      ]);
      return problems.length > 0 ? <ControllerProblems problems={problems} /> : '—';
    },
  },
  { title: 'Flux objects', field: 'objectCount', type: 'numeric' },
];

/**
 * The fleet's Flux instances and their shards: each instance's version, management, scope and lockdown; the load
 * per shard; and each shard's objects by kind and by state. A shard's name filters the objects to it.
 *
 * Test ids: `flux-fleet-instances`, `flux-fleet-shards`, `flux-fleet-shard-load`; each shard name is a button
 * "Objects of shard <cluster>/<instance>/<shard>".
 */
export const InstancesAndShards = (props: {
  refreshTick: number;
  onObjects: (filters: ObjectFilters) => void;
}) => {
  const api = useApi(fluxFleetApiRef);
  const data = useRefreshable(async () => {
    const [instances, shards] = await Promise.all([
      api.getInstances(),
      api.getShards(),
    ]);
    return { instances, shards };
  }, [api]);
  useRefreshOn(props.refreshTick, data.refresh);

  if (!data.value) {
    return data.error ? (
      <LoadError
        what="the instances and shards"
        error={data.error}
        onRetry={data.refresh}
      />
    ) : (
      <Progress />
    );
  }
  const { instances, shards } = data.value;
  const shardColumns: TableColumn<ShardSummary>[] = [
    { title: 'Cluster', field: 'cluster', cellStyle: NOWRAP_CELL },
    { title: 'Instance', field: 'instance', cellStyle: NOWRAP_CELL },
    {
      title: 'Shard',
      field: 'name',
      cellStyle: NOWRAP_CELL,
      render: s => (
        <Link
          component="button"
          variant="body2"
          aria-label={`Objects of shard ${s.cluster}/${s.instance}/${s.name}`}
          onClick={() =>
            props.onObjects({
              cluster: [s.cluster],
              instance: [s.instance],
              shard: [s.name],
            })
          }
        >
          {s.name}
        </Link>
      ),
    },
    { title: 'Selector', field: 'selector', emptyValue: '(everything)', cellStyle: NOWRAP_CELL },
    { title: 'Flux objects', field: 'objectCount', type: 'numeric' },
    { title: 'By kind', cellStyle: WORDS_CELL, render: s => counts(s.countsByKind) },
    {
      title: 'By state',
      cellStyle: WORDS_CELL,
      render: s =>
        counts(
          Object.fromEntries(
            Object.entries(s.countsByState).sort(([a], [b]) =>
              compareStateSeverity(
                a as ReconcileStateName,
                b as ReconcileStateName,
              ),
            ),
          ),
          key => STATE_LABEL[key as ReconcileStateName] ?? key,
        ),
    },
    {
      title: 'Load',
      field: 'utilisation',
      cellStyle: NOWRAP_CELL,
      render: s => `${Math.round(s.utilisation * 100)} %`,
    },
  ];
  return (
    <Box display="flex" flexDirection="column" style={{ gap: 24 }}>
      <div data-testid="flux-fleet-instances">
        <Table<InstanceSummary>
          title={`Instances (${instances.length})`}
          columns={instanceColumns}
          data={instances}
          options={{
            paging: instances.length > 50,
            pageSize: 50,
            padding: 'dense',
          }}
        />
      </div>
      <ShardLoadChart shards={shards} />
      <div data-testid="flux-fleet-shards">
        <Table<ShardSummary>
          title={`Shards (${shards.length})`}
          columns={shardColumns}
          data={shards}
          options={{
            paging: shards.length > 50,
            pageSize: 50,
            padding: 'dense',
          }}
        />
      </div>
    </Box>
  );
};
