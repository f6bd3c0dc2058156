/**
 * Deleting a member's data leaves no table behind (docs/privacy.md#deleting-your-data). The schema is
 * read from the live database (SQLite's catalogue or PostgreSQL's information_schema), not from a hand
 * list: every column named like a user id or a name, and every text column that holds the test
 * member's id or name once they have used the whole site, must be declared in
 * src-server/privacy/user-data-columns.ts. After the deletion only columns declared `kept` (records of
 * staff acts, bans) may still hold the member. A new table with a user id column fails here until
 * its handling is declared and done.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELETION_CONFIRMATION } from '../../src-shared/domain/privacy-constants.ts';
import { USER_DATA_COLUMNS, mustNotHoldMember } from '../../src-server/privacy/user-data-columns.ts';
import type { UserProfile } from '../../src-server/users/user-repository.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { VALID_PETITION } from './public-test-data.ts';

/** A Cabinet Minister, so that staff acts name them too; id and names that appear nowhere else. */
const MEMBER: UserProfile = { id: '73919919', username: 'zorvexquill', displayName: 'Zorvex Quillborne', avatarUrl: null, citizenRank: 1, governmentRank: 6 };
const MARKS = [MEMBER.id, MEMBER.username, MEMBER.displayName];
/** Column names that say "a person": user ids, names, who did something. */
const NAMED_LIKE_A_PERSON = /(^|_)(user|creator|reporter|actor|member|signer)_(id|name)$|(^|_)(username|display_name)$|_by$/;

let api: TestApi;

interface LiveColumn {
  table: string;
  column: string;
  /** Holds text (or JSON) that may contain an id or a name. */
  textual: boolean;
}

/** Every column of every table of the application, read from the database itself. */
async function liveColumns(): Promise<LiveColumn[]> {
  const db = api.context.db;
  if (api.context.dialect === 'postgres') {
    const rows = await sql<{ table_name: string; column_name: string; data_type: string }>`
      SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name NOT LIKE 'kysely%'`.execute(db);
    return rows.rows.map((row) => ({ table: row.table_name, column: row.column_name, textual: ['text', 'character varying', 'json', 'jsonb'].includes(row.data_type) }));
  }
  const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'
    AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'kysely%' AND name NOT LIKE 'petitions_fts%'`.execute(db);
  const columns: LiveColumn[] = [];
  for (const { name } of tables.rows) {
    const info = await sql<{ name: string; type: string }>`SELECT name, type FROM pragma_table_info(${name})`.execute(db);
    for (const column of info.rows) columns.push({ table: name, column: column.name, textual: !/int/i.test(column.type) });
  }
  return columns;
}

/** The columns (table.column) in which any of the member's id and names occurs now. */
async function columnsHoldingMember(columns: readonly LiveColumn[]): Promise<string[]> {
  const found: string[] = [];
  for (const { table, column } of columns.filter((c) => c.textual)) {
    const text = api.context.dialect === 'postgres' ? sql`${sql.ref(column)}::text` : sql`CAST(${sql.ref(column)} AS TEXT)`;
    const matches = MARKS.map((mark) => sql`${text} LIKE ${`%${mark}%`}`);
    const row = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.join(matches, sql` OR `)}`.execute(api.context.db);
    if (Number(row.rows[0]?.n ?? 0) > 0) found.push(`${table}.${column}`);
  }
  return found;
}

