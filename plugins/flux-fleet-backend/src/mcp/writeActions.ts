import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import type { ActionResult } from '@flux-fleet/plugin-flux-fleet-common';
import { FleetApiClient, objectPath } from './FleetApiClient';
import { objectRefInput, type Zod, registerAction } from './shapes';

/** What each action tells the model, and its attributes, said truthfully (MCP's hints for the client). */
const WRITE_ACTIONS = {
  reconcile: {
    title: 'Reconcile a Flux object now',
    description:
      'Asks Flux to reconcile one Flux object now, as `flux reconcile` does (writes the annotation ' +
      'reconcile.fluxcd.io/requestedAt; force: true on a HelmRelease also forces a one-off install or upgrade). ' +
      'Only for the owners of its service (permission flux-fleet.object.reconcile); refused while it is ' +
      'suspended and on clusters whose credentials are read-only. The answer says whether the controller has ' +
      'handled the request yet.',
    // it asks now for what the controller does at its next interval anyway; each call writes a new token and
    // causes one more reconcile, so it is not idempotent
    attributes: { readOnly: false, destructive: false, idempotent: false },
  },
  suspend: {
    title: 'Suspend a Flux object',
    description:
      'Suspends one Flux object, as `flux suspend` does (spec.suspend: true): Flux stops reconciling it, so ' +
      'changes in Git or in the chart no longer reach the cluster until it is resumed. Only for the owners of ' +
      'its service (permission flux-fleet.object.suspend); refused on clusters whose credentials are read-only.',
    // delivery stops until someone resumes: an update that takes something away, though reversible
    attributes: { readOnly: false, destructive: true, idempotent: true },
  },
  resume: {
    title: 'Resume a suspended Flux object',
    description:
      'Resumes one suspended Flux object, as `flux resume` does (spec.suspend: false): Flux reconciles it again ' +
      'at its interval. Only for the owners of its service (permission flux-fleet.object.suspend); refused on ' +
      'clusters whose credentials are read-only.',
    attributes: { readOnly: false, destructive: false, idempotent: true },
  },
} as const;

function actionResultSchema(z: Zod) {
  return z.object({
    key: z.string(),
    action: z.enum(['reconcile', 'suspend', 'resume']),
    requestedAt: z.string().optional().describe('The token written to reconcile.fluxcd.io/requestedAt (reconcile).'),
    handled: z
      .enum(['yes', 'pending', 'never'])
      .describe('yes: done; pending: the controller has not handled it yet; never: no controller watches it.'),
    message: z.string().describe('What happened, in a sentence.'),
  });
}

/**
 * `reconcile-flux-object`, `suspend-flux-object`, `resume-flux-object`: the REST actions on behalf of the caller,
 * so the permission check, the refusal of service principals, the audit record and the read-only refusal are the
 * API's own.
 */
export function registerWriteActions(registry: ActionsRegistryService, api: FleetApiClient) {
  registerAction(registry, {
    name: 'reconcile-flux-object',
    ...WRITE_ACTIONS.reconcile,
    schema: {
      input: z =>
        z.object({
          ...objectRefInput(z),
          force: z.boolean().optional().describe('HelmRelease only: force a one-off install or upgrade.'),
        }),
      output: actionResultSchema,
    },
    action: async ({ input: { force, ...ref }, credentials }) => ({
      output: await api.post<ActionResult>(`${objectPath(ref)}/reconcile`, force ? { force } : {}, credentials),
    }),
  });
  for (const action of ['suspend', 'resume'] as const) {
    registerAction(registry, {
      name: `${action}-flux-object`,
      ...WRITE_ACTIONS[action],
      schema: { input: z => z.object(objectRefInput(z)), output: actionResultSchema },
      action: async ({ input, credentials }) => ({
        output: await api.post<ActionResult>(`${objectPath(input)}/${action}`, {}, credentials),
      }),
    });
  }
}
