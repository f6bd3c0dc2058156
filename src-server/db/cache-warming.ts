/**
 * Where a cache kept by change notices (petitions/petition-cache.ts, sessions/session-cache.ts) is
 * with warming itself from the database: not started yet, reading now, or finished at least once
 * and not reading. The benchmark waits for 'finished' before it measures.
 */
export type CacheWarming = 'not started' | 'running' | 'finished';

export function cacheWarming(running: boolean, passesFinished: number): CacheWarming {
  if (running) return 'running';
  return passesFinished ? 'finished' : 'not started';
}
