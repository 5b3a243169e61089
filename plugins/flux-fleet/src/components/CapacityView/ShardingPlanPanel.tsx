import { CodeSnippet, CopyTextButton, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Link from '@material-ui/core/Link';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { useMemo } from 'react';
import { fluxFleetApiRef } from '../../api';
import { useRefreshable } from '../../hooks/useRefreshable';
import { LoadError } from '../shared/LoadError';

const percent = (u: number) => `${Math.round(u * 100)} %`;

/**
 * The sharding plan of one instance (rules §13): its sentence, the predicted utilisation of each shard, the groups
 * moved, the kubectl commands to copy, and the kustomize patch to download.
 */
export const ShardingPlanPanel = (props: { cluster: string; instance: string }) => {
  const api = useApi(fluxFleetApiRef);
  const { cluster, instance } = props;
  const plan = useRefreshable(() => api.getCapacityPlan({ cluster, instance }), [api, cluster, instance]);
  const patchUrl = useMemo(
    () =>
      plan.value && typeof URL.createObjectURL === 'function'
        ? URL.createObjectURL(new Blob([plan.value.kustomizePatch], { type: 'application/yaml' }))
        : undefined,
    [plan.value],
  );
  if (plan.error && !plan.value) {
    return <LoadError what="the sharding plan" error={plan.error} onRetry={plan.refresh} />;
  }
  if (!plan.value) return <Progress />;
  const p = plan.value;
  const commands = p.commands.join('\n');
  return (
    <Box data-testid={`capacity-plan-${cluster}-${instance}`}>
      <Typography variant="subtitle1">{p.summary}</Typography>
      <Typography variant="caption" color="textSecondary">
        {p.source === 'metrics' ? 'Loads from measured metrics' : `Loads estimated: ${p.estimateReason ?? 'no metrics'}`}
        {` · ${p.movedGroups} group${p.movedGroups === 1 ? '' : 's'} moved, ${p.labelChanges.length} label${
          p.labelChanges.length === 1 ? '' : 's'
        } changed`}
      </Typography>
      <Table size="small" aria-label="Planned shards">
        <TableHead>
          <TableRow>
            <TableCell>Shard</TableCell>
            <TableCell align="right">Groups</TableCell>
            <TableCell align="right">Objects</TableCell>
            <TableCell align="right">Predicted utilisation</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {p.shards.map(s => (
            <TableRow key={s.name}>
              <TableCell>
                {s.name}
                {s.existing ? '' : ' (new)'}
              </TableCell>
              <TableCell align="right">{s.groupCount}</TableCell>
              <TableCell align="right">{s.objectCount}</TableCell>
              <TableCell align="right">{percent(s.utilisation)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {p.notes.map(note => (
        <Typography key={note} variant="body2" color="textSecondary">
          {note}
        </Typography>
      ))}
      {p.commands.length > 0 && (
        <Box mt={2}>
          <Box display="flex" alignItems="center" style={{ gap: 8 }}>
            <Typography variant="subtitle2">
              {p.commands.length} command{p.commands.length === 1 ? '' : 's'}
            </Typography>
            <CopyTextButton text={commands} tooltipText="Commands copied" aria-label="Copy the commands" />
          </Box>
          {/* a plan can hold hundreds of commands (one per labelled group): a box of its own height, scrolled, and the
              button above copies them all; drawn at full height, the page ran on for screens and Chromium left part
              of the block unpainted */}
          <CodeSnippet
            language="bash"
            text={commands}
            customStyle={{ maxHeight: '20em', overflow: 'auto' }}
          />
        </Box>
      )}
      {p.controllers?.kind === 'flux-instance' && (
        <Box mt={2}>
          <Typography variant="subtitle2">FluxInstance patch</Typography>
          <CodeSnippet language="yaml" text={p.controllers.patch} showCopyCodeButton />
        </Box>
      )}
      {p.controllers?.kind === 'bootstrap' &&
        p.controllers.files.map(f => (
          <Box mt={2} key={f.path}>
            <Typography variant="subtitle2">{f.path}</Typography>
            <CodeSnippet language="yaml" text={f.content} showCopyCodeButton />
          </Box>
        ))}
      {p.labelChanges.length > 0 && (
        <Box mt={2}>
          <Link
            href={patchUrl ?? `data:application/yaml;charset=utf-8,${encodeURIComponent(p.kustomizePatch)}`}
            download={`${cluster}-${instance}-sharding-patch.yaml`}
          >
            Download the kustomize patch
          </Link>
        </Box>
      )}
    </Box>
  );
};
