import type {
  AuditorService,
  HttpAuthService,
} from '@backstage/backend-plugin-api';
import { InputError, NotAllowedError, NotFoundError } from '@backstage/errors';
import {
  FleetObject,
  fluxObjectKey,
  fluxObjectReconcilePermission,
  fluxObjectSuspendPermission,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { Router } from 'express';
import type { ActionAccess } from '../permissions/ActionAccess';
import { fieldOf } from '../permissions/fluxObjectRules';
import type { ObjectOwnership } from '../permissions/ObjectOwnership';
import type { ReadAccess } from '../permissions/ReadAccess';
import {
  emptyBodySchema,
  objectPathSchema,
  parseInput,
  reconcileBodySchema,
} from '../schema/requestSchemas';
import { FluxAction, unsupportedReason } from './actionPatches';
import type { FluxActions } from './FluxActions';

export { emptyBodySchema, reconcileBodySchema } from '../schema/requestSchemas';

/** The actions of the API, in route order. */
export const FLUX_ACTIONS: readonly FluxAction[] = ['reconcile', 'suspend', 'resume'];

/** How an attempt ended, as the audit record says it. */
type Outcome =
  | 'succeeded'
  | 'invalid'
  | 'not-found'
  | 'denied'
  | 'refused-by-cluster'
  | 'suspended'
  | 'unreachable'
  | 'failed';

/** How a failure of the cluster step is recorded, by the error's name. */
const CLUSTER_OUTCOMES: Record<string, Outcome> = {
  NotAllowedError: 'refused-by-cluster',
  ConflictError: 'suspended',
  ServiceUnavailableError: 'unreachable',
  NotFoundError: 'not-found',
};

/** What the action routes need. */
export interface ActionRoutesOptions {
  httpAuth: HttpAuthService;
  auditor: AuditorService;
  readAccess: ReadAccess;
  actionAccess: ActionAccess;
  ownership: ObjectOwnership;
  actions: FluxActions;
  /** The object as the index shows it; undefined when the index has no such object. */
  object(key: string): FleetObject | undefined;
  clusterNames(): string[];
}

/**
 * `POST /objects/:cluster/:namespace/:kind/:name/reconcile|suspend|resume` (docs/api.md). Each attempt is audited
 * through the auditor service (who, which action, object and cluster, and how it ended, refusals included), then:
 * 400 for bad input or an action the kind does not take, 404 for an object the caller cannot see, 403 without
 * `flux-fleet.object.reconcile` (reconcile) or `flux-fleet.object.suspend` (suspend, resume) on the object or for a
 * service principal whose access restrictions do not name that permission ({@link ActionAccess}), and the cluster's
 * own answer through {@link FluxActions}.
 */
export function addActionRoutes(router: Router, options: ActionRoutesOptions): void {
  const { httpAuth, auditor, readAccess, actionAccess, ownership, actions } = options;

  router.post(
    '/objects/:cluster/:namespace/:kind/:name/:action(reconcile|suspend|resume)',
    async (req, res) => {
      const action = req.params.action as FluxAction;
      const { cluster, namespace, kind, name } = req.params;
      const target: Record<string, string> = {
        object: `${cluster}/${namespace}/${kind}/${name}`,
        cluster,
        namespace,
        kind,
        name,
      };
      const force = action === 'reconcile' && req.body?.force === true;
      const event = await auditor.createEvent({
        eventId: action,
        severityLevel: 'medium',
        request: req,
        meta: { ...target, ...(force && { force }) },
      });
      let outcome: Outcome = 'invalid';
      try {
        const path = parseInput(objectPathSchema, req.params, 'object path');
        parseInput(
          action === 'reconcile' ? reconcileBodySchema : emptyBodySchema,
          req.body ?? {},
          'request body',
        );
        outcome = 'not-found';
        if (!options.clusterNames().includes(path.cluster)) {
          throw new NotFoundError(`Flux Fleet watches no cluster named '${path.cluster}'`);
        }
        const key = fluxObjectKey(path.cluster, path.namespace, path.kind, path.name);
        const credentials = await httpAuth.credentials(req);
        const object = options.object(key);
        const readFilter = await readAccess.filterFor(credentials);
        if (readFilter) await ownership.refresh();
        const owners = () => (object ? ownership.ownersOf(ownedObject(object)) : []);
        // an object the caller may not read is answered as one that does not exist, as on the read routes
        if (!object || (readFilter && !readFilter(field => fieldOf(object, field, owners)))) {
          throw new NotFoundError(
            `Cluster '${path.cluster}' has no ${path.kind} ${path.namespace}/${path.name} (as of the index; it may have been deleted)`,
          );
        }

        outcome = 'invalid';
        const unsupported = unsupportedReason(object.ref.kind, action);
        if (unsupported) throw new InputError(`Cannot ${action} ${key}: ${unsupported}`);
        if (force && object.ref.kind !== 'HelmRelease') {
          throw new InputError(`Cannot force a reconcile of ${key}: only a HelmRelease takes force`);
        }

        outcome = 'denied';
        const permission =
          action === 'reconcile' ? fluxObjectReconcilePermission : fluxObjectSuspendPermission;
        await ownership.refresh();
        const refusal = await actionAccess.refusal(
          permission,
          { ...object, ownedBy: ownership.ownersOf(ownedObject(object)) },
          credentials,
        );
        if (refusal) throw new NotAllowedError(refusal);

        outcome = 'failed';
        const result = await actions.run(object, action, force);
        await event.success({
          meta: { handled: result.handled, ...(result.requestedAt && { requestedAt: result.requestedAt }) },
        });
        res.json(result);
      } catch (error) {
        const e = error as Error;
        // refusals from the cluster's side, by the Backstage error FluxActions threw
        if (outcome === 'failed') outcome = CLUSTER_OUTCOMES[e.name] ?? 'failed';
        await event.fail({ error: e, meta: { outcome } });
        throw error;
      }
    },
  );
}

function ownedObject(object: FleetObject) {
  return { key: object.key, service: object.service, tenant: object.boundary.tenant };
}
