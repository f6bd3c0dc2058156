/**
 * Two server nodes on one PostgreSQL database (always PostgreSQL, whatever TEST_DATABASE says):
 * each node is a whole application with its own connection pool, and clients are spread over both.
 * Signing must stay exact across nodes: one row per (petition, user), stored counts equal to the
 * rows, thresholds crossed exactly once, every reply a distinct exact count. Each node's database
 * sessions carry the pool's own settings.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBATE_THRESHOLD, RESPONSE_THRESHOLD } from '../../src-shared/domain/constants.ts';
import type { SignResult } from '../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { insertPetition } from './public-test-data.ts';
import { findPetitionPage } from '../../src-server/petitions/petition-reads.ts';

const USERS = 300;
let database: TestDatabase;
let nodes: TestApi[];
/** cookies[user]: the same session works on every node (sessions live in the database). */
let cookies: string[];

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  nodes = [];
  // One after the other: the first migrates, the second finds the schema current.
  // 1,800 calls at once on a pool of 10: this is about exact counts, not overload, so requests may wait for a
  // connection as long as they need (by default a wait past 2 s answers 503: docs/limits.md#database-connections).
  for (let i = 0; i < 2; i += 1) nodes.push(await startTestApi({ databaseUrl: database.url, databasePool: { poolSize: undefined, statementTimeoutMs: undefined, poolWaitMs: 60_000 } }));
  cookies = [];
  for (let i = 0; i < USERS; i += 1) {
    const node = nodes[i % nodes.length]!;
    cookies.push(
      await node.signIn({ id: String(800_000 + i), username: `node${i}`, displayName: `Node User ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 }),
    );
  }
});

afterAll(async () => {
  for (const node of nodes ?? []) await node.close();
  await database?.drop();
});

async function call(user: number, action: 'sign' | 'unsign', petitionId: number, node = user % nodes.length) {
  const response = await nodes[node]!.request({ method: 'POST', url: `/api/petitions/${petitionId}/${action}`, cookie: cookies[user] });
  return { status: response.statusCode, body: response.statusCode === 200 ? response.json<SignResult>() : null };
}

async function facts(petitionId: number) {
  const db = nodes[0]!.context.db;
  const petition = (await findPetitionPage(db, petitionId))!;
  const rows = await db.selectFrom('signatures').select('user_id').where('petition_id', '=', petitionId).execute();
  return { petition, userIds: rows.map((row) => row.user_id) };
}

describe('signing on two nodes', () => {
  it('keeps every count equal to its rows under concurrent sign and unsign calls spread over both nodes', async () => {
    const petitions = [await insertPetition(nodes[0]!.context.db), await insertPetition(nodes[0]!.context.db), await insertPetition(nodes[0]!.context.db)];
    const calls: Promise<{ status: number }>[] = [];
    for (let user = 0; user < USERS; user += 1) {
      for (const [index, petition] of petitions.entries()) {
        // Every user signs each petition on its own node, signs again on the other node, and every
        // third user also unsigns at the same moment: duplicates race across nodes.
        calls.push(call(user, 'sign', petition.id));
        calls.push(call(user, 'sign', petition.id, (user + 1) % nodes.length));
        if ((user + index) % 3 === 0) calls.push(call(user, 'unsign', petition.id, (user + 1) % nodes.length));
      }
    }
    const statuses = (await Promise.all(calls)).map((outcome) => outcome.status);
    expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    for (const petition of petitions) {
      const { petition: row, userIds } = await facts(petition.id);
      expect(new Set(userIds).size).toBe(userIds.length);
      expect(row.signature_count).toBe(userIds.length);
      expect(row.status).toBe(automaticStatus({ status: 'open', signatures: userIds.length, governmentResponse: null, debateInfo: null }));
    }
    // Each user's double signature: exactly one of the two sign calls succeeded.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(USERS * petitions.length);
  });

  it('answers distinct exact counts and crosses each threshold exactly once, whichever node signs', async () => {
    const petition = await insertPetition(nodes[0]!.context.db);
    const signers = Array.from({ length: DEBATE_THRESHOLD + 5 }, (_, index) => index);
    const replies = await Promise.all(signers.map((user) => call(user, 'sign', petition.id)));
    expect(replies.map((reply) => reply.status)).toEqual(signers.map(() => 200));
    // Every signature got its own place in one order across both nodes.
    expect(replies.map((reply) => reply.body!.signatures).sort((a, b) => a - b)).toEqual(signers.map((index) => index + 1));
    const { petition: row } = await facts(petition.id);
    expect(row.signature_count).toBe(signers.length);
    expect(row.status).toBe('awaiting_debate_in_parliament');
    // Two threshold crossings (RESPONSE_THRESHOLD, DEBATE_THRESHOLD), whether in one batch or two: at most two version bumps.
    expect(row.version).toBeGreaterThan(1);
    expect(row.version).toBeLessThanOrEqual(3);

    // Back below both thresholds, one unsign at a time on alternating nodes: the status follows the count.
    for (let user = signers.length - 1; user >= RESPONSE_THRESHOLD - 1; user -= 1) {
      const reply = await call(user, 'unsign', petition.id, user % nodes.length);
      expect(reply.body!.signatures).toBe(user);
      const status = (await facts(petition.id)).petition.status;
      expect(status).toBe(user >= DEBATE_THRESHOLD ? 'awaiting_debate_in_parliament' : user >= RESPONSE_THRESHOLD ? 'awaiting_government_response' : 'open');
    }
  });

  it('refuses signing a closed petition and an unknown one on every node', async () => {
    const closed = await insertPetition(nodes[0]!.context.db, { status: 'closed' });
    for (let node = 0; node < nodes.length; node += 1) {
      expect((await call(0, 'sign', closed.id, node)).status).toBe(409);
      expect((await call(0, 'sign', 987_654, node)).status).toBe(404);
    }
    expect((await facts(closed.id)).userIds).toEqual([]);
  });

  it('keeps the first signers of a petition in order when they sign on both nodes at once', async () => {
    const petition = await insertPetition(nodes[0]!.context.db);
    await Promise.all(Array.from({ length: 14 }, (_, user) => call(user, 'sign', petition.id)));
    const { petition: row } = await facts(petition.id);
    const listed = JSON.parse(row.first_signers) as { id: string; signed_at: string }[];
    const expected = await nodes[1]!.context.db
      .selectFrom('signatures')
      .select(['user_id', 'signed_at'])
      .where('petition_id', '=', petition.id)
      .orderBy('signed_at')
      .orderBy('user_id')
      .limit(10)
      .execute();
    expect(listed.map((signer) => signer.id)).toEqual(expected.map((signature) => signature.user_id));
  });
});

describe("the nodes' database sessions", () => {
  it('start no parallel workers, by their own startup options, not by a setting of the database', async () => {
    const setting = sql<{ max_parallel_workers_per_gather: string }>`SHOW max_parallel_workers_per_gather`;
    for (const node of nodes) expect((await setting.execute(node.context.db)).rows[0]!.max_parallel_workers_per_gather).toBe('0');
    // Another client of the same database keeps PostgreSQL's default (docs/operations.md#no-parallel-query).
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      const { rows } = await other.query<{ max_parallel_workers_per_gather: string }>('SHOW max_parallel_workers_per_gather');
      expect(Number(rows[0]!.max_parallel_workers_per_gather)).toBeGreaterThan(0);
    } finally {
      await other.end();
    }
  });
});
