/**
 * The answer to a search for what was typed, asked once typing pauses; answers to earlier text are
 * dropped, and a failed search answers nothing (these searches only help, they never block).
 */
import { useEffect, useState } from 'react';
import { useDebounced } from './useDebounced.ts';

export function useDebouncedSearch<T>(text: string, delayMs: number, search: (text: string) => Promise<T[]> | null): T[] {
  const settled = useDebounced(text.trim(), delayMs);
  const [items, setItems] = useState<T[]>([]);
  useEffect(() => {
    let current = true;
    const asking = search(settled);
    if (!asking) setItems([]);
    else asking.then((found) => current && setItems(found), () => current && setItems([]));
    return () => {
      current = false;
    };
    // The search function is the caller's; only new text asks again.
  }, [settled]);
  return items;
}
