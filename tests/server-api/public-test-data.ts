/**
 * Direct database fixtures for the public API tests: terms, petitions in any state and signatures,
 * written without going through the routes under test.
 */
import type { Kysely } from 'kysely';
import type { Database, NewPetitionRow, PetitionRow } from '../../src-server/db/schema.ts';
import type { TermStatus } from '../../src-shared/domain/constants.ts';
import { londonDay } from '../../src-shared/rules/dates.ts';
import { seedTerm } from '../support/fixtures.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export function daysFrom(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

export async function insertTerm(
  db: Kysely<Database>,
  term: { name?: string; startDate: string; endDate: string; status?: TermStatus | null },
): Promise<number> {
  return (await seedTerm(db, { ...term, name: term.name ?? 'Term 87' })).id;
}

/** A term that is current at `now` by its dates (no stored status). */
export async function insertCurrentTerm(db: Kysely<Database>, now: Date = new Date(), name = 'Term 87'): Promise<number> {
  return insertTerm(db, { name, startDate: londonDay(daysFrom(now, -30)), endDate: londonDay(daysFrom(now, 300)) });
}

let titleCounter = 0;

export async function insertPetition(db: Kysely<Database>, values: Partial<NewPetitionRow> = {}): Promise<PetitionRow> {
  titleCounter += 1;
  const stamp = values.created_at ?? new Date().toISOString();
  const tags = values.tags ?? JSON.stringify(['Democracy']);
  const row = await db
    .insertInto('petitions')
    .values({
      title: `Test petition number ${titleCounter}`,
      description: 'A description that is comfortably longer than thirty characters.',
      creator_name: 'Fixture Creator',
      creator_id: '1',
      tags,
      category: 'General',
      term_id: null,
      status: 'open',
      closure_reason: null,
      closed_at: null,
      signature_count: 0,
      government_response: null,
      government_response_meta: null,
      debate_info: null,
      debate_info_meta: null,
      version: 1,
      created_at: stamp,
      updated_at: stamp,
      ...values,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const tagList = JSON.parse(row.tags) as string[];
  if (tagList.length) {
    await db
      .insertInto('petition_tags')
      .values(tagList.map((tag) => ({ petition_id: row.id, tag })))
      .execute();
  }
  return row;
}

/** Adds `count` signatures from users `${prefix}1..n` and sets the stored count to match. */
export async function addSignatures(
  db: Kysely<Database>,
  petitionId: number,
  count: number,
  options: { prefix?: string; signedAt?: (index: number) => string } = {},
): Promise<void> {
  if (count === 0) return;
  const prefix = options.prefix ?? '5';
  await db
    .insertInto('signatures')
    .values(
      Array.from({ length: count }, (_, i) => ({
        petition_id: petitionId,
        user_id: `${prefix}${String(i + 1).padStart(5, '0')}`,
        username: `signer${i + 1}`,
        display_name: `Signer ${i + 1}`,
        signed_at: options.signedAt?.(i) ?? new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      })),
    )
    .execute();
  await db
    .updateTable('petitions')
    .set((eb) => ({ signature_count: eb('signature_count', '+', count) }))
    .where('id', '=', petitionId)
    .execute();
}

export const VALID_PETITION = {
  title: 'Plant more trees in city parks',
  description: 'City parks need more trees for shade, wildlife and cleaner air in summer.',
  tags: ['Public Services', 'Rights'],
};
