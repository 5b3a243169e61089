import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  ActionResult,
  FleetObject,
  FleetObjectDetail,
  RECONCILE_NOT_HANDLED_AFTER_MS,
} from '@flux-fleet/plugin-flux-fleet-common';
import { fluxFleetApiRef } from '../api';
import { errorMessage } from '../lib/errorMessage';

/** An action on a Flux object. */
export type ObjectActionName =
  | 'reconcile'
  | 'force-reconcile'
  | 'suspend'
  | 'resume';

/** Where an action stands, from the click to the controller handling it. */
export type ObjectActionStatus =
  | { phase: 'idle' }
  | { phase: 'requesting'; action: ObjectActionName }
  /** The backend wrote the request; the controller has not handled it yet. */
  | { phase: 'pending'; action: ObjectActionName; result: ActionResult }
  | { phase: 'handled'; action: ObjectActionName; result: ActionResult }
  /** No controller watches the object, so nothing will ever handle the request. */
  | { phase: 'never'; action: ObjectActionName; result: ActionResult }
  /** Not handled within the threshold of rules §2 ("reconcile requested, not handled"). */
  | { phase: 'timeout'; action: ObjectActionName; result: ActionResult }
  | { phase: 'failed'; action: ObjectActionName; message: string };

/** Whether a fresh read of the object shows the action handled by its controller. */
export function isActionHandled(
  action: ObjectActionName,
  result: ActionResult,
  object: Pick<FleetObject, 'state' | 'suspended'>,
): boolean {
  switch (action) {
    case 'reconcile':
    case 'force-reconcile':
      return (
        result.requestedAt !== undefined &&
        object.state.lastHandledReconcileAt === result.requestedAt
      );
    case 'suspend':
      return object.suspended;
    case 'resume':
      return !object.suspended;
    default:
      return false;
  }
}

/**
 * Runs an action on a Flux object and follows it until its controller handles it: the backend answers at once
 * (`ActionResult.handled`), and while it is `pending` the object is read again on every `check()` (the caller
 * calls it on each signal of the object's channel, or on a timer when signals are off) until it shows the action
 * handled, or the threshold of rules §2 passes.
 */
export function useObjectAction(
  object: Pick<FleetObject, 'key' | 'ref'>,
  options: { onSettled?: () => void } = {},
) {
  const api = useApi(fluxFleetApiRef);
  const [status, setStatus] = useState<ObjectActionStatus>({ phase: 'idle' });
  const statusRef = useRef(status);
  statusRef.current = status;
  const onSettled = useRef(options.onSettled);
  onSettled.current = options.onSettled;
  const startedAt = useRef(0);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const settle = useCallback((next: ObjectActionStatus) => {
    if (!mounted.current) {
      return;
    }
    setStatus(next);
    if (next.phase !== 'pending' && next.phase !== 'requesting') {
      onSettled.current?.();
    }
  }, []);

  const run = useCallback(
    async (action: ObjectActionName) => {
      setStatus({ phase: 'requesting', action });
      startedAt.current = Date.now();
      try {
        let result: ActionResult;
        if (action === 'suspend') {
          result = await api.suspend(object.ref);
        } else if (action === 'resume') {
          result = await api.resume(object.ref);
        } else {
          result = await api.reconcile(object.ref, {
            force: action === 'force-reconcile',
          });
        }
        if (result.handled === 'yes') {
          settle({ phase: 'handled', action, result });
        } else if (result.handled === 'never') {
          settle({ phase: 'never', action, result });
        } else if (mounted.current) {
          setStatus({ phase: 'pending', action, result });
        }
      } catch (error) {
        settle({ phase: 'failed', action, message: errorMessage(error) });
      }
    },
    [api, object.ref, settle],
  );

  /** Reads the object again and settles a pending action when its controller has handled it. */
  const check = useCallback(async () => {
    const current = statusRef.current;
    if (current.phase !== 'pending') {
      return;
    }
    let fresh: FleetObjectDetail;
    try {
      fresh = await api.getObject(object.ref);
    } catch {
      return; // a failed read says nothing about the action; the next check tries again
    }
    const still = statusRef.current;
    if (still.phase !== 'pending' || still.result !== current.result) {
      return;
    }
    if (isActionHandled(current.action, current.result, fresh)) {
      settle({
        phase: 'handled',
        action: current.action,
        result: current.result,
      });
    } else if (
      Date.now() - startedAt.current >
      RECONCILE_NOT_HANDLED_AFTER_MS
    ) {
      settle({
        phase: 'timeout',
        action: current.action,
        result: current.result,
      });
    }
  }, [api, object.ref, settle]);

  const dismiss = useCallback(() => setStatus({ phase: 'idle' }), []);

  return { status, run, check, dismiss };
}
