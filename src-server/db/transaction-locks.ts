/**
 * Serialising transactions on a key (a creator's daily limit, an Idempotency-Key, a session's
 * Roblox tokens), where the engines differ. SQLite runs one write transaction at a time on the one connection this process
 * owns, so there is nothing to do. PostgreSQL runs many at once, on many nodes: a transaction-level
 * advisory lock on the key makes the second transaction wait until the first commits or rolls back
 * (the lock goes with it), and then read what the first wrote.
 */
import { sql, type Kysely } from 'kysely';
import type { SqlDialectName } from './dialect.ts';
import type { Database, Db } from './schema.ts';

export interface TransactionLocks {
  /** Inside a transaction: waits until no other transaction holds (scope, key), then holds it until commit. */
  lock(trx: Db, scope: string, key: string): Promise<void>;
  /** Inside a transaction: takes (scope, key) if no other transaction holds it, and says whether it did. */
  tryLock(trx: Db, scope: string, key: string): Promise<boolean>;
  /**
   * Runs `work` while no other node runs work on (scope, key), handing it the connection to read
   * and write through (reads made there see what the previous holder committed). For work that
   * waits on something slow outside the database (a call to the sign-in provider): on SQLite it
   * runs directly on `db`, since a transaction would hold the process's one connection meanwhile
   * and this process is the only one (in-process single-flight is the caller's job).
   */
  exclusively<T>(db: Kysely<Database>, scope: string, key: string, work: (db: Db) => Promise<T>): Promise<T>;
}

const sqliteLocks: TransactionLocks = { lock: async () => {}, tryLock: async () => true, exclusively: (db, _scope, _key, work) => work(db) };

const lockKey = (scope: string, key: string) => sql`hashtextextended(${`${scope}:${key}`}::text, 0)`;

const postgresLocks: TransactionLocks = {
  async lock(trx, scope, key) {
    await sql`SELECT pg_advisory_xact_lock(${lockKey(scope, key)})`.execute(trx);
  },
  async tryLock(trx, scope, key) {
    const result = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${lockKey(scope, key)}) AS locked`.execute(trx);
    return result.rows[0]?.locked === true;
  },
  exclusively(db, scope, key, work) {
    return db.transaction().execute(async (trx) => {
      await postgresLocks.lock(trx, scope, key);
      return work(trx);
    });
  },
};

export function transactionLocks(dialect: SqlDialectName): TransactionLocks {
  return dialect === 'postgres' ? postgresLocks : sqliteLocks;
}
