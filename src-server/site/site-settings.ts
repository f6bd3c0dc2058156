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

  return {
    async isMaintenanceOn(): Promise<boolean> {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
      const startedAt = generation;
      const value = await readMaintenance(db);
      if (startedAt === generation) cached = { value, at: Date.now() };
      return value;
    },

    /** The stored value, bypassing the cache (e.g. inside a transaction that is about to change it). */
    readMaintenance(executor: Db = db): Promise<boolean> {
      return readMaintenance(executor);
    },

    /**
     * With `executor` (a caller's transaction) the write may still roll back, so the cache is
     * forgotten rather than set; the next read after the commit sees the stored value.
     */
    async setMaintenance(on: boolean, options: { executor?: Db; now?: Date } = {}): Promise<void> {
      const stamp = (options.now ?? new Date()).toISOString();
      await (options.executor ?? db)
        .insertInto('site_settings')
        .values({ key: MAINTENANCE_KEY, value: String(on), updated_at: stamp })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(on), updated_at: stamp }))
        .execute();
      generation += 1;
      cached = options.executor ? null : { value: on, at: Date.now() };
    },
  };
}

export type SiteSettings = ReturnType<typeof createSiteSettings>;
