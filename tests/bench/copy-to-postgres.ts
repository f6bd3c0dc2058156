/**
 * The benchmark's PostgreSQL data: the seeded SQLite file copied row for row into a migrated
 * PostgreSQL database, so both engines are measured on the same petitions, signatures, users and
 * sessions. Columns only SQLite has (the stored first signers, which PostgreSQL reads from the
 * signatures: migration 0027) stay behind; foreign keys stay checked.
 */
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

const TABLES = ['users', 'terms', 'petitions', 'petition_tags', 'signatures', 'sessions', 'petition_events', 'feed_mutes', 'feed_topic_optouts'] as const;
const MAX_PARAMETERS = 60_000;

export async function copySqliteToPostgres(file: string, url: string): Promise<void> {
  const source = new BetterSqlite3(file, { readonly: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const table of TABLES) {
      // The columns PostgreSQL has and does not compute: not signature_band (generated there, a plain column on
      // SQLite), nor first_signers (SQLite's only).
      const written = new Set(
        (await client.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND is_generated = 'NEVER'`, [table])).rows.map(
          (row) => row.column_name,
        ),
      );
      const columns = (source.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name).filter((name) => written.has(name));
      const perChunk = Math.floor(MAX_PARAMETERS / columns.length);
      const names = columns.map((name) => `"${name}"`).join(', ');
      let chunk: unknown[][] = [];
      const flush = async () => {
        if (!chunk.length) return;
        const values = chunk.map((_, row) => `(${columns.map((__, col) => `$${row * columns.length + col + 1}`).join(', ')})`).join(', ');
        await client.query(`INSERT INTO ${table} (${names}) VALUES ${values}`, chunk.flat());
        chunk = [];
      };
      for (const row of source.prepare(`SELECT ${names} FROM ${table}`).raw().iterate() as IterableIterator<unknown[]>) {
        chunk.push(row);
        if (chunk.length === perChunk) await flush();
      }
      await flush();
    }
    // Serial keys continue after the copied ids.
    for (const table of ['terms', 'petitions', 'petition_events']) {
      await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), coalesce((SELECT max(id) FROM ${table}), 0) + 1, false)`);
    }
    await client.query('COMMIT');
    // As autovacuum leaves a database that has been running a while: statistics, and the visibility
    // map that lets index-only scans skip the heap (a fresh copy has neither).
    await client.query('VACUUM ANALYZE');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
    source.close();
  }
}

/** Stored counts against signature rows, as the SQLite check does. */
export async function checkPostgresIntegrity(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const stored = Number((await client.query('SELECT sum(signature_count) AS n FROM petitions')).rows[0].n);
    const rows = Number((await client.query('SELECT count(*) AS n FROM signatures')).rows[0].n);
    if (stored !== rows) return `MISMATCH: counts ${stored} vs rows ${rows}`;
    // The first signers are read from the rows (migration 0027): nothing stored to check.
    return `OK (${rows.toLocaleString('en-GB')} signatures, counts match)`;
  } finally {
    await client.end();
  }
}
