import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import Box from '@material-ui/core/Box';
import Divider from '@material-ui/core/Divider';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import {
  EntityClusterHealth,
  FluxObjectRef,
  RECONCILER_KINDS,
  SIGNAL_CHANNELS,
} from '@flux-fleet/plugin-flux-fleet-common';
import { ReactNode } from 'react';
import { fluxFleetApiRef } from '../../api';
import { useLiveRefresh } from '../../hooks/useLiveRefresh';
import { useRefreshable } from '../../hooks/useRefreshable';
import { errorMessage } from '../../lib/errorMessage';
import { objectKey, objectTitle } from '../../lib/objectKey';
import { ObjectActions } from '../ObjectActions';
import { FactList } from '../shared/FactList';
import { LoadError } from '../shared/LoadError';
import { BoundarySummary } from '../shared/BoundarySummary';
import { OwnerSummary } from '../shared/OwnerSummary';
import { ReconcileStateLabel } from '../shared/ReconcileStateLabel';
import { CliCommands } from './CliCommands';
import { DependencyChain } from './DependencyChain';
import { EventsList } from './EventsList';
import { FindingsList } from './FindingsList';
import { InventoryTable } from './InventoryTable';

const Section = (props: { title: string; children: ReactNode }) => (
  <Box component="section" my={2} aria-label={props.title}>
    <Typography variant="h6" component="h3" gutterBottom>
      {props.title}
    </Typography>
    {props.children}
  </Box>
);

/**
 * Everything about one Flux object: state, actions, owner, tenancy boundary, the dependsOn chain with the root
 * cause when blocked, the inventory, recent events, findings and `flux` CLI commands. Refreshes on the object's
 * signal channel.
 *
 * Test ids: `flux-fleet-detail`, plus those of its parts (`flux-fleet-state`, `flux-fleet-actions`,
 * `flux-fleet-shard`, `flux-fleet-boundary`, `flux-fleet-dependencies`, `flux-fleet-root-cause`,
 * `flux-fleet-inventory`, `flux-fleet-events`, `flux-fleet-findings`, `flux-fleet-cli`).
 */
export const ObjectDetailPanel = (props: {
  objectRef: FluxObjectRef;
  cluster?: EntityClusterHealth;
  /** Called when an action on the object has settled, so the view behind can refresh too. */
  onChanged?: () => void;
}) => {
  const { objectRef, cluster, onChanged } = props;
  const api = useApi(fluxFleetApiRef);
  const key = objectKey(objectRef);
  const detail = useRefreshable(() => api.getObject(objectRef), [api, key]);
  useLiveRefresh(SIGNAL_CHANNELS.object(key), detail.refresh);

  if (!detail.value) {
    if (detail.error) {
      const gone =
        ResponseError.is(detail.error) && detail.error.statusCode === 404;
      return (
        <div data-testid="flux-fleet-detail">
          {gone ? (
            <Alert severity="warning">
              {objectTitle(objectRef)} is no longer in cluster{' '}
              {objectRef.cluster}: it may have been deleted.
            </Alert>
          ) : (
            <LoadError
              what={`${objectTitle(objectRef)} of cluster ${objectRef.cluster}`}
              error={detail.error}
              onRetry={detail.refresh}
            />
          )}
        </div>
      );
    }
    return <Progress />;
  }

  const object = detail.value;
  const isReconciler = RECONCILER_KINDS.includes(object.ref.kind);
  return (
    <Box data-testid="flux-fleet-detail">
      {detail.error && (
        <Alert severity="warning">
          Could not refresh: {errorMessage(detail.error)}. Showing what was
          loaded before.
        </Alert>
      )}
      <Section title="State">
        <ReconcileStateLabel object={object} />
      </Section>
      <Section title="Actions">
        <ObjectActions
          object={object}
          cluster={cluster}
          variant="buttons"
          onChanged={() => {
            detail.refresh();
            onChanged?.();
          }}
        />
      </Section>
      <Divider />
      <Section title="Reconciled by">
        <FactList
          facts={[
            { label: 'Instance', value: object.owner.instance ?? '—' },
            { label: 'Controller', value: object.owner.controller ?? '—' },
            { label: 'Shard', value: <OwnerSummary object={object} /> },
          ]}
        />
      </Section>
      <Section title="Tenancy boundary">
        <BoundarySummary boundary={object.boundary} />
      </Section>
      <Divider />
      <Section title="Depends on">
        <DependencyChain detail={object} />
      </Section>
      {(isReconciler || object.inventory.length > 0) && (
        <Section title="Inventory">
          <InventoryTable inventory={object.inventory} />
        </Section>
      )}
      <Section title="Recent events">
        <EventsList events={object.events} />
      </Section>
      <Section title="Findings">
        <FindingsList findings={object.findingDetails} />
      </Section>
      <Section title="flux CLI">
        <CliCommands
          objectRef={object.ref}
          apiVersion={object.apiVersion}
          instance={object.owner.instance}
        />
      </Section>
    </Box>
  );
};
