/**
 * Whether the site is large: from this many petitions on, figures that only order or summarise
 * (list totals and pages, stored signature counts) may lag a little behind for speed. Smaller
 * sites always get exact figures. The petition count itself is read at most every few seconds.
 */
import type { Kysely } from 'kysely';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';

export const LARGE_SITE_PETITIONS = 5_000;
const RECOUNT_MS = 5_000;

const petitionTotal = preparedQuery([], (db) => db.selectFrom('petitions').select((eb) => eb.fn.countAll<number>().as('total')));

export interface SiteScale {
  isLarge(): boolean;
}

export function createSiteScale(db: Kysely<Database>, threshold = LARGE_SITE_PETITIONS): SiteScale {
  let known: { large: boolean; at: number } | null = null;
  let asking: Promise<void> | null = null;
  return {
    isLarge() {
      if (known && performance.now() - known.at < RECOUNT_MS) return known.large;
      // Counted synchronously when the connection is free (SQLite). Otherwise (a transaction holds
      // it, or PostgreSQL) the count is asked for in the background and the last answer stands.
      const result = petitionTotal.now(db, {});
      if (result) known = { large: Number(result.rows[0]?.total ?? 0) >= threshold, at: performance.now() };
      else if (!asking) {
        asking = petitionTotal(db, {})
          .then((answer) => {
            known = { large: Number(answer.rows[0]?.total ?? 0) >= threshold, at: performance.now() };
          })
          .catch(() => {})
          .finally(() => {
            asking = null;
          });
      }
      return known?.large ?? false;
    },
  };
}
