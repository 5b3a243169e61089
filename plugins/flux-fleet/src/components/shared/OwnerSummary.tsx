import { useApi } from '@backstage/core-plugin-api';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { FleetObject, MAIN_SHARD } from '@flux-fleet/plugin-flux-fleet-common';
import useAsync from 'react-use/esm/useAsync';
import { fluxFleetApiRef } from '../../api';
import { contestedAdvice, orphanAdvice } from '../../lib/ownerText';

/** The orphan advice, naming real shards of the object's cluster once they are known. */
const OrphanAdvice = (props: { object: FleetObject }) => {
  const { object } = props;
  const api = useApi(fluxFleetApiRef);
  // Only orphans pay for this read; when it fails the advice uses a generic example.
  const { value: shards } = useAsync(
    async () =>
      (await api.getShards({ cluster: object.ref.cluster })).map(s => s.name),
    [api, object.ref.cluster],
  );
  return <>{orphanAdvice(object, shards ?? [])}</>;
};

/**
 * Which shard reconciles an object; orphans and contested objects shown loudly, with what to do about them.
 *
 * Test ids: `flux-fleet-shard` (the shard name, or the alert of an orphan or contested object).
 */
export const OwnerSummary = (props: { object: FleetObject }) => {
  const { object } = props;
  const { owner } = object;
  if (owner.status === 'orphan') {
    return (
      <Alert severity="error" data-testid="flux-fleet-shard">
        <AlertTitle>Orphan</AlertTitle>
        <OrphanAdvice object={object} />{' '}
        <Typography variant="caption" component="span">
          (Inferred from the controllers' --watch-label-selector and
          --watch-all-namespaces.)
        </Typography>
      </Alert>
    );
  }
  if (owner.status === 'contested') {
    return (
      <Alert severity="error" data-testid="flux-fleet-shard">
        <AlertTitle>Contested</AlertTitle>
        {contestedAdvice(owner)}
      </Alert>
    );
  }
  return (
    <Typography variant="body2" component="span" data-testid="flux-fleet-shard">
      {owner.shard ?? MAIN_SHARD}
    </Typography>
  );
};
