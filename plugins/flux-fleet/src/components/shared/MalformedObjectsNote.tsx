import { useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import Dialog from '@material-ui/core/Dialog';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { fluxFleetApiRef } from '../../api';
import { LoadError } from './LoadError';

/** The list of a cluster's malformed objects, each with what is wrong with it. */
const MalformedObjectsList = (props: { cluster: string }) => {
  const api = useApi(fluxFleetApiRef);
  const { value, loading, error } = useAsync(
    async () => (api.getMalformed ? api.getMalformed({ cluster: props.cluster }) : []),
    [api, props.cluster],
  );
  if (error) return <LoadError error={error} what={`the malformed objects of ${props.cluster}`} />;
  if (loading || !value) return <Typography variant="body2">Loading…</Typography>;
  return (
    <ul data-testid={`flux-fleet-malformed-${props.cluster}`}>
      {value.map(m => (
        <li key={`${m.kind} ${m.namespace}/${m.name}`}>
          <Typography variant="body2">
            <strong>
              {m.kind} {m.namespace}/{m.name}
            </strong>{' '}
            {m.disposition === 'skipped' ? '(skipped: it cannot be read)' : '(shown, these fields ignored)'}:{' '}
            {m.problems.join('; ')}
          </Typography>
        </li>
      ))}
    </ul>
  );
};

/**
 * "3 malformed objects": a small note for a cluster whose objects were malformed as read, opening the list of them
 * with what is wrong with each (`GET /malformed?cluster=`). Nothing when there are none.
 *
 * Test ids: `flux-fleet-malformed-note-<cluster>`, the list `flux-fleet-malformed-<cluster>`.
 */
export const MalformedObjectsNote = (props: { cluster: string; count?: number }) => {
  const [open, setOpen] = useState(false);
  if (!props.count) return null;
  const text = `${props.count} malformed object${props.count === 1 ? '' : 's'}`;
  return (
    <>
      <Link
        component="button"
        variant="caption"
        color="error"
        onClick={() => setOpen(true)}
        data-testid={`flux-fleet-malformed-note-${props.cluster}`}
      >
        {text}
      </Link>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth>
        <DialogTitle>
          {text} in cluster {props.cluster}
        </DialogTitle>
        <DialogContent>{open && <MalformedObjectsList cluster={props.cluster} />}</DialogContent>
      </Dialog>
    </>
  );
};
