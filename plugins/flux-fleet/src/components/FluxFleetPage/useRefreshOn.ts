import { useEffect } from 'react';

/** Refreshes a view each time `tick` moves past 0: the page's live updates reach every visible section this way. */
export function useRefreshOn(tick: number, refresh: () => void) {
  useEffect(() => {
    if (tick > 0) {
      refresh();
    }
  }, [tick, refresh]);
}
