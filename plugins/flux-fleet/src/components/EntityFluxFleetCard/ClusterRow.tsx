import Box from '@material-ui/core/Box';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import {
  EntityClusterHealth,
  FleetObject,
  FluxObjectRef,
  InstanceSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import { objectTitle } from '../../lib/objectKey';
import { findInstance } from '../entity/useEntityFluxView';
import { ObjectActions } from '../ObjectActions';
import { BoundarySummary } from '../shared/BoundarySummary';
import { FactList } from '../shared/FactList';
import { InstanceLabel } from '../shared/InstanceLabel';
import { OwnerSummary } from '../shared/OwnerSummary';
import { ReconcileStateLabel } from '../shared/ReconcileStateLabel';

/** How many objects of one cluster the card lists before pointing to the tab. */
export const CARD_OBJECTS_PER_CLUSTER = 5;

/**
 * One cluster where the entity deploys, with each of its Flux objects there: instance, shard, reconcile state and
 * tenancy boundary, and the object's actions.
 *
 * Test ids: `flux-fleet-row-<cluster>` (the row), `flux-fleet-object-<key>` (each object in it), and inside them
 * `flux-fleet-instance`, `flux-fleet-shard`, `flux-fleet-state`, `flux-fleet-boundary`, `flux-fleet-actions`,
 * `flux-fleet-stale`.
 */
export const ClusterRow = (props: {
  cluster: string;
  objects: FleetObject[];
  health?: EntityClusterHealth;
  instances: InstanceSummary[];
  onOpen: (ref: FluxObjectRef) => void;
  onChanged: () => void;
}) => {
  const { cluster, objects, health, instances, onOpen, onChanged } = props;
  const shown = objects.slice(0, CARD_OBJECTS_PER_CLUSTER);
  return (
    <Box
      component="section"
      aria-label={`Cluster ${cluster}`}
      data-testid={`flux-fleet-row-${cluster}`}
      py={1.5}
      borderBottom={1}
      borderColor="divider"
    >
      <Box display="flex" alignItems="center" style={{ gap: 8 }} mb={1}>
        <Typography
          variant="subtitle1"
          component="h3"
          style={{ fontWeight: 'bold' }}
        >
          {cluster}
        </Typography>
      </Box>
      {shown.map(object => (
        <Box
          key={object.key}
          data-testid={`flux-fleet-object-${object.key}`}
          mb={1.5}
          pl={1}
        >
          <Box display="flex" alignItems="center" flexWrap="wrap">
            <Box flexGrow={1}>
              <Link
                component="button"
                variant="body2"
                onClick={() => onOpen(object.ref)}
                aria-label={`Details of ${objectTitle(
                  object.ref,
                )} in ${cluster}`}
                style={{ fontWeight: 'bold', textAlign: 'left' }}
              >
                {objectTitle(object.ref)}
              </Link>
            </Box>
            <ObjectActions
              object={object}
              cluster={health}
              variant="menu"
              onChanged={onChanged}
            />
          </Box>
          <FactList
            facts={[
              {
                label: 'Instance',
                value: (
                  <InstanceLabel
                    name={object.owner.instance}
                    instance={findInstance(
                      instances,
                      cluster,
                      object.owner.instance,
                    )}
                  />
                ),
              },
              { label: 'Shard', value: <OwnerSummary object={object} /> },
              {
                label: 'State',
                value: <ReconcileStateLabel object={object} />,
              },
              {
                label: 'Boundary',
                value: <BoundarySummary boundary={object.boundary} />,
              },
            ]}
          />
        </Box>
      ))}
      {objects.length > shown.length && (
        <Typography variant="body2" color="textSecondary">
          And {objects.length - shown.length} more Flux objects in {cluster}:
          see the Flux tab.
        </Typography>
      )}
    </Box>
  );
};
