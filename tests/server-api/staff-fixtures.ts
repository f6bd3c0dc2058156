/** Test data for the staff API tests, written straight to the database (no public route is needed). */
import type { LightMyRequestResponse } from 'fastify';
import type { TestApi } from '../support/api-harness.ts';
import { countRows, seedPetition, seedTerm, type PetitionSeed, type TermSeed } from '../support/fixtures.ts';

/**
 * The staff suite's petition: a citizen's (Citizen Kane, 9002), outside any term, created at a
 * fixed instant, with no record of who added a response or debate.
 */
export const STAFF_PETITION: PetitionSeed = {
  title: 'Fund the public libraries',
  description: 'Every town should keep its library open for at least five days a week.',
  tags: ['Budget'],
  creatorName: 'Citizen Kane',
  creatorId: '9002',
  termId: null,
  createdAt: new Date('2026-03-01T10:00:00Z'),
  closedAt: null,
  contributionMeta: false,
};

/** The seed's own values over the defaults; a key left undefined keeps the default. */
function over<T extends object>(defaults: T, seed: T): T {
  return { ...defaults, ...Object.fromEntries(Object.entries(seed).filter(([, value]) => value !== undefined)) };
}

/** A petition with the staff suite's defaults (STAFF_PETITION); returns its id. */
export async function seedStaffPetition(api: TestApi, seed: PetitionSeed = {}): Promise<number> {
  return (await seedPetition(api, over(STAFF_PETITION, seed))).id;
}

/** Term 87, the calendar year 2026 (current or not by the server's clock); returns its id. */
export async function seedStaffTerm(api: TestApi, seed: TermSeed = {}): Promise<number> {
  return (await seedTerm(api, over({ name: 'Term 87', startDate: '2026-01-01', endDate: '2026-12-31' }, seed))).id;
}

/** Row counts of every table a staff action can write, to prove a refused request wrote nothing. */
export async function writeSnapshot(api: TestApi): Promise<Record<string, number | string>> {
  const tables = [
    'petitions',
    'petition_tags',
    'signatures',
    'terms',
    'bans',
    'site_settings',
    'audit_log',
    'idempotency_keys',
    'chat_messages',
    'petition_reports',
    'moderation_events',
    'rejection_reasons',
  ] as const;
  const snapshot: Record<string, number | string> = {};
  for (const table of tables) snapshot[table] = await countRows(api, table);
  const versions = await api.context.db.selectFrom('petitions').select(['id', 'version', 'status', 'moderation_state']).orderBy('id').execute();
  snapshot.petitionVersions = JSON.stringify(versions);
  return snapshot;
}

export async function auditRows(api: TestApi) {
  return api.context.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
}

export async function chatMessageRows(api: TestApi) {
  return api.context.db.selectFrom('chat_messages').selectAll().orderBy('id').execute();
}

export async function petitionRow(api: TestApi, id: number) {
  return api.context.db.selectFrom('petitions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function body<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json<T>();
}

export const RESPONSE_BODY = {
  response_text: 'The Government will fund public libraries in every region from next April.',
  added_by_role: 'Chancellor of the Exchequer',
};

export const ROLES = ['nonCitizen', 'citizen', 'rank6', 'rank7', 'rank8', 'admin', 'bannedCitizen'] as const;
export type Role = (typeof ROLES)[number];

/** One session per role, created once per test file. */
export async function signInEveryone(api: TestApi): Promise<Record<Role, string>> {
  const cookies = {} as Record<Role, string>;
  for (const role of ROLES) cookies[role] = await api.signInAs(role);
  return cookies;
}

export function rolesExcept(...allowed: Role[]): Role[] {
  return ROLES.filter((role) => !allowed.includes(role));
}
