import { InfoCard, Progress } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import ExpandLessIcon from '@material-ui/icons/ExpandLess';
import ExpandMoreIcon from '@material-ui/icons/ExpandMore';
import IconButton from '@material-ui/core/IconButton';
import Tooltip from '@material-ui/core/Tooltip';
import RefreshIcon from '@material-ui/icons/Refresh';
import Alert from '@material-ui/lab/Alert';
import Skeleton from '@material-ui/lab/Skeleton';
import { FluxObjectRef } from '@flux-fleet/plugin-flux-fleet-common';
import { useMemo, useState } from 'react';
import { deployAnswer } from '../../lib/deployAnswer';
import { errorMessage } from '../../lib/errorMessage';
import { DeployAnswer, useSourceRevisions } from '../DeployAnswer';
import { ClusterNotices } from '../entity/ClusterNotices';
import { EntityLinkHelp } from '../entity/EntityLinkHelp';
import { EntityViewError } from '../entity/EntityViewError';
import { objectsByCluster } from '../entity/objectOrder';
import { useEntityFluxView } from '../entity/useEntityFluxView';
import { ObjectDetailDrawer } from '../ObjectDetail';
import { ClusterRow } from './ClusterRow';

/**
 * The entity card: the deploy answer first (one line per environment and cluster: the revision applied, whether it
 * is what the source holds, since when, and the cause with the `flux` command when it is not deployed), then, one
 * click away, one row per cluster with the Flux instance and shard that reconcile it, its reconcile state and its
 * tenancy boundary; a cluster that cannot be reached keeps its last known rows, marked stale. Live: refreshes when
 * the backend signals a change.
 *
 * Test ids: `flux-fleet-card`, `flux-fleet-row-<cluster>` (see `ClusterRow`), `flux-fleet-cluster-notice-<cluster>`,
 * `flux-fleet-empty`, `flux-fleet-error`, `flux-fleet-loading`, `flux-fleet-details-toggle`, and those of
 * `DeployAnswer`; the refresh button is named "Refresh".
 */
export const EntityFluxFleetCard = () => {
  const { entity, entityRef, view, live, instances } = useEntityFluxView({
    withInstances: true,
  });
  const [opened, setOpened] = useState<FluxObjectRef>();
  const [details, setDetails] = useState(false);
  const sourceRevisions = useSourceRevisions(view.value?.objects);
  const lines = useMemo(
    () =>
      view.value
        ? deployAnswer(view.value.objects, view.value.clusters, sourceRevisions)
        : [],
    [view.value, sourceRevisions],
  );

  const refreshButton = (
    <Tooltip title={live ? 'Live: updates as Flux reconciles' : 'Refresh'}>
      <IconButton aria-label="Refresh" onClick={view.refresh} size="small">
        <RefreshIcon />
      </IconButton>
    </Tooltip>
  );

  let content;
  if (!view.value) {
    content = view.error ? (
      <EntityViewError
        entityRef={entityRef}
        error={view.error}
        onRetry={view.refresh}
      />
    ) : (
      <div data-testid="flux-fleet-loading">
        <Progress />
        <Skeleton variant="text" width="60%" />
        <Skeleton variant="rect" height={96} />
      </div>
    );
  } else if (view.value.objects.length === 0) {
    content = (
      <>
        <ClusterNotices clusters={view.value.clusters} />
        <EntityLinkHelp entity={entity} link={view.value.link} />
      </>
    );
  } else {
    const { clusters, objects } = view.value;
    content = (
      <>
        {view.error && (
          <Alert severity="warning">
            Could not refresh: {errorMessage(view.error)}. Showing what was
            loaded before.
          </Alert>
        )}
        <ClusterNotices clusters={clusters} />
        <DeployAnswer lines={lines} onOpen={setOpened} />
        <Button
          size="small"
          onClick={() => setDetails(d => !d)}
          aria-expanded={details}
          aria-controls="flux-fleet-card-details"
          startIcon={details ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          data-testid="flux-fleet-details-toggle"
        >
          {details ? 'Hide' : 'Show'} instance, shard and boundary per cluster
        </Button>
        <div id="flux-fleet-card-details" hidden={!details}>
          {details &&
            objectsByCluster(objects).map(group => (
              <ClusterRow
                key={group.cluster}
                cluster={group.cluster}
                objects={group.objects}
                health={clusters.find(c => c.name === group.cluster)}
                instances={instances}
                onOpen={setOpened}
                onChanged={view.refresh}
              />
            ))}
        </div>
      </>
    );
  }

  return (
    <InfoCard
      title="Flux"
      subheader="Did it deploy, everywhere?"
      action={refreshButton}
    >
      <Box data-testid="flux-fleet-card">{content}</Box>
      <ObjectDetailDrawer
        objectRef={opened}
        clusters={view.value?.clusters}
        onClose={() => setOpened(undefined)}
        onChanged={view.refresh}
      />
    </InfoCard>
  );
};
