import { InfoCard } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import type { CapacityFigure, ControllerCapacity, InstanceCapacity } from '@flux-fleet/plugin-flux-fleet-common';
import { useState } from 'react';
import { CapacityCharts } from './CapacityCharts';
import { ShardingPlanPanel } from './ShardingPlanPanel';
import { SourceMark } from './SourceMark';
import { VerdictStatus } from './VerdictStatus';
import { NOWRAP_CELL } from '../shared/TruncatedText';
import { WORDS_CELL } from '../shared/WholeItems';

/**
 * Backstage's table cells break words anywhere: at 1280 px the reasons' sentences, in a column of their own, squeezed
 * the others until names, verdicts and figures broke mid-word ("Control ler", "o k"), and with those kept whole the
 * table ran past the card. So names, verdicts and figures stay whole (a figure's source mark below it), headers wrap
 * between words, and each controller's reasons take a row of their own under its figures, shaded like them.
 */
const useStyles = makeStyles(theme => ({
  // `&&` outranks Backstage's odd-row shading, which would shade a controller's two rows differently
  shaded: { '&&': { backgroundColor: theme.palette.background.default } },
  plain: { '&&': { backgroundColor: 'transparent' } },
  figures: { '& > td': { paddingBottom: theme.spacing(0.5) } },
  reasons: { paddingTop: 0, wordBreak: 'normal', overflowWrap: 'normal' },
  headline: { flexShrink: 0, whiteSpace: 'nowrap', marginRight: theme.spacing(1) },
}));

const FigureCell = ({ figure, format }: { figure?: CapacityFigure; format: (v: number) => string }) => (
  <TableCell align="right" style={NOWRAP_CELL}>
    {figure ? (
      <>
        <div>{format(figure.value)}</div>
        <SourceMark source={figure.source} />
      </>
    ) : (
      '–'
    )}
  </TableCell>
);

/** The headroom cell (the header says objects): "about 1,000", "none", or a dash without objects. */
const headroom = (text?: string) => text ?? '–';
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
  const classes = useStyles();
  const [charts, setCharts] = useState(false);
  // open while the advice is to shard, until the reader says otherwise: the first answer is often the estimate of
  // the first sync, and an instance that turns over capacity once measured opens its plan then
  const [planChoice, setPlan] = useState<boolean>();
  const plan = planChoice ?? i.advice === 'shard';
  return (
    <InfoCard title={`${i.cluster} / ${i.instance}`}>
      <Box data-testid={`capacity-instance-${i.cluster}-${i.instance}`}>
        <Box display="flex" alignItems="center" mb={1}>
          <span className={classes.headline}>
            <VerdictStatus verdict={i.verdict} />
          </span>
          <Typography variant="subtitle1">{i.answer}</Typography>
        </Box>
        <Typography variant="caption" color="textSecondary">
          {i.source === 'metrics' ? 'From the controllers’ metrics' : 'Estimated from reconcile durations and intervals'}
        </Typography>
        <Table size="small" aria-label={`Controllers of ${i.cluster}/${i.instance}`}>
          <TableHead>
            <TableRow>
              <TableCell style={NOWRAP_CELL}>Controller</TableCell>
              <TableCell style={NOWRAP_CELL}>Shard</TableCell>
              <TableCell style={NOWRAP_CELL}>Verdict</TableCell>
              <TableCell align="right" style={WORDS_CELL}>Utilisation</TableCell>
              <TableCell align="right" style={WORDS_CELL}>Queue wait p95</TableCell>
              <TableCell align="right" style={WORDS_CELL}>Headroom (objects)</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {i.controllers.flatMap((c, n) => {
              const shade = n % 2 === 0 ? classes.shaded : classes.plain;
              return [
                <TableRow key={c.controller} className={`${shade} ${classes.figures}`}>
                  <TableCell style={NOWRAP_CELL}>{c.controller}</TableCell>
                  <TableCell style={NOWRAP_CELL}>{c.shard}</TableCell>
                  <TableCell style={NOWRAP_CELL}>
                    <VerdictStatus verdict={c.verdict} />
                  </TableCell>
                  <FigureCell figure={c.figures.utilisation} format={percent} />
                  <FigureCell figure={c.figures.queueWaitP95Seconds} format={seconds} />
                  <TableCell align="right" style={NOWRAP_CELL}>
                    {headroom(c.headroomText)}
                  </TableCell>
                </TableRow>,
                <TableRow key={`${c.controller} reasons`} className={shade}>
                  <TableCell colSpan={6} className={classes.reasons}>
                    <ControllerReasons c={c} />
                  </TableCell>
                </TableRow>,
              ];
            })}
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
