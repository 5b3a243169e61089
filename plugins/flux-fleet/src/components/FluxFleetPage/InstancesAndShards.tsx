import { Progress, Table, TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import { Fragment } from 'react';
import {
  InstanceSummary,
  ReconcileStateName,
  ShardSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';
import { instancesHeadline } from '../../lib/instancesHeadline';
import { STATE_LABEL, compareStateSeverity } from '../../lib/stateText';
import { ObjectFilters, shardFilters } from '../FleetObjectsTable';
import { ShardLoadChart } from './ShardLoadChart';
import { LoadError } from '../shared/LoadError';
import { useRefreshOn } from './useRefreshOn';
import { useErrorTextClass } from '../shared/useErrorTextClass';
import { NOWRAP_CELL } from '../shared/TruncatedText';
import { BreakablePath, SecondLine, WholeItems, WholeLines, WholeWords, WORDS_CELL } from '../shared/WholeItems';

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
  // the cluster under the instance's name, and its management under its version: at 1280 px columns of their own
  // ran the table to 1,285 px
  {
    title: 'Instance',
    field: 'name',
    cellStyle: NOWRAP_CELL,
    customSort: (a, b) => `${a.cluster}/${a.name}`.localeCompare(`${b.cluster}/${b.name}`),
    render: i => (
      <>
        {i.name}
        <SecondLine>
          <WholeItems items={[i.cluster]} />
        </SecondLine>
      </>
    ),
  },
  {
    title: 'Flux',
    field: 'version',
    cellStyle: NOWRAP_CELL,
    render: i => (
      <>
        {i.version ?? '—'}
        <SecondLine>
          <WholeLines
            lines={
              i.operatorManaged
                ? ['Flux Operator', ...(i.fluxInstance ? [`FluxInstance ${i.fluxInstance}`] : [])]
                : ['not operator-managed']
            }
          />
        </SecondLine>
      </>
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
 * Test ids: `flux-fleet-instances-headline`, `flux-fleet-instances`, `flux-fleet-shards`, `flux-fleet-shard-load`; each shard name is a button
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
    {
      // the cluster and instance under the shard's name: three columns ran the table to 1,352 px at 1280
      title: 'Shard',
      field: 'name',
      cellStyle: NOWRAP_CELL,
      customSort: (a, b) =>
        `${a.cluster}/${a.instance}/${a.name}`.localeCompare(`${b.cluster}/${b.instance}/${b.name}`),
      render: s => (
        <>
          <Link
            component="button"
            variant="body2"
            aria-label={`Objects of shard ${s.cluster}/${s.instance}/${s.name}`}
            onClick={() => props.onObjects(shardFilters(s.cluster, s.instance, s.name))}
          >
            {s.name}
          </Link>
          <SecondLine>
            <BreakablePath parts={[s.cluster, s.instance]} />
          </SecondLine>
        </>
      ),
    },
    {
      // wraps between the selector's words (`key in (a, b)`) and after the slash of a label key, never inside a word:
      // `toolkit.fluxcd.io/tenant=payments` on one line widened the table past the page at 1280 px
      title: 'Selector',
      field: 'selector',
      cellStyle: WORDS_CELL,
      render: s =>
        s.selector ? (
          <>
            {s.selector.split(' ').map((word, n) => (
              <Fragment key={n}>
                {n > 0 && ' '}
                <BreakablePath parts={word.split('/')} />
              </Fragment>
            ))}
          </>
        ) : (
          '(everything)'
        ),
    },
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
      {instances.length > 0 && (
        <Typography variant="h6" component="p" data-testid="flux-fleet-instances-headline">
          <WholeWords text={instancesHeadline(instances, shards.length)} />
        </Typography>
      )}
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
