/**
 * Test data written straight to the database (no route under test is needed to make it), and the
 * counts tests read back. Every suite seeds through these; a suite with defaults of its own keeps
 * them as data (e.g. STAFF_PETITION in tests/server-api/staff-fixtures.ts).
 *
 *   const term = await seedTerm(stack.context);                             // current at context.now()
 *   const petition = await seedPetition(stack.context, { signatures: 12 }); // in that term
 *   await countRows(api, 'audit_log');
 *   await auditCount(stack, { action: 'response.add', targetId: petition.id });
 *
 * Where they write (a FixtureTarget): a Kysely database, an AppContext, or anything holding one as
 * `context` (the API harness, the stack). The clock is the context's `now()` when there is one.
 */
import { Kysely } from 'kysely';
import type { Database } from '../../src-server/db/schema.ts';
import { DEV_PERSONAS } from '../../src-server/dev/provider/index.ts';
import type { PetitionStatus, TermStatus } from '../../src-shared/domain/constants.ts';
import type { DebateInfo } from '../../src-shared/domain/schemas.ts';
import { londonDay } from '../../src-shared/rules/dates.ts';

type Db = Kysely<Database>;
interface DbAndClock {
  db: Db;
  now?: () => Date;
}
export type FixtureTarget = Db | DbAndClock | { context: DbAndClock };