/** The member uses every part of the site; what no route reaches in a test is written as those routes would. */
async function memberUsesEverything(): Promise<void> {
  const db = api.context.db;
  const now = new Date().toISOString();
  const cookie = await api.signIn(MEMBER);
  const open = (await seedPetition(api, { signatures: 2 })).id;
  const closed = (await seedPetition(api, { signatures: 2 })).id;
  const invalidatedOn = (await seedPetition(api, { signatures: 1 })).id;
  for (const id of [open, closed]) expect((await api.request({ method: 'POST', url: `/api/petitions/${id}/sign`, cookie })).statusCode).toBe(200);
  const created = (await api.request({ method: 'POST', url: '/api/petitions', payload: VALID_PETITION, cookie })).json<{ id: number }>();
  expect((await api.request({ method: 'POST', url: `/api/petitions/${open}/reports`, payload: { reason: 'spam' }, cookie })).statusCode).toBe(201);
  // A staff act with an Idempotency-Key: the response, its audit entry, its event and the replay record.
  const answered = await api.request({
    method: 'POST',
    url: `/api/petitions/${open}/government-response`,
    payload: { response_text: 'The government will plant the trees.', added_by_role: 'Foreign Secretary' },
    headers: { 'idempotency-key': 'privacy-test-0001' },
    cookie,
  });
  expect(answered.statusCode).toBe(200);
  expect((await api.request({ method: 'PATCH', url: `/api/petitions/${closed}/status`, payload: { status: 'closed' }, cookie: await api.signInAs('admin') })).statusCode).toBe(200);
  const event = await db.selectFrom('petition_events').select('id').where('petition_id', '=', open).executeTakeFirstOrThrow();
  await db.insertInto('feed_read_state').values({ user_id: MEMBER.id, read_up_to: 0, push_enabled: 1, updated_at: now }).execute();
  await db.insertInto('feed_reads').values({ user_id: MEMBER.id, event_id: event.id }).execute();
  await db.insertInto('feed_mutes').values({ user_id: MEMBER.id, petition_id: closed, created_at: now }).execute();
  await db.insertInto('feed_topic_optouts').values({ user_id: MEMBER.id, topic: 'milestones' }).execute();
  const device = await db
    .insertInto('push_subscriptions')
    .values({ user_id: MEMBER.id, endpoint: 'https://push.example/zorvex', p256dh: 'key', auth: 'auth', expires_at: null, session_hash: null, created_at: now, updated_at: now, last_delivered_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('push_deliveries').values({ event_id: event.id, subscription_id: device.id, due_at: now, last_error: null }).execute();
  await db.insertInto('staff_presence').values({ user_id: MEMBER.id, client_id: 'tab-1', petition_id: open, activity: 'viewing', since: now, seen_until: now, claimed_until: null }).execute();
  await db
    .insertInto('moderation_events')
    .values({ petition_id: created.id, creator_id: MEMBER.id, action: 'keep', reason_code: null, note: null, actor_id: null, actor_name: null, actor_role: null, at: now })
    .execute();
  const job = await db
    .insertInto('invalidation_jobs')
    // The administrator's criteria named the member: a record of a staff act, kept.
    .values({ kind: 'invalidate', criteria: JSON.stringify({ petitionId: null, signedFrom: null, signedTo: null, accountYoungerThanDays: null, userIds: [MEMBER.id] }), restores_job_id: null, reason: 'test', requested_by: '9000', requested_by_role: 'System Administrator', requested_at: now, state: 'finished', total: 1, processed: 1, petitions_changed: 1, cancel_requested: 0, cursor: null, lease_owner: null, lease_until: null, started_at: now, finished_at: now, restored_by_job_id: null, last_error: null, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('invalidated_signatures')
    .values({ petition_id: invalidatedOn, user_id: MEMBER.id, username: MEMBER.username, display_name: MEMBER.displayName, signed_at: now, job_id: job.id, invalidated_at: now })
    .execute();
  await db.insertInto('bans').values({ user_id: MEMBER.id, reason: 'Spam', banned_by: '9000', banned_at: now }).execute();
}

beforeAll(async () => {
  api = await startTestApi();
  await seedTerm(api, { name: 'Term T', startDate: '2020-01-01', endDate: '2035-12-31' });
});
afterAll(async () => api.close());

describe('every table that holds a member', () => {
  it('is declared, and after the deletion only the kept ones still name them', async () => {
    const columns = await liveColumns();
    const qualified = new Set(columns.map((c) => `${c.table}.${c.column}`));
    // The declaration names no column that is not there (a renamed one would leave it checking nothing).
    const declaredHere = Object.entries(USER_DATA_COLUMNS).filter(([, declared]) => (declared.onlyOn ?? api.context.dialect) === api.context.dialect);
    expect(declaredHere.map(([name]) => name).filter((name) => !qualified.has(name))).toEqual([]);

    const named = columns.filter((c) => NAMED_LIKE_A_PERSON.test(c.column) || (c.table === 'users' && c.column === 'id')).map((c) => `${c.table}.${c.column}`);
    expect(named.length).toBeGreaterThan(20);

    await memberUsesEverything();
    const holding = await columnsHoldingMember(columns);
    // Every column found either way is declared with what deletion does to it.
    expect([...new Set([...named, ...holding])].filter((name) => !(name in USER_DATA_COLUMNS)).sort()).toEqual([]);
    // And the member really is in every column deletion must clear, so its check below means something.
    const mustClear = named.filter(mustNotHoldMember);
    expect(mustClear.filter((name) => !holding.includes(name))).toEqual([]);

    const admin = await api.signInAs('admin');
    const deleted = await api.request({ method: 'POST', url: `/api/users/${MEMBER.id}/deletion`, payload: { confirmation: ACCOUNT_DELETION_CONFIRMATION }, cookie: admin });
    expect(deleted.statusCode).toBe(200);

    const left = await columnsHoldingMember(columns);
    expect(left.filter(mustNotHoldMember)).toEqual([]);
    // What is kept is only what the declaration keeps, and some of it is there (the check above was not vacuous).
    expect(left.every((name) => USER_DATA_COLUMNS[name]?.handling === 'kept')).toBe(true);
    expect(left).toEqual(expect.arrayContaining(['bans.user_id', 'audit_log.actor_id', 'invalidation_jobs.criteria']));
    // The member's device took its queued messages with it.
    expect(await api.context.db.selectFrom('push_deliveries').selectAll().execute()).toEqual([]);
  });
});
