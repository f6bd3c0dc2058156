import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { DEBATE_THRESHOLD, RESPONSE_THRESHOLD } from '../../../src-shared/domain/constants.ts';
import type { EngineMigration } from './migration.ts';

/**
 * Working as a team (docs/console-team.md), in two parts.
 *
 * 1. Queue ageing counts from when a petition crossed its threshold, so each petition records when
 *    it first reached 10 signatures (or was put in the response queue by status) and when it first
 *    reached 20 (or was put in the debate queue): `response_threshold_reached_at`,
 *    `debate_threshold_reached_at`, never cleared. A trigger sets them, whatever writes the count or
 *    the status (signing on either engine, written-behind counts, a status override, the seed), at
 *    the database's clock, only on the write that crosses: the hot path of signing pays nothing
 *    else. Existing petitions are backfilled with the time of their 10th (20th) signature, oldest
 *    first, among the signatures they hold now; one in a queue without that many rows (seeded
 *    counts, a status set by hand) gets its creation time, which never makes an old petition look
 *    young (docs/console-team.md#when-the-clock-starts). The thresholds are those of this release;
 *    changing them needs a migration of its own.
 * 2. `staff_presence`: who is on which petition now, one row per open console or tab (the client's
 *    random id, paired with its signed-in user), kept in the database so every node sees every
 *    other node's staff within a tick (docs/console-team.md#presence). Rows expire on their own:
 *    readers skip them and writers delete them once `seen_until` has passed.
 */

function responseCrossed(row: string): string {
  return `(${row}.signature_count >= ${RESPONSE_THRESHOLD} OR ${row}.status = 'awaiting_government_response')`;
}

function debateCrossed(row: string): string {
  return `(${row}.signature_count >= ${DEBATE_THRESHOLD} OR ${row}.status = 'awaiting_debate_in_parliament')`;
}

/** The Nth signature's time, oldest first (the (petition_id, signed_at) index walks it). */
function nthSignature(n: number): string {
  return `(SELECT s.signed_at FROM signatures s WHERE s.petition_id = petitions.id ORDER BY s.signed_at, s.user_id LIMIT 1 OFFSET ${n - 1})`;
}

async function addColumnsAndBackfill(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('petitions').addColumn('response_threshold_reached_at', 'text').execute();
  await db.schema.alterTable('petitions').addColumn('debate_threshold_reached_at', 'text').execute();
  await sql
    .raw(
      `UPDATE petitions SET response_threshold_reached_at = coalesce(${nthSignature(RESPONSE_THRESHOLD)}, created_at) WHERE ${responseCrossed('petitions')}`,
    )
    .execute(db);
  await sql
    .raw(`UPDATE petitions SET debate_threshold_reached_at = coalesce(${nthSignature(DEBATE_THRESHOLD)}, created_at) WHERE ${debateCrossed('petitions')}`)
    .execute(db);
}

async function createPresenceTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff_presence')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
    .addColumn('activity', 'text', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('seen_until', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text')
    .addPrimaryKeyConstraint('staff_presence_pk', ['user_id', 'client_id'])
    .execute();
  // A petition's deletion finds its presence rows through this (the cascade), and nothing else is large here.
  await db.schema.createIndex('staff_presence_petition').on('staff_presence').column('petition_id').execute();
}

const SQLITE_NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** SQLite: row triggers cannot change NEW, so the crossing write is followed by one more UPDATE of that row. */
function sqliteTriggerBody(): string {
  return `BEGIN
    UPDATE petitions SET
      response_threshold_reached_at = coalesce(response_threshold_reached_at, CASE WHEN ${responseCrossed('NEW')} THEN ${SQLITE_NOW} END),
      debate_threshold_reached_at = coalesce(debate_threshold_reached_at, CASE WHEN ${debateCrossed('NEW')} THEN ${SQLITE_NOW} END)
    WHERE id = NEW.id;
  END`;
}

const crossingNow = `(NEW.response_threshold_reached_at IS NULL AND ${responseCrossed('NEW')}) OR (NEW.debate_threshold_reached_at IS NULL AND ${debateCrossed('NEW')})`;

const sqlite: Migration = {
  async up(db: Kysely<unknown>) {
    await addColumnsAndBackfill(db);
    await sql.raw(`CREATE TRIGGER petitions_threshold_insert AFTER INSERT ON petitions WHEN ${crossingNow} ${sqliteTriggerBody()}`).execute(db);
    await sql
      .raw(`CREATE TRIGGER petitions_threshold_update AFTER UPDATE OF signature_count, status ON petitions WHEN ${crossingNow} ${sqliteTriggerBody()}`)
      .execute(db);
    await createPresenceTable(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('staff_presence').execute();
    await sql`DROP TRIGGER petitions_threshold_update`.execute(db);
    await sql`DROP TRIGGER petitions_threshold_insert`.execute(db);
    await db.schema.alterTable('petitions').dropColumn('debate_threshold_reached_at').execute();
    await db.schema.alterTable('petitions').dropColumn('response_threshold_reached_at').execute();
  },
};

const POSTGRES_NOW = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const postgres: Migration = {
  async up(db: Kysely<unknown>) {
    await addColumnsAndBackfill(db);
    // A BEFORE trigger sets the columns in the row being written: no second row version.
    await sql
      .raw(
        `CREATE FUNCTION petitions_threshold_reached() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.response_threshold_reached_at IS NULL AND ${responseCrossed('NEW')} THEN
            NEW.response_threshold_reached_at := ${POSTGRES_NOW};
          END IF;
          IF NEW.debate_threshold_reached_at IS NULL AND ${debateCrossed('NEW')} THEN
            NEW.debate_threshold_reached_at := ${POSTGRES_NOW};
          END IF;
          RETURN NEW;
        END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER petitions_threshold_reached BEFORE INSERT OR UPDATE OF signature_count, status ON petitions
         FOR EACH ROW WHEN (${crossingNow}) EXECUTE FUNCTION petitions_threshold_reached()`,
      )
      .execute(db);
    await createPresenceTable(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('staff_presence').execute();
    await sql`DROP TRIGGER petitions_threshold_reached ON petitions`.execute(db);
    await sql`DROP FUNCTION petitions_threshold_reached()`.execute(db);
    await db.schema.alterTable('petitions').dropColumn('debate_threshold_reached_at').execute();
    await db.schema.alterTable('petitions').dropColumn('response_threshold_reached_at').execute();
  },
};

export const queueAgeingAndPresenceMigration: EngineMigration = { sqlite, postgres };
