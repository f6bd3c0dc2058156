// Placeholder: the public petitions module replaces this file with real demo content.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export async function seedDemoData(_db: Kysely<Database>, _now: Date = new Date()): Promise<void> {}
