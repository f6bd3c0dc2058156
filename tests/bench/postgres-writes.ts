/**
 * What a scenario wrote on PostgreSQL: WAL bytes (pg_current_wal_lsn before and after) and the
 * petitions table's updates, of them heap-only (HOT: no index entry written, migration 0022). Read
 * through a connection of its own; the statistics reach pg_stat_user_tables up to a second after the
 * backends' transactions, so the reading after a scenario waits for them.
 */
import pg from 'pg';

export interface PostgresWrites {
  walBytes: number;
  petitionUpdates: number;
  hotUpdates: number;
}

const STATS_DELAY_MS = 1_200;

export async function readPostgresWrites(url: string, settle = false): Promise<PostgresWrites> {
  if (settle) await new Promise((resolve) => setTimeout(resolve, STATS_DELAY_MS));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ wal: string; upd: string; hot: string }>(
      `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS wal, n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot
         FROM pg_stat_user_tables WHERE relname = 'petitions'`,
    );
    const row = rows[0]!;
    return { walBytes: Number(row.wal), petitionUpdates: Number(row.upd), hotUpdates: Number(row.hot) };
  } finally {
    await client.end();
  }
}

/** One line for the report: WAL per answered request and the share of HOT updates. */
export function describeWrites(before: PostgresWrites, after: PostgresWrites, answered: number): string {
  const wal = after.walBytes - before.walBytes;
  const updates = after.petitionUpdates - before.petitionUpdates;
  const hot = after.hotUpdates - before.hotUpdates;
  const share = updates ? `${((hot / updates) * 100).toFixed(1)}%` : '-';
  return `PostgreSQL wrote ${Math.round(wal / Math.max(answered, 1)).toLocaleString('en-GB')} WAL bytes per 2xx; petitions updates ${updates.toLocaleString('en-GB')}, HOT ${hot.toLocaleString('en-GB')} (${share})`;
}
