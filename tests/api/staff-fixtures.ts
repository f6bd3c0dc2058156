/** Test data for the staff API tests, written straight to the database (no public route is needed). */
import type { LightMyRequestResponse } from 'fastify';
import type { Database } from '../../src-server/db/schema.ts';
import type { TestApi } from '../support/api-harness.ts';

export interface PetitionSeed {
  title?: string;
  description?: string;
  tags?: string[];
  termId?: number | null;
  status?: string;
  signatures?: number;
  creatorId?: string;
  governmentResponse?: string | null;
  debateInfo?: object | null;
  closureReason?: string | null;
  closedAt?: string | null;
  version?: number;
}

export async function seedPetition(api: TestApi, seed: PetitionSeed = {}): Promise<number> {
  const stamp = new Date('2026-03-01T10:00:00Z').toISOString();
  const tags = seed.tags ?? ['Budget'];
  const row = await api.context.db
    .insertInto('petitions')
    .values({
      title: seed.title ?? 'Fund the public libraries',
      description: seed.description ?? 'Every town should keep its library open for at least five days a week.',
      creator_name: 'Citizen Kane',
      creator_id: seed.creatorId ?? '9002',
      tags: JSON.stringify(tags),
      category: 'General',
      term_id: seed.termId ?? null,
      status: seed.status ?? 'open',
      closure_reason: seed.closureReason ?? null,
      closed_at: seed.closedAt ?? null,
      signature_count: seed.signatures ?? 0,
      government_response: seed.governmentResponse ?? null,
      government_response_meta: null,
      debate_info: seed.debateInfo ? JSON.stringify(seed.debateInfo) : null,
      debate_info_meta: null,
      version: seed.version ?? 1,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const tag of tags) await api.context.db.insertInto('petition_tags').values({ petition_id: row.id, tag }).execute();
  const count = seed.signatures ?? 0;
  for (let i = 0; i < count; i += 1) {
    await api.context.db
      .insertInto('signatures')
      .values({ petition_id: row.id, user_id: String(50_000 + i), username: `u${i}`, display_name: `User ${i}`, signed_at: stamp })
      .execute();
  }
  return row.id;
}

export async function seedTerm(
  api: TestApi,
  term: { name?: string; startDate?: string; endDate?: string; status?: string | null } = {},
): Promise<number> {
  const stamp = new Date().toISOString();
  const row = await api.context.db
    .insertInto('terms')
    .values({
      name: term.name ?? 'Term 87',
      start_date: term.startDate ?? '2026-01-01',
      end_date: term.endDate ?? '2026-12-31',
      status: term.status === undefined ? null : term.status,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function countRows(api: TestApi, table: keyof Database): Promise<number> {
  const row = await api.context.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Row counts of every table a staff action can write, to prove a refused request wrote nothing. */
export async function writeSnapshot(api: TestApi): Promise<Record<string, number | string>> {
  const tables = ['petitions', 'petition_tags', 'signatures', 'terms', 'bans', 'site_settings', 'audit_log', 'idempotency_keys', 'notification_outbox'] as const;
  const snapshot: Record<string, number | string> = {};
  for (const table of tables) snapshot[table] = await countRows(api, table);
  const versions = await api.context.db.selectFrom('petitions').select(['id', 'version', 'status']).orderBy('id').execute();
  snapshot.petitionVersions = JSON.stringify(versions);
  return snapshot;
}

export async function auditRows(api: TestApi) {
  return api.context.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
}

export async function outboxRows(api: TestApi) {
  return api.context.db.selectFrom('notification_outbox').selectAll().orderBy('id').execute();
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
