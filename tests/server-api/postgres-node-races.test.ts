/**
 * Two application nodes on one PostgreSQL database (always PostgreSQL, whatever TEST_DATABASE
 * says), each with its own connection pool and its own in-process state, receiving the same
 * request at the same moment: what one node keeps in memory cannot serialise them, only the
 * database can (context.locks).
 * - the same Idempotency-Key for the same staff write on both nodes: one action (one audit row),
 *   the other node replays it or answers 409 idempotency-key-in-progress, never a second action or a 500;
 * - the same bulk status call (item keys) on both nodes: each item applied once, replayed or 409 on the other;
 * - a citizen creating petitions on both nodes at once: never more than three in the UK day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_IN_PROGRESS_TYPE } from '../../src-shared/console/outbox.ts';
import { DAILY_PETITION_LIMIT } from '../../src-shared/domain/constants.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { insertCurrentTerm, insertPetition, VALID_PETITION } from './public-test-data.ts';

let database: TestDatabase;
let nodes: TestApi[];
let adminCookie: string;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  nodes = [];
  // One after the other: the first migrates, the second finds the schema current.
  for (let i = 0; i < 2; i += 1) nodes.push(await startTestApi({ databaseUrl: database.url }));
  adminCookie = await nodes[0]!.signInAs('admin');
  await insertCurrentTerm(nodes[0]!.context.db);
});

afterAll(async () => {
  for (const node of nodes ?? []) await node.close();
  await database?.drop();
});

describe('the same request on two nodes at once', () => {
  it('applies a staff write once when both nodes receive its Idempotency-Key together', async () => {
    const ROUNDS = 40;
    const outcomes = new Map<number, number>();
    for (let round = 0; round < ROUNDS; round += 1) {
      const name = `Race term ${round}`;
      const year = 2100 + round;
      const send = (node: TestApi) =>
        node.request({
          method: 'POST',
          url: '/api/parliamentary-terms',
          payload: { name, startDate: `${year}-01-01`, endDate: `${year}-12-31` },
          headers: { 'idempotency-key': `race-${round}` },
          cookie: adminCookie,
        });
      const replies = await Promise.all(nodes.map(send));
      const statuses = replies.map((reply) => reply.statusCode);
      for (const status of statuses) outcomes.set(status, (outcomes.get(status) ?? 0) + 1);
      // One created it; the other replayed the stored 201 or was told the key is in progress.
      expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
      for (const reply of replies) {
        if (reply.statusCode === 201) continue;
        expect(reply.statusCode).toBe(409);
        expect(reply.json<{ type: string }>().type).toBe(IDEMPOTENCY_IN_PROGRESS_TYPE);
      }
      const replayed = replies.filter((reply) => reply.headers['idempotent-replayed'] === 'true');
      if (statuses.every((status) => status === 201)) {
        expect(replayed).toHaveLength(1);
        expect(replayed[0]!.json()).toEqual(replies.find((reply) => reply !== replayed[0])!.json());
      }
      const db = nodes[0]!.context.db;
      expect(await db.selectFrom('terms').select('id').where('name', '=', name).execute()).toHaveLength(1);
      const audits = await db.selectFrom('audit_log').select('id').where('action', '=', 'term.create').where('after', 'like', `%${name}%`).execute();
      expect(audits).toHaveLength(1);
    }
    // Nothing else came back (no 500, no second creation refused some other way).
    expect([...outcomes.keys()].every((status) => status === 201 || status === 409)).toBe(true);
  }, 60_000);

  it('applies the items of a bulk status call once when both nodes receive it together', async () => {
    const ROUNDS = 20;
    const db = nodes[0]!.context.db;
    for (let round = 0; round < ROUNDS; round += 1) {
      const petitions = [await insertPetition(db), await insertPetition(db), await insertPetition(db)];
      // The same items, in another order on the second node: keys are locked in one order whatever the body's.
      const items = petitions.map((petition, index) => ({ petitionId: petition.id, status: 'closed', idempotencyKey: `bulk-${round}-${index}` }));
      const replies = await Promise.all(
        [items, [...items].reverse()].map((body, node) =>
          nodes[node]!.request({ method: 'POST', url: '/api/petitions/bulk-status', payload: { items: body }, cookie: adminCookie }),
        ),
      );
      for (const reply of replies) {
        if (reply.statusCode === 409) {
          expect(reply.json<{ type: string }>().type).toBe(IDEMPOTENCY_IN_PROGRESS_TYPE);
          continue;
        }
        expect(reply.statusCode).toBe(200);
        // Applied here, or replayed from the other node: never refused as a conflict with itself.
        for (const result of reply.json<{ results: { result: string }[] }>().results) expect(result.result).toBe('applied');
      }
      for (const petition of petitions) {
        const audits = await db.selectFrom('audit_log').select('id').where('action', '=', 'petition.set_status').where('target_id', '=', String(petition.id)).execute();
        expect(audits).toHaveLength(1);
      }
    }
  }, 60_000);

  it('never lets a citizen create more than three petitions in a day by firing at both nodes', async () => {
    const ROUNDS = 8;
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = String(700_000 + round);
      const cookie = await nodes[0]!.signIn({ id, username: `racer${round}`, displayName: `Racer ${round}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, k) =>
          nodes[k % nodes.length]!.request({
            method: 'POST',
            url: '/api/petitions',
            payload: { ...VALID_PETITION, title: `Race petition ${round}-${k}` },
            cookie,
          }),
        ),
      );
      const statuses = replies.map((reply) => reply.statusCode).sort();
      expect(statuses).toEqual([...Array(DAILY_PETITION_LIMIT).fill(201), ...Array(8 - DAILY_PETITION_LIMIT).fill(429)]);
      const stored = await nodes[1]!.context.db.selectFrom('petitions').select('id').where('creator_id', '=', id).execute();
      expect(stored).toHaveLength(DAILY_PETITION_LIMIT);
    }
  }, 60_000);
});
