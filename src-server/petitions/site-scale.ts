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
  /** The last known answer, recounted at once where the count can run synchronously (SQLite). */
  isLarge(): boolean;
  /** The answer, waiting for a recount when the last one is stale (PostgreSQL counts asynchronously). */
  checkLarge(): Promise<boolean>;
}

export function createSiteScale(db: Kysely<Database>, threshold = LARGE_SITE_PETITIONS): SiteScale {
  let known: { large: boolean; at: number } | null = null;
  let asking: Promise<void> | null = null;

  const fresh = () => known !== null && performance.now() - known.at < RECOUNT_MS;
  const remember = (total: unknown) => {
    known = { large: Number(total ?? 0) >= threshold, at: performance.now() };
    return known.large;
  };
  /** Counted synchronously when the connection is free (SQLite); null when it must be asked for. */
  const countNow = () => {
    const result = petitionTotal.now(db, {});
    return result ? remember(result.rows[0]?.total) : null;
  };
  const ask = () =>
    (asking ??= petitionTotal(db, {})
      .then((answer) => void remember(answer.rows[0]?.total))
      // A failed count keeps the last answer; the next call asks again.
      .catch(() => {})
      .finally(() => {
        asking = null;
      }));

  return {
    isLarge() {
      if (fresh()) return known!.large;
      const counted = countNow();
      if (counted !== null) return counted;
      // While a transaction holds the connection, or on PostgreSQL, the last answer stands meanwhile.
      void ask();
      return known?.large ?? false;
    },
    async checkLarge() {
      if (fresh()) return known!.large;
      const counted = countNow();
      if (counted !== null) return counted;
      await ask();
      return known?.large ?? false;
    },
  };
}
