/** Site-wide switches stored in the database (maintenance mode), so every client sees the same truth. */
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.ts';

const MAINTENANCE_KEY = 'maintenance';
/** Short cache: this process invalidates on its own writes; other instances catch up within a second. */
const CACHE_MS = 1000;

async function readMaintenance(executor: Db): Promise<boolean> {
  const row = await executor.selectFrom('site_settings').select('value').where('key', '=', MAINTENANCE_KEY).executeTakeFirst();
  return row?.value === 'true';
}

export function createSiteSettings(db: Kysely<Database>) {
  let cached: { value: boolean; at: number } | null = null;
  /** Bumped by every write, so a read that started before a write cannot cache the old value after it. */
  let generation = 0;
  /**
   * The read under way, shared by the calls that find the cache expired meanwhile: every API call
   * asks, so without it each expiry sent one read per request in flight. Calls after a write never
   * share a read that began before it.
   */
  let reading: { value: Promise<boolean>; generation: number } | null = null;

  /**
   * After a write to the settings has committed: forget the cached value, and make every read
   * that started before now unable to cache what it read (it may have read the old value).
   */
  function committed(): void {
    generation += 1;
    cached = null;
  }

  return {
    async isMaintenanceOn(): Promise<boolean> {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
      if (reading?.generation === generation) return reading.value;
      const startedAt = generation;
      const value = readMaintenance(db).then((on) => {
        if (startedAt === generation) cached = { value: on, at: Date.now() };
        return on;
      });
      const read = { value, generation: startedAt };
      reading = read;
      try {
        return await value;
      } finally {
        if (reading === read) reading = null;
      }
    },

    /** The stored value, bypassing the cache (e.g. inside a transaction that is about to change it). */
    readMaintenance(executor: Db = db): Promise<boolean> {
      return readMaintenance(executor);
    },

    /**
     * Writes the switch. Alone (no `executor`) the write has committed when this returns, and the
     * cache is forgotten then. Inside a caller's transaction nothing is forgotten here: a read
     * running meanwhile would still see the old value and could cache it under the new generation
     * (7 of 10 switches kept serving for a second). The caller calls `committed()` once its
     * transaction has committed.
     */
    async setMaintenance(on: boolean, options: { executor?: Db; now?: Date } = {}): Promise<void> {
      const stamp = (options.now ?? new Date()).toISOString();
      await (options.executor ?? db)
        .insertInto('site_settings')
        .values({ key: MAINTENANCE_KEY, value: String(on), updated_at: stamp })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(on), updated_at: stamp }))
        .execute();
      if (!options.executor) committed();
    },

    committed,
  };
}

export type SiteSettings = ReturnType<typeof createSiteSettings>;
