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
}

const sqliteLocks: TransactionLocks = { lock: async () => {} };

const postgresLocks: TransactionLocks = {
  async lock(trx, scope, key) {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${scope}:${key}`}::text, 0))`.execute(trx);
  },
};

export function transactionLocks(dialect: SqlDialectName): TransactionLocks {
  return dialect === 'postgres' ? postgresLocks : sqliteLocks;
}
