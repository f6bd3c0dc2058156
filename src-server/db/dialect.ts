/** The database engines the server runs on; DATABASE_URL picks one (database.ts). */
export type SqlDialectName = 'sqlite' | 'postgres';
