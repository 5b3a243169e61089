import { createConditionExports } from '@backstage/plugin-permission-node';
import { FLUX_OBJECT_RESOURCE_TYPE } from '@flux-fleet/plugin-flux-fleet-common';
import { fluxObjectRules } from './fluxObjectRules';

const { conditions, createConditionalDecision } = createConditionExports({
  pluginId: 'flux-fleet',
  resourceType: FLUX_OBJECT_RESOURCE_TYPE,
  rules: fluxObjectRules,
});

/**
 * Conditions a permission policy can return for `flux-fleet.object.*`: `isInCluster`, `isInNamespace`,
 * `hasTenant`, `belongsToService` and `isOwnedBy` (pass the caller's `ownershipEntityRefs` as `claims`).
 *
 * @public
 */
export const fluxObjectConditions = conditions;

/**
 * A conditional decision on a Flux object permission, e.g.
 * `createFluxObjectConditionalDecision(permission, fluxObjectConditions.isOwnedBy({ claims }))`.
 *
 * @public
 */
export const createFluxObjectConditionalDecision = createConditionalDecision;
