import { useEffect, useRef } from 'react';
import { useSignal } from '@backstage/plugin-signals-react';
import { FluxFleetSignal } from '@flux-fleet/plugin-flux-fleet-common';

/** How long signals are gathered before one refresh, so a busy fleet refreshes a view at most this often. */
export const LIVE_REFRESH_DELAY_MS = 500;

/**
 * Calls `refresh` after a Flux Fleet signal on `channel` (see `SIGNAL_CHANNELS`), at most once per `delayMs`
 * however many signals arrive. Without the signals plugin nothing happens: `live` is false and the view simply
 * does not update by itself.
 */
export function useLiveRefresh(
  channel: string,
  refresh: () => void,
  delayMs: number = LIVE_REFRESH_DELAY_MS,
): { live: boolean; lastSignal: FluxFleetSignal | null } {
  const { lastSignal, isSignalsAvailable } = useSignal<
    FluxFleetSignal & { [key: string]: any }
  >(channel);
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const timer = useRef<ReturnType<typeof setTimeout>>();

  useEffect(() => {
    if (!lastSignal || timer.current) {
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = undefined;
      refreshRef.current();
    }, delayMs);
  }, [lastSignal, delayMs]);

  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
      }
    },
    [],
  );

  return { live: isSignalsAvailable, lastSignal };
}
