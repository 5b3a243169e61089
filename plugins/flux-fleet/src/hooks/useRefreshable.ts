import {
  DependencyList,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

/** What {@link useRefreshable} gives: the last value, the last error, and a way to load again. */
export interface Refreshable<T> {
  /** The last value loaded; kept while a refresh runs and when a refresh fails. */
  value?: T;
  /** The error of the last load, if it failed. */
  error?: Error;
  /** True while a load runs (the first one or a refresh). */
  loading: boolean;
  /** Loads again without dropping what is shown. */
  refresh: () => void;
}

/**
 * Loads data and lets a view refresh it in place: unlike a plain async hook, a refresh keeps the value on screen
 * (no spinner flash on every live update) and a failed refresh keeps it too, with the error beside it. A change of
 * `deps` starts over from nothing, so one entity's data never shows under another's name, unless `keepOnChange`
 * says the old value may stand in while the new one loads (the previous page of a table, say).
 */
export function useRefreshable<T>(
  load: () => Promise<T>,
  deps: DependencyList,
  options: { keepOnChange?: boolean } = {},
): Refreshable<T> {
  const keepOnChange = Boolean(options.keepOnChange);
  const [state, setState] = useState<Omit<Refreshable<T>, 'refresh'>>({
    loading: true,
  });
  const lastCall = useRef(0);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, deps);

  const refresh = useCallback(() => {
    const call = ++lastCall.current;
    setState(previous => ({ ...previous, loading: true }));
    run().then(
      value => {
        if (mounted.current && call === lastCall.current) {
          setState({ value, loading: false });
        }
      },
      error => {
        if (mounted.current && call === lastCall.current) {
          setState(previous => ({
            value: previous.value,
            error: error instanceof Error ? error : new Error(String(error)),
            loading: false,
          }));
        }
      },
    );
  }, [run]);

  useEffect(() => {
    if (!keepOnChange) {
      setState({ loading: true });
    }
    refresh();
  }, [refresh, keepOnChange]);

  return { ...state, refresh };
}
