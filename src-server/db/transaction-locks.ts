/**
 * Serialising transactions on a key (a creator's daily limit, an Idempotency-Key), where the
 * engines differ. SQLite runs one write transaction at a time on the one connection this process
 * owns, so there is nothing to do. PostgreSQL runs many at once, on many nodes: a transaction-level
 * advisory lock on the key makes the second transaction wait until the first commits or rolls back
 * (the lock goes with it), and then read what the first wrote.
 */
import { sql } from 'kysely';
import type { SqlDialectName } from './dialect.ts';
import type { Db } from './schema.ts';

export interface TransactionLocks {
  /** Inside a transaction: waits until no other transaction holds (scope, key), then holds it until commit. */
  lock(trx: Db, scope: string, key: string): Promise<void>;
  /** Inside a transaction: takes (scope, key) if no other transaction holds it, and says whether it did. */
  tryLock(trx: Db, scope: string, key: string): Promise<boolean>;
}

const sqliteLocks: TransactionLocks = { lock: async () => {}, tryLock: async () => true };

const lockKey = (scope: string, key: string) => sql`hashtextextended(${`${scope}:${key}`}::text, 0)`;

const postgresLocks: TransactionLocks = {
  async lock(trx, scope, key) {
    await sql`SELECT pg_advisory_xact_lock(${lockKey(scope, key)})`.execute(trx);
  },
  async tryLock(trx, scope, key) {
    const result = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${lockKey(scope, key)}) AS locked`.execute(trx);
    return result.rows[0]?.locked === true;
  },
};

export function transactionLocks(dialect: SqlDialectName): TransactionLocks {
  return dialect === 'postgres' ? postgresLocks : sqliteLocks;
}
