/**
 * What a migration is here: one step of the schema, written once per engine. Each step names its
 * SQLite and its PostgreSQL form side by side, so a reader (and the type checker) sees that neither
 * engine was forgotten; a step one engine does not need says so with `unchanged`.
 */
import type { Migration } from 'kysely/migration';
import type { SqlDialectName } from '../dialect.ts';

export type EngineMigration = Record<SqlDialectName, Migration>;

/** The form of a step that one engine does not need (the reason belongs in the step's comment). */
export const unchanged: Migration = { async up() {} };
