/**
 * Loads data for a screen and re-loads when `deps` change. Late answers of superseded loads are
 * dropped, so quickly changing filters never shows stale results.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export type AsyncState<T> =
  | { status: 'loading'; data: T | null; error: null }
  | { status: 'ready'; data: T; error: null }
  | { status: 'error'; data: T | null; error: unknown };

export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading', data: null, error: null });
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const run = useCallback((quiet: boolean) => {
    const mine = ++generation.current;
    if (!quiet) setState((s) => ({ status: 'loading', data: s.data, error: null }));
    loadRef.current().then(
      (data) => {
        if (mine === generation.current) setState({ status: 'ready', data, error: null });
      },
      (error: unknown) => {
        if (mine === generation.current) setState((s) => ({ status: 'error', data: s.data, error }));
      },
    );
  }, []);

  useEffect(() => {
    run(false);
  }, deps);

  /** Re-load keeping the current data on screen (no loading state). */
  const reload = useCallback(() => run(true), [run]);
  /** Replace the data locally, e.g. with the petition a mutation returned. */
  const setData = useCallback((update: (data: T | null) => T) => {
    generation.current++;
    setState((s) => ({ status: 'ready', data: update(s.data), error: null }));
  }, []);
  return { ...state, reload, setData };
}
