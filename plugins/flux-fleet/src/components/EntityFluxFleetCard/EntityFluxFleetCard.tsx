import { InfoCard, Progress } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import IconButton from '@material-ui/core/IconButton';
import Tooltip from '@material-ui/core/Tooltip';
import RefreshIcon from '@material-ui/icons/Refresh';
import Alert from '@material-ui/lab/Alert';
import { FluxObjectRef } from '@flux-fleet/plugin-flux-fleet-common';
import { useState } from 'react';
import { errorMessage } from '../../lib/errorMessage';
import { ClusterNotices } from '../entity/ClusterNotices';
import { EntityLinkHelp } from '../entity/EntityLinkHelp';
import { EntityViewError } from '../entity/EntityViewError';
import { objectsByCluster } from '../entity/objectOrder';
import { useEntityFluxView } from '../entity/useEntityFluxView';
import { ObjectDetailDrawer } from '../ObjectDetail';
import { ClusterRow } from './ClusterRow';

/**
 * The entity card: one row per cluster where the entity deploys, each showing which Flux instance and shard
 * reconciles it, its reconcile state and its tenancy boundary; a cluster that cannot be reached keeps its last
 * known rows, marked stale, beside the others. Live: refreshes when the backend signals a change.
 *
 * Test ids: `flux-fleet-card`, `flux-fleet-row-<cluster>` (see `ClusterRow`), `flux-fleet-cluster-notice-<cluster>`,
 * `flux-fleet-empty`, `flux-fleet-error`, `flux-fleet-loading`; the refresh button is named "Refresh".
 */
export const EntityFluxFleetCard = () => {
  const { entity, entityRef, view, live, instances } = useEntityFluxView({
    withInstances: true,
  });
  const [opened, setOpened] = useState<FluxObjectRef>();

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
        {objectsByCluster(objects).map(group => (
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
      </>
    );
  }

  return (
    <InfoCard
      title="Flux"
      subheader="Where it deploys, who reconciles it, in what state, inside which boundary"
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
