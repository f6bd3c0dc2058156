/** Site-wide switches stored in the database (maintenance mode), so every client sees the same truth. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

const MAINTENANCE_KEY = 'maintenance';
/** Short cache: this process invalidates on its own writes; other instances catch up within a second. */
const CACHE_MS = 1000;

export function createSiteSettings(db: Kysely<Database>) {
  let cached: { value: boolean; at: number } | null = null;

  return {
    async isMaintenanceOn(): Promise<boolean> {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
      const row = await db.selectFrom('site_settings').select('value').where('key', '=', MAINTENANCE_KEY).executeTakeFirst();
      const value = row?.value === 'true';
      cached = { value, at: Date.now() };
      return value;
    },

    async setMaintenance(on: boolean): Promise<void> {
      const stamp = new Date().toISOString();
      await db
        .insertInto('site_settings')
        .values({ key: MAINTENANCE_KEY, value: String(on), updated_at: stamp })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(on), updated_at: stamp }))
        .execute();
      cached = { value: on, at: Date.now() };
    },
  };
}

export type SiteSettings = ReturnType<typeof createSiteSettings>;
