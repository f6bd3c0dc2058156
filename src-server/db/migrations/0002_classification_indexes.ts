import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialectName } from '../dialect.ts';
import type { EngineMigration } from './migration.ts';

/**
 * Indexes for the list's status filters that no column index can serve, because the shared
 * classification reads them from expressions (and two for the closure rules, below):
 * - "debated" / "not debated" test the status inside the debate JSON;
 * - "government responses" / "awaiting response" test for a non-empty response text.
 * Without them each such list scans every petition (0.03–0.2 s at 100,000 petitions); with them
 * SQLite combines these and the status index (MULTI-INDEX OR) and reads only the matches.
 * The list queries must use exactly these expressions (petitions/classification-sql.ts and
 * petitions/sql-dialect.ts); a test checks the query plans so the two cannot drift apart.
 */
export const classificationIndexesMigration: EngineMigration = { sqlite: form('sqlite'), postgres: form('postgres') };

function form(dialect: SqlDialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await sql`CREATE INDEX petitions_debate_status ON petitions ((CASE WHEN debate_info ~ '^\\s*\\{' THEN (debate_info)::jsonb ->> 'status' END))`.execute(db);
      } else {
        await sql`CREATE INDEX petitions_debate_status ON petitions ((CASE WHEN json_valid(debate_info) THEN json_extract(debate_info, '$.status') END))`.execute(db);
      }
      await sql`CREATE INDEX petitions_response_state ON petitions ((CASE WHEN government_response IS NOT NULL AND government_response <> '' THEN 1 ELSE 0 END))`.execute(db);
      // The closure rules (closure/closure-service.ts) run every minute and on every client's
      // check-expired call; these let both find only the petitions that are due.
      await db.schema.createIndex('petitions_status_created').on('petitions').columns(['status', 'created_at']).execute();
      await db.schema.createIndex('petitions_term_status').on('petitions').columns(['term_id', 'status']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('petitions_term_status').execute();
      await db.schema.dropIndex('petitions_status_created').execute();
      await sql`DROP INDEX petitions_response_state`.execute(db);
      await sql`DROP INDEX petitions_debate_status`.execute(db);
    },
  };
}
