import { sql, type Kysely } from 'kysely';
import { EVERYTHING_CHANGED, MAX_NOTICE_PAYLOAD, PETITION_CHANGES_CHANNEL } from '../change-notices.ts';
import { unchanged, type EngineMigration } from './migration.ts';

/**
 * PostgreSQL: every statement that updates or deletes petitions sends one notice at commit naming
 * the ids it touched, whoever wrote them (any node, the signing batch, staff, closure, a script),
 * so each node's petition cache forgets them (db/change-notices.ts,
 * docs/operations.md#the-petition-read-cache). One notice per statement, not per row: a signing
 * batch that updates fifty petitions sends one. Inserts send none: the cache keeps only petitions it
 * found. A statement that touches more ids than a notice holds says "everything".
 * SQLite: unchanged (one process owns the file, nothing to tell).
 */
export const petitionChangeNoticesMigration: EngineMigration = {
  sqlite: unchanged,
  postgres: {
    async up(db: Kysely<unknown>) {
      await sql.raw(`CREATE FUNCTION petitions_notify_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE ids text;
        BEGIN
          SELECT string_agg(DISTINCT id::text, ',') INTO ids FROM changed_petitions;
          IF ids IS NOT NULL THEN
            PERFORM pg_notify('${PETITION_CHANGES_CHANNEL}', CASE WHEN length(ids) > ${MAX_NOTICE_PAYLOAD} THEN '${EVERYTHING_CHANGED}' ELSE ids END);
          END IF;
          RETURN NULL;
        END $$`).execute(db);
      // A trigger with a transition table handles one event, so one per event, both named alike.
      await sql`CREATE TRIGGER petitions_changed_update AFTER UPDATE ON petitions
        REFERENCING NEW TABLE AS changed_petitions FOR EACH STATEMENT EXECUTE FUNCTION petitions_notify_changed()`.execute(db);
      await sql`CREATE TRIGGER petitions_changed_delete AFTER DELETE ON petitions
        REFERENCING OLD TABLE AS changed_petitions FOR EACH STATEMENT EXECUTE FUNCTION petitions_notify_changed()`.execute(db);
    },
  },
};
