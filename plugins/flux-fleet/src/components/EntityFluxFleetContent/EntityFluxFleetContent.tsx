import {
  InfoCard,
  Progress,
  Table,
  TableColumn,
} from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import {
  EntityClusterHealth,
  FleetObject,
  FluxObjectRef,
} from '@flux-fleet/plugin-flux-fleet-common';
import { useMemo, useState } from 'react';
import { ENFORCEMENT_LABEL } from '../../lib/boundaryText';
import { deployAnswer } from '../../lib/deployAnswer';
import { errorMessage } from '../../lib/errorMessage';
import { objectTitle } from '../../lib/objectKey';
import { ownerLabel } from '../../lib/ownerText';
import { compareStateSeverity } from '../../lib/stateText';
import {
  DeployAnswer,
  RevisionMatrix,
  useSourceRevisions,
} from '../DeployAnswer';
import { ClusterNotices } from '../entity/ClusterNotices';
import { EntityLinkHelp } from '../entity/EntityLinkHelp';
import { EntityViewError } from '../entity/EntityViewError';
import { compareObjectsForReading } from '../entity/objectOrder';
import { useEntityFluxView } from '../entity/useEntityFluxView';
import { ObjectActions } from '../ObjectActions';
import { ObjectDetailDrawer } from '../ObjectDetail';
import { ReconcileStateLabel } from '../shared/ReconcileStateLabel';
import { NOWRAP_CELL, TruncatedText } from '../shared/TruncatedText';
import { SecondLine } from '../shared/WholeItems';
import { RelativeTime } from '../shared/RelativeTime';
import { EntityObjectFilters } from './EntityObjectFilters';
import { NO_FILTER, matchesFilter } from './entityObjectFilter';

function columns(
  clusters: EntityClusterHealth[],
  open: (ref: FluxObjectRef) => void,
  refresh: () => void,
): TableColumn<FleetObject>[] {
  return [
    { title: 'Cluster', field: 'ref.cluster', cellStyle: NOWRAP_CELL },
    {
      title: 'Object',
      field: 'key',
      customSort: (a, b) =>
        objectTitle(a.ref).localeCompare(objectTitle(b.ref)),
      cellStyle: NOWRAP_CELL,
      render: o => (
        <Link
          component="button"
          variant="body2"
          onClick={() => open(o.ref)}
          aria-label={`Details of ${objectTitle(o.ref)} in ${o.ref.cluster}`}
          style={{ textAlign: 'left' }}
        >
          <TruncatedText text={objectTitle(o.ref)} maxWidth="16em" />
        </Link>
      ),
    },
    {
      // the boundary under the instance and shard, and the last change under the state: at 1280 px columns of
      // their own ran the table to 1,253 px
      title: 'Instance / shard and boundary',
      customSort: (a, b) =>
        ownerLabel(a.owner).localeCompare(ownerLabel(b.owner)),
      cellStyle: NOWRAP_CELL,
      render: o => (
        <>
          <TruncatedText
            text={ownerLabel(o.owner)}
            color={o.owner.status === 'ok' ? 'textPrimary' : 'error'}
            testId="flux-fleet-shard"
            maxWidth="12em"
          />
          <SecondLine>
            <TruncatedText
              testId="flux-fleet-boundary"
              maxWidth="12em"
              color="textSecondary"
              text={`${ENFORCEMENT_LABEL[o.boundary.enforcement]}${
                o.boundary.tenant ? ` · tenant ${o.boundary.tenant}` : ''
              }`}
            />
          </SecondLine>
        </>
      ),
    },
    {
      title: 'State',
      field: 'updatedAt',
      customSort: (a, b) =>
        compareStateSeverity(a.state.state, b.state.state) ||
        b.updatedAt.localeCompare(a.updatedAt),
      render: o => (
        <>
          <ReconcileStateLabel object={o} compact />
          <SecondLine>
            changed <RelativeTime time={o.updatedAt} />
          </SecondLine>
        </>
      ),
    },
    {
      title: 'Actions',
      sorting: false,
      render: o => (
        <ObjectActions
          object={o}
          cluster={clusters.find(c => c.name === o.ref.cluster)}
          variant="menu"
          onChanged={refresh}
        />
      ),
    },
  ];
}

/**
 * The entity's Flux tab: every Flux object of the entity across clusters in a filterable, sortable table; a click
 * opens the object's detail view (dependencies with the root cause, inventory, events, findings, CLI commands).
 * Live: refreshes when the backend signals a change.
 *
 * Test ids: `flux-fleet-content`, `flux-fleet-objects` (the table), `flux-fleet-filters`,
 * `flux-fleet-cluster-notice-<cluster>`, `flux-fleet-empty`, `flux-fleet-error`, `flux-fleet-loading`,
 * `flux-fleet-detail-drawer`.
 */
export const EntityFluxFleetContent = () => {
  const { entity, entityRef, view } = useEntityFluxView();
  const [filter, setFilter] = useState(NO_FILTER);
  const [opened, setOpened] = useState<FluxObjectRef>();
  const sourceRevisions = useSourceRevisions(view.value?.objects);
  const lines = useMemo(
    () =>
      view.value
        ? deployAnswer(view.value.objects, view.value.clusters, sourceRevisions)
        : [],
    [view.value, sourceRevisions],
  );

  if (!view.value) {
    return (
      <Box data-testid="flux-fleet-content">
        {view.error ? (
          <EntityViewError
            entityRef={entityRef}
            error={view.error}
            onRetry={view.refresh}
          />
        ) : (
          <div data-testid="flux-fleet-loading">
            <Progress />
          </div>
        )}
      </Box>
    );
  }

  const { objects, clusters } = view.value;
  if (objects.length === 0) {
    return (
      <Box data-testid="flux-fleet-content">
        <ClusterNotices clusters={clusters} />
        <EntityLinkHelp entity={entity} link={view.value.link} />
      </Box>
    );
  }

  const shown = objects
    .filter(o => matchesFilter(o, filter))
    .sort(compareObjectsForReading);
  return (
    <Box data-testid="flux-fleet-content">
      {view.error && (
        <Alert severity="warning">
          Could not refresh: {errorMessage(view.error)}. Showing what was loaded
          before.
        </Alert>
      )}
      <ClusterNotices clusters={clusters} />
      <InfoCard title="Did it deploy, everywhere?">
        <DeployAnswer lines={lines} onOpen={setOpened} />
        <RevisionMatrix
          objects={objects}
          clusters={clusters}
          onOpen={setOpened}
        />
      </InfoCard>
      <Box mt={2} />
      <EntityObjectFilters
        objects={objects}
        filter={filter}
        onChange={setFilter}
      />
      <div data-testid="flux-fleet-objects">
        <Table<FleetObject>
          title={`Flux objects of ${
            entity.metadata.title ?? entity.metadata.name
          } (${shown.length} of ${objects.length})`}
          columns={columns(clusters, setOpened, view.refresh)}
          data={shown}
          options={{
            paging: shown.length > 50,
            pageSize: 50,
            search: false,
            padding: 'dense',
          }}
          emptyContent={
            <Box p={2}>
              <Typography variant="body2">
                No Flux object of this entity matches the filters.
              </Typography>
            </Box>
          }
        />
      </div>
      <ObjectDetailDrawer
        objectRef={opened}
        clusters={clusters}
        onClose={() => setOpened(undefined)}
        onChanged={view.refresh}
      />
    </Box>
  );
};
