import { InfoCard } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import type { CapacityFigure, ControllerCapacity, InstanceCapacity } from '@flux-fleet/plugin-flux-fleet-common';
import { useState } from 'react';
import { CapacityCharts } from './CapacityCharts';
import { ShardingPlanPanel } from './ShardingPlanPanel';
import { SourceMark } from './SourceMark';
import { VerdictStatus } from './VerdictStatus';

const FigureCell = ({ figure, format }: { figure?: CapacityFigure; format: (v: number) => string }) => (
  <TableCell align="right">
    {figure ? (
      <>
        {format(figure.value)} <SourceMark source={figure.source} />
      </>
    ) : (
      '–'
    )}
  </TableCell>
);

const percent = (v: number) => `${Math.round(v * 100)} %`;
const seconds = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v)} s`;

/** Why a controller has its verdict: every reason with its figure, and why it is estimated when it is. */
const ControllerReasons = ({ c }: { c: ControllerCapacity }) => (
  <>
    {c.reasons.map(r => (
      <Typography key={`${r.code}-${r.text}`} variant="body2" component="div">
        {r.text} <SourceMark source={r.source} />
      </Typography>
    ))}
    {c.source === 'estimate' && (
      <Typography variant="caption" color="textSecondary" component="div">
        Estimated: {c.estimateReason ?? 'no metrics are collected for it'}
      </Typography>
    )}
  </>
);

/** One instance: the one-sentence answer and verdict, each controller's figures and reasons, charts and plan. */
export const InstanceCapacityCard = (props: { capacity: InstanceCapacity; refreshTick: number }) => {
  const { capacity: i } = props;
  const [charts, setCharts] = useState(false);
  const [plan, setPlan] = useState(i.advice === 'shard');
  return (
    <InfoCard title={`${i.cluster} / ${i.instance}`}>
      <Box data-testid={`capacity-instance-${i.cluster}-${i.instance}`}>
        <Box display="flex" alignItems="center" mb={1}>
          <VerdictStatus verdict={i.verdict} />
          <Typography variant="subtitle1" style={{ marginLeft: 8 }}>
            {i.answer}
          </Typography>
        </Box>
        <Typography variant="caption" color="textSecondary">
          {i.source === 'metrics' ? 'From the controllers’ metrics' : 'Estimated from reconcile durations and intervals'}
        </Typography>
        <Table size="small" aria-label={`Controllers of ${i.cluster}/${i.instance}`}>
          <TableHead>
            <TableRow>
              <TableCell>Controller</TableCell>
              <TableCell>Shard</TableCell>
              <TableCell>Verdict</TableCell>
              <TableCell align="right">Utilisation</TableCell>
              <TableCell align="right">Queue wait p95</TableCell>
              <TableCell align="right">Headroom (objects)</TableCell>
              <TableCell>Reasons</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {i.controllers.map(c => (
              <TableRow key={c.controller}>
                <TableCell>{c.controller}</TableCell>
                <TableCell>{c.shard}</TableCell>
                <TableCell>
                  <VerdictStatus verdict={c.verdict} />
                </TableCell>
                <FigureCell figure={c.figures.utilisation} format={percent} />
                <FigureCell figure={c.figures.queueWaitP95Seconds} format={seconds} />
                <TableCell align="right">{c.headroomText ?? '–'}</TableCell>
                <TableCell>
                  <ControllerReasons c={c} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Box mt={1}>
          <Button size="small" onClick={() => setCharts(!charts)}>
            {charts ? 'Hide recent hours' : 'Show recent hours'}
          </Button>
          <Button size="small" onClick={() => setPlan(!plan)}>
            {plan ? 'Hide the sharding plan' : 'Show a sharding plan'}
          </Button>
        </Box>
        {charts && <CapacityCharts cluster={i.cluster} instance={i.instance} refreshTick={props.refreshTick} />}
        {plan && <ShardingPlanPanel cluster={i.cluster} instance={i.instance} />}
      </Box>
    </InfoCard>
  );
};
