/**
 * Calls `tick` every `intervalMs` while enabled. With `onlyWhenVisible` it pauses while the tab is
 * hidden and ticks once on return, so background tabs do not load the server.
 */
import { useEffect, useRef } from 'react';

export function usePolling(
  tick: () => void,
  intervalMs: number,
  options: { enabled?: boolean; onlyWhenVisible?: boolean } = {},
): void {
  const { enabled = true, onlyWhenVisible = false } = options;
  const tickRef = useRef(tick);
  tickRef.current = tick;

  useEffect(() => {
    if (!enabled) return undefined;
    let timer: number | undefined;
    const start = () => {
      if (timer === undefined) timer = window.setInterval(() => tickRef.current(), intervalMs);
    };
    const stop = () => {
      if (timer !== undefined) window.clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        tickRef.current();
        start();
      } else {
        stop();
      }
    };
    if (!onlyWhenVisible || document.visibilityState === 'visible') start();
    if (onlyWhenVisible) document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      if (onlyWhenVisible) document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [enabled, intervalMs, onlyWhenVisible]);
}