function resolve(target: FixtureTarget): { db: Db; now: () => Date } {
  if (target instanceof Kysely) return { db: target, now: () => new Date() };
  const holder = 'context' in target ? target.context : target;
  return { db: holder.db, now: holder.now ?? (() => new Date()) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

export interface TermSeed {
  name?: string;
  /** YYYY-MM-DD; the defaults make the term current at now(). */
  startDate?: string;
  endDate?: string;
  /** Stored status; null (the default) follows the dates. */
  status?: TermStatus | null;
}

export interface SeededTerm {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
}

export async function seedTerm(target: FixtureTarget, seed: TermSeed = {}): Promise<SeededTerm> {
  const { db, now: clock } = resolve(target);
  const now = clock();
  const values = {
    name: seed.name ?? 'Test Term',
    start_date: seed.startDate ?? londonDay(new Date(now.getTime() - 30 * DAY_MS)),
    end_date: seed.endDate ?? londonDay(new Date(now.getTime() + 335 * DAY_MS)),
    status: seed.status ?? null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const row = await db.insertInto('terms').values(values).returning('id').executeTakeFirstOrThrow();
  return { id: row.id, name: values.name, startDate: values.start_date, endDate: values.end_date };
}

export interface PetitionSeed {
  title?: string;
  description?: string;
  tags?: string[];
  category?: string;
  /** Defaults to the term current at now(), if there is one; pass null for none. */
  termId?: number | null;
  status?: PetitionStatus;
  /** This many signatures from synthetic users (ids 900000001, 900000002, …), one second apart. */
  signatures?: number;
  creatorId?: string | null;
  creatorName?: string;
  createdAt?: Date;
  governmentResponse?: string | null;
  /** Stored as given, so a test may store a partial one. */
  debateInfo?: DebateInfo | object | null;
  closureReason?: string | null;
  /** Defaults to createdAt for a closed petition, else null. */
  closedAt?: string | null;
  version?: number;
  /** Write who added the response and the debate (default true); false leaves their meta empty. */
  contributionMeta?: boolean;
  /**
   * When it reached the response (debate) threshold. Unset: the database's trigger records now
   * when the seeded count or status is over the threshold (migration 0020).
   */
  responseThresholdReachedAt?: Date;
  debateThresholdReachedAt?: Date;
}

export interface SeededPetition {
  id: number;
  title: string;
  signatures: number;
}

export const SYNTHETIC_USER_BASE = 900_000_000;

async function currentTermId(db: Db, now: Date): Promise<number | null> {
  const today = londonDay(now);
  const terms = await db.selectFrom('terms').selectAll().orderBy('start_date').execute();
  const current = terms.find((t) => (t.status ? t.status === 'current' : t.start_date <= today && today <= t.end_date));
  return current?.id ?? null;
}

export async function seedPetition(target: FixtureTarget, seed: PetitionSeed = {}): Promise<SeededPetition> {
  const { db, now: clock } = resolve(target);
  const now = clock();
  const createdAt = (seed.createdAt ?? now).toISOString();
  const tags = seed.tags ?? ['Democracy'];
  const signatures = seed.signatures ?? 0;
  const termId = seed.termId === undefined ? await currentTermId(db, now) : seed.termId;
  const title = seed.title ?? `Seeded petition ${Math.random().toString(36).slice(2, 8)}`;
  const withMeta = seed.contributionMeta ?? true;
  const meta = (present: unknown) =>
    withMeta && present
      ? JSON.stringify({ addedBy: 'Seed', addedByRole: 'Prime Minister', addedAt: createdAt, editedBy: null, editedByRole: null, editedAt: null })
      : null;

  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('petitions')
      .values({
        title,
        description: seed.description ?? 'A petition seeded directly into the database for a test.',
        creator_name: seed.creatorName ?? 'Seed Creator',
        creator_id: seed.creatorId ?? null,
        tags: JSON.stringify(tags),
        category: seed.category ?? 'General',
        term_id: termId,
        status: seed.status ?? 'open',
        closure_reason: seed.closureReason ?? null,
        closed_at: seed.closedAt === undefined ? (seed.status === 'closed' ? createdAt : null) : seed.closedAt,
        signature_count: signatures,
        government_response: seed.governmentResponse ?? null,
        government_response_meta: meta(seed.governmentResponse),
        debate_info: seed.debateInfo ? JSON.stringify(seed.debateInfo) : null,
        debate_info_meta: meta(seed.debateInfo),
        version: seed.version ?? 1,
        created_at: createdAt,
        updated_at: createdAt,
        ...(seed.responseThresholdReachedAt ? { response_threshold_reached_at: seed.responseThresholdReachedAt.toISOString() } : {}),
        ...(seed.debateThresholdReachedAt ? { debate_threshold_reached_at: seed.debateThresholdReachedAt.toISOString() } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (tags.length > 0) {
      await trx.insertInto('petition_tags').values(tags.map((tag) => ({ petition_id: row.id, tag }))).execute();
    }
    for (let start = 0; start < signatures; start += 200) {
      const batch = Array.from({ length: Math.min(200, signatures - start) }, (_, i) => {
        const n = start + i + 1;
        return { id: String(SYNTHETIC_USER_BASE + n), username: `signer${n}`, display_name: `Signer ${n}` };
      });
      await trx
        .insertInto('users')
        .values(batch.map((u) => ({ ...u, avatar_url: null, citizen_rank: 1, government_rank: 0, groups_unavailable: 0, roles_checked_at: createdAt, created_at: createdAt, updated_at: createdAt })))
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      await trx
        .insertInto('signatures')
        .values(batch.map((u, i) => ({
          petition_id: row.id,
          user_id: u.id,
          username: u.username,
          display_name: u.display_name,
          signed_at: new Date(Math.min(Date.parse(createdAt) + (start + i) * 1000, Math.max(now.getTime(), Date.parse(createdAt)))).toISOString(),
        })))
        .execute();
    }
    return { id: row.id, title, signatures };
  });
}

export async function countRows(target: FixtureTarget, table: keyof Database): Promise<number> {
  const row = await resolve(target)
    .db.selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Audit rows, all of them or those of one action (and target). */
export async function auditCount(target: FixtureTarget, filter: { action?: string; targetId?: number | string } = {}): Promise<number> {
  let query = resolve(target)
    .db.selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.targetId !== undefined) query = query.where('target_id', '=', String(filter.targetId));
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** The user id of a local OpenID provider persona, by its label ('Citizen', 'Prime Minister', …). */
export function personaId(label: string): string {
  const persona = DEV_PERSONAS.find((p) => p.label === label);
  if (!persona) throw new Error(`unknown persona ${label}`);
  return persona.id;
}
