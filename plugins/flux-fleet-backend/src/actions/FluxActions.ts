import {
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import type {
  ActionResult,
  FleetObject,
  FluxObjectRef,
  InstanceSummary,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { FleetIndexChange } from '@flux-fleet/plugin-flux-fleet-node';
import {
  actionPatch,
  FluxAction,
  isSuspended,
  reconcileToken,
} from './actionPatches';
import { ClusterWriteError, ClusterWriter, ObjectLocation } from './ClusterWriter';
import type { WriteAccess } from './WriteAccess';

/** How long an answer waits for the index to show what was written, so a view refreshed after it is current. */
const INDEX_WAIT_MS = 2_000;

/** What the actions read of the fleet index. */
export interface ActionIndex {
  object(key: string): FleetObject | undefined;
  instances(cluster?: string): InstanceSummary[];
  subscribe(listener: (changes: FleetIndexChange[]) => void): () => void;
}

/** Options of {@link FluxActions}. */
export interface FluxActionsOptions {
  index: ActionIndex;
  writers: ReadonlyMap<string, ClusterWriter>;
  writeAccess: WriteAccess;
  /** Called before a write, so the object's signal channel is published when the controller handles it. */
  onActing?: (key: string) => void;
}

/**
 * Reconcile, suspend and resume with the Flux CLI's semantics (flux-domain.md §2): the object is read live, a
 * reconcile of a suspended object is refused, the merge patch is written with the cluster's credentials, and the
 * answer says whether the controller has handled it (`yes`), will (`pending`: the index signals on
 * `flux-fleet:object:<key>` when `status.lastHandledReconcileAt` echoes the token), or never will (`never`: no
 * controller watches the object). Failures are Backstage errors whose messages name the cluster and the object.
 * Permissions and audit are the caller's (the route's) concern.
 */
export class FluxActions {
  constructor(private readonly options: FluxActionsOptions) {}

  async run(object: FleetObject, action: FluxAction, force = false): Promise<ActionResult> {
    const { ref } = object;
    const writer = this.options.writers.get(ref.cluster);
    if (!writer) {
      throw new NotFoundError(`Flux Fleet has no credentials for cluster '${ref.cluster}'`);
    }
    const location: ObjectLocation = { ref, apiVersion: object.apiVersion };
    const live = await this.call(ref, 'read', () => writer.get(location));
    if (action === 'reconcile' && isSuspended(ref.kind, live)) {
      throw new ConflictError(
        `${describe(ref)} on cluster ${ref.cluster} is suspended: resume it first (Flux does not reconcile a suspended object)`,
      );
    }
    const token = action === 'reconcile' ? reconcileToken() : undefined;
    this.options.onActing?.(object.key);
    await this.call(ref, 'write', () =>
      writer.mergePatch(location, actionPatch(ref.kind, action, { token, force })),
    );
    this.options.writeAccess.wrote(ref.cluster);

    const seen = await this.waitForIndex(object.key, o =>
      action === 'reconcile'
        ? o.state.reconcileRequestedAt === token
        : o.suspended === (action === 'suspend'),
    );
    return this.result(seen ?? object, action, token, force);
  }

  private result(
    object: FleetObject,
    action: FluxAction,
    token: string | undefined,
    force: boolean,
  ): ActionResult {
    const { key, ref, owner } = object;
    const base = { key, action, ...(token && { requestedAt: token }) };
    const what = `${describe(ref)} on cluster ${ref.cluster}`;
    if (owner.status === 'orphan') {
      const nobody = `no controller watches it (its labels match no ${ref.kind} controller's --watch-label-selector)`;
      return action === 'suspend'
        ? { ...base, handled: 'yes', message: `Suspended ${what}; ${nobody} anyway.` }
        : {
            ...base,
            handled: 'never',
            message: `${action === 'reconcile' ? 'Reconcile requested for' : 'Resumed'} ${what}, but ${nobody}: nothing will ${
              action === 'reconcile' ? 'handle the request' : 'reconcile it'
            }.`,
          };
    }
    if (action === 'suspend') {
      return { ...base, handled: 'yes', message: `Suspended ${what}: Flux no longer reconciles it until it is resumed.` };
    }
    const who = this.controllerText(object);
    if (action === 'resume') {
      return { ...base, handled: 'yes', message: `Resumed ${what}: ${who} reconciles it again.` };
    }
    if (object.state.lastHandledReconcileAt === token) {
      return { ...base, handled: 'yes', message: `${who} handled the request for ${what}.` };
    }
    const down = this.downText(object);
    return {
      ...base,
      handled: 'pending',
      message: `${force ? 'Forced reconcile' : 'Reconcile'} of ${what} requested at ${token}; waiting for ${who} to handle it${
        down ? ` (${down})` : ''
      }.`,
    };
  }

  private controllerText(object: FleetObject): string {
    const { owner } = object;
    if (owner.status === 'contested') {
      return `its ${owner.candidates?.length ?? 'several'} controllers`;
    }
    return owner.controller
      ? `${owner.controller}${owner.instance ? ` (${owner.instance}/${owner.shard})` : ''}`
      : 'its controller';
  }

  /** Why the owning controller cannot handle the request now, when it cannot. */
  private downText(object: FleetObject): string | undefined {
    const { owner, ref } = object;
    if (owner.status !== 'ok' || !owner.instance) return undefined;
    const controller = this.options.index
      .instances(ref.cluster)
      .find(i => i.name === owner.instance)
      ?.controllers.find(c => c.name === owner.controller);
    return controller && controller.replicas !== undefined && (controller.readyReplicas ?? 0) === 0
      ? `${controller.name} has no ready replica`
      : undefined;
  }

  /** The object as the index shows it once `seen` holds, or undefined after {@link INDEX_WAIT_MS}. */
  private waitForIndex(
    key: string,
    seen: (o: FleetObject) => boolean,
  ): Promise<FleetObject | undefined> {
    const { index } = this.options;
    const now = index.object(key);
    if (now && seen(now)) return Promise.resolve(now);
    return new Promise(resolve => {
      const cleanups: Array<() => void> = [];
      const done = (value: FleetObject | undefined) => {
        for (const cleanup of cleanups) cleanup();
        resolve(value);
      };
      const timer = setTimeout(() => done(undefined), INDEX_WAIT_MS);
      cleanups.push(() => clearTimeout(timer));
      cleanups.push(
        index.subscribe(changes => {
          if (!changes.some(c => c.keys.includes(key))) return;
          const o = index.object(key);
          if (o && seen(o)) done(o);
        }),
      );
    });
  }

  /** Runs a request to the cluster and turns its failure into the Backstage error a caller should see. */
  private async call<T>(ref: FluxObjectRef, step: 'read' | 'write', request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof ClusterWriteError)) throw error;
      const what = describe(ref);
      switch (error.failure) {
        case 'forbidden':
          if (step === 'write') {
            this.options.writeAccess.refused(ref.cluster);
            throw new NotAllowedError(
              `the credentials for cluster ${ref.cluster} are read-only: it refused to patch ${what} (${error.message})`,
            );
          }
          throw new NotAllowedError(
            `the credentials for cluster ${ref.cluster} may not read ${what} (${error.message})`,
          );
        case 'not-found':
          throw new NotFoundError(`Cluster '${ref.cluster}' has no ${what} (it may have been deleted)`);
        case 'unreachable':
          throw new ServiceUnavailableError(
            `cluster ${ref.cluster} cannot be reached, so nothing was written to ${what}: ${error.message}`,
          );
        case 'unauthenticated':
          throw new ServiceUnavailableError(
            `cluster ${ref.cluster} refused Flux Fleet's credentials, so nothing was written to ${what}: ${error.message}`,
          );
        default:
          if (error.status === 409) throw new ConflictError(error.message);
          throw new InputError(error.message);
      }
    }
  }
}

function describe(ref: FluxObjectRef): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}
