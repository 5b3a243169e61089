import { Entity } from '@backstage/catalog-model';
import { EmptyState } from '@backstage/core-components';
import Typography from '@material-ui/core/Typography';
import {
  ANNOTATIONS,
  EntityLink,
  LABELS,
} from '@flux-fleet/plugin-flux-fleet-common';

/**
 * The empty state of an entity with no Flux objects: the three ways to link it (rules §6), with this entity's own
 * values filled in.
 *
 * Test ids: `flux-fleet-empty`.
 */
export const EntityLinkHelp = (props: {
  entity: Entity;
  link?: EntityLink;
}) => {
  const { entity, link } = props;
  const annotations = entity.metadata.annotations ?? {};
  const id =
    link?.kubernetesId ??
    annotations[ANNOTATIONS.kubernetesId] ??
    entity.metadata.name;
  const selector =
    link?.labelSelector ?? annotations[ANNOTATIONS.kubernetesLabelSelector];
  return (
    <div data-testid="flux-fleet-empty">
      <EmptyState
        missing="field"
        title="No Flux objects are linked to this entity"
        description={
          selector
            ? `No Flux object, nor any workload one of them applies, has labels matching ${selector}.`
            : `No Flux object is linked to ${id} in any cluster.`
        }
        action={
          <Typography variant="body2" component="div">
            Link its Flux objects in one of these ways:
            <ul>
              <li>
                label the Flux objects (Kustomization, HelmRelease…) or the
                workloads they apply with{' '}
                <code>
                  {LABELS.kubernetesId}: {id}
                </code>
              </li>
              <li>
                annotate this entity with{' '}
                <code>{ANNOTATIONS.kubernetesLabelSelector}</code> (a label
                selector matching them, e.g.{' '}
                <code>app.kubernetes.io/name={id}</code>)
              </li>
              <li>
                annotate the Flux objects with{' '}
                <code>
                  {ANNOTATIONS.service}: {id}
                </code>
              </li>
            </ul>
          </Typography>
        }
      />
    </div>
  );
};
