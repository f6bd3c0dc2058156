/** A small bounded map whose entries expire: for figures that may lag a few seconds behind. */
export interface TtlCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  /** Forgets every entry (a moderation change makes kept pages wrong at once). */
  clear(): void;
}

export function createTtlCache<V>(ttlMs: number, maxEntries: number, clock: () => number = () => performance.now()): TtlCache<V> {
  const entries = new Map<string, { value: V; expires: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= clock()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, { value, expires: clock() + ttlMs });
      // Map order is insertion order, so the first key is the oldest entry.
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    clear() {
      entries.clear();
    },
  };
}
