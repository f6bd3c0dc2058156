/**
 * Many users signing and unsigning one petition at once: whatever the interleaving, the stored
 * count must equal the signature rows, nobody is counted twice, and nothing fails with a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { insertPetition } from './public-test-data.ts';

let api: TestApi;
let cookies: string[];

const USERS = 600;

beforeAll(async () => {
  // 600 users' calls from this one address, up to 400 connections at once: more than one client's
  // share of connections (docs/limits.md#connections), so the share is raised for this crowd.
  api = await startTestApi({ limits: { connectionsPerClient: 1_000 } });
  cookies = [];
  for (let i = 0; i < USERS; i += 1) {
    cookies.push(
      await api.signIn({
        id: String(700_000 + i),
        username: `crowd${i}`,
        displayName: `Crowd Member ${i}`,
        avatarUrl: null,
        citizenRank: 1,
        governmentRank: 0,
      }),
    );
  }
});

afterAll(async () => {
  await api.close();
});

/** Deterministic shuffle, so a failure can be replayed. */
function shuffle<T>(items: T[], seed = 42): T[] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

async function storedFacts(petitionId: number) {
  const db = api.context.db;
  const petition = await db.selectFrom('petitions').select(['signature_count', 'status']).where('id', '=', petitionId).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('signatures').select('user_id').where('petition_id', '=', petitionId).execute();
  return { count: petition.signature_count, status: petition.status, userIds: rows.map((r) => r.user_id) };
}

interface Call {
  user: number;
  action: 'sign' | 'unsign';
}

/**
 * 5n calls: users 0..2n-1 sign, users 0..n-1 sign a second time, and users 2n..3n-1 sign and
 * unsign at the same moment (the unsign may arrive first and be refused). n = 200 gives 1,000 calls.
 */
function crowdCalls(n: number): Call[] {
  const calls: Call[] = [];
  for (let user = 0; user < 2 * n; user += 1) calls.push({ user, action: 'sign' });
  for (let user = 0; user < n; user += 1) calls.push({ user, action: 'sign' });
  for (let user = 2 * n; user < 3 * n; user += 1) calls.push({ user, action: 'sign' }, { user, action: 'unsign' });
  return shuffle(calls);
}

function checkOutcome(n: number, calls: Call[], statuses: number[], facts: Awaited<ReturnType<typeof storedFacts>>) {
  expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
  // Nobody twice, and the count is exactly the rows.
  expect(new Set(facts.userIds).size).toBe(facts.userIds.length);
  expect(facts.count).toBe(facts.userIds.length);
  // Users 0..2n-1 end signed exactly once; of each double signature one call was refused.
  const signedIds = new Set(facts.userIds);
  for (let user = 0; user < 2 * n; user += 1) expect(signedIds.has(String(700_000 + user))).toBe(true);
  const refusedSigns = calls.filter((c, i) => c.action === 'sign' && c.user < 2 * n && statuses[i] === 409).length;
  expect(refusedSigns).toBe(n);
  // Every successful sign minus every successful unsign is what remains.
  const ok = (action: Call['action']) => calls.filter((c, i) => c.action === action && statuses[i] === 200).length;
  expect(ok('sign') - ok('unsign')).toBe(facts.userIds.length);
  // Well past 20 signatures either way.
  expect(facts.status).toBe('awaiting_debate_in_parliament');
}

describe('concurrent signing', () => {
  it('keeps the count equal to the signature rows under 1,000 interleaved calls (app.inject)', async () => {
    const petition = await insertPetition(api.context.db);
    const calls = crowdCalls(200);
    expect(calls).toHaveLength(1000);
    const responses = await Promise.all(
      calls.map((call) =>
        api.request({ method: 'POST', url: `/api/petitions/${petition.id}/${call.action}`, cookie: cookies[call.user]!, payload: {} }),
      ),
    );
    checkOutcome(
      200,
      calls,
      responses.map((r) => r.statusCode),
      await storedFacts(petition.id),
    );
  });

  it('holds over real HTTP connections too (400 calls)', async () => {
    const petition = await insertPetition(api.context.db);
    const baseUrl = await api.listen();
    const calls = crowdCalls(80);
    const statuses = await Promise.all(
      calls.map(async (call) => {
        const response = await fetch(`${baseUrl}/api/petitions/${petition.id}/${call.action}`, {
          method: 'POST',
          headers: { cookie: cookies[call.user]!, [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
          body: '{}',
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    checkOutcome(80, calls, statuses, await storedFacts(petition.id));
  });
});
