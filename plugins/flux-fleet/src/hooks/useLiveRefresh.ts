import { useEffect, useRef } from 'react';
import { useSignal } from '@backstage/plugin-signals-react';
import { FluxFleetSignal } from '@flux-fleet/plugin-flux-fleet-common';

/** The shortest time between two refreshes of a view, however many signals arrive. */
export const LIVE_REFRESH_DELAY_MS = 500;

/**
 * Calls `refresh` after a Flux Fleet signal on `channel` (see `SIGNAL_CHANNELS`): at once for the first signal
 * after a quiet spell, so a change shows as soon as the backend announces it, then at most once per `delayMs`
 * (signals arriving meanwhile are answered by one refresh at the end of it), so a busy fleet does not refresh a
 * view on every signal. Without the signals plugin nothing happens: `live` is false and the view simply does not
 * update by itself.
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
  const lastRefreshAt = useRef(-Infinity);

  useEffect(() => {
    if (!lastSignal || timer.current) {
      // none yet, or a refresh is already due and will show this signal's change too
      return;
    }
    const run = () => {
      timer.current = undefined;
      lastRefreshAt.current = Date.now();
      refreshRef.current();
    };
    const wait = lastRefreshAt.current + delayMs - Date.now();
    if (wait <= 0) {
      run();
    } else {
      timer.current = setTimeout(run, wait);
    }
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
