import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import type { CapacityHistory } from '@flux-fleet/plugin-flux-fleet-common';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';
import { useRefreshOn } from '../FluxFleetPage/useRefreshOn';
import { LoadError } from '../shared/LoadError';

const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

type Figure = 'utilisation' | 'queueWaitP95Seconds';

/** One row per collection round, one column per controller: what recharts draws as one line per controller. */
function rowsOf(history: CapacityHistory, figure: Figure) {
  const rows = new Map<string, Record<string, number | string>>();
  for (const c of history.controllers) {
    for (const p of c.points) {
      const value = p[figure];
      if (value === undefined) continue;
      const row = rows.get(p.at) ?? { at: p.at };
      row[c.controller] = figure === 'utilisation' ? Math.round(value * 1000) / 10 : value;
      rows.set(p.at, row);
    }
  }
  return [...rows.values()].sort((a, b) => String(a.at).localeCompare(String(b.at)));
}

const time = (at: string) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function FigureChart(props: { history: CapacityHistory; figure: Figure; title: string; unit: string }) {
  const rows = rowsOf(props.history, props.figure);
  const controllers = props.history.controllers.filter(c => c.points.some(p => p[props.figure] !== undefined));
  return (
    <Box mb={2}>
      <Typography variant="subtitle2">{props.title}</Typography>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="at" tickFormatter={time} minTickGap={40} />
          <YAxis unit={props.unit} />
          <Tooltip labelFormatter={label => time(String(label))} />
          <Legend />
          {controllers.map((c, i) => (
            <Line
              key={c.controller}
              type="monotone"
              dataKey={c.controller}
              stroke={COLOURS[i % COLOURS.length]}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </Box>
  );
}

/** Measured utilisation and queue wait (p95) of an instance's controllers over recent hours. */
export const CapacityCharts = (props: { cluster: string; instance: string; refreshTick: number }) => {
  const api = useApi(fluxFleetApiRef);
  const { cluster, instance } = props;
  const history = useRefreshable(() => api.getCapacityHistory({ cluster, instance }), [api, cluster, instance]);
  useRefreshOn(props.refreshTick, history.refresh);
  if (history.error && !history.value) {
    return <LoadError what="the capacity history" error={history.error} onRetry={history.refresh} />;
  }
  if (!history.value) return <Progress />;
  if (history.value.controllers.every(c => c.points.length === 0)) {
    return (
      <Typography variant="body2" color="textSecondary">
        No measured history yet: the charts fill as the controllers' metrics are collected.
      </Typography>
    );
  }
  return (
    <>
      <FigureChart history={history.value} figure="utilisation" title="Utilisation per controller (measured)" unit=" %" />
      <FigureChart
        history={history.value}
        figure="queueWaitP95Seconds"
        title="Queue wait p95 per controller (measured)"
        unit=" s"
      />
    </>
  );
};
