/** The value as it was `delayMs` after it last changed (search boxes ask the server once typing pauses). */
import { useEffect, useState } from 'react';

export function useDebounced<T>(value: T, delayMs: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setCurrent(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return current;
}
