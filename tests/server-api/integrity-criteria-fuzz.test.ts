/**
 * Fuzzing of the invalidation criteria (docs/integrity.md#invalidation), with a seeded generator so a
 * failure replays: malformed criteria are refused with 400 Problem Details (never a 5xx, never a
 * job), and for well-formed ones the preview's count is the count a plain reading of the rule gives
 * over the same rows, the job then moves exactly those signatures, and the restore puts them back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvalidationJob, InvalidationPreview } from '../../src-shared/domain/integrity-schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { insertPetition } from './public-test-data.ts';

const NOW = new Date('2026-11-28T12:00:00Z');
const DAY = 86_400_000;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}

let api: TestApi;
let admin: string;
let petitionIds: number[];
const users: { id: string; createdAt: string | null }[] = [];
const signatures: { petitionId: number; userId: string; signedAt: string }[] = [];

beforeAll(async () => {
  api = await startTestApi();
  api.setNow(NOW);
  admin = await api.signInAs('admin');
  const random = generator(2026);
  petitionIds = [];
  for (let i = 0; i < 3; i += 1) petitionIds.push((await insertPetition(api.context.db, { created_at: new Date(NOW.getTime() - 20 * DAY).toISOString() })).id);
  for (let i = 0; i < 40; i += 1) {
    const id = String(70_000 + i);
    const createdAt = random.chance(0.15) ? null : new Date(NOW.getTime() - random.int(0, 90) * DAY - random.int(0, DAY)).toISOString();
    users.push({ id, createdAt });
    await api.context.users.upsert({ id, username: `fuzz${i}`, displayName: `Fuzz ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0, accountCreatedAt: createdAt });
  }
  for (const petitionId of petitionIds) {
    for (const user of users) {
      if (!random.chance(0.6)) continue;
      signatures.push({ petitionId, userId: user.id, signedAt: new Date(NOW.getTime() - random.int(0, 10 * DAY)).toISOString() });
    }
    // Signatures of people never seen signing in: their account age is unknown.
    signatures.push({ petitionId, userId: `9${petitionId}0001`, signedAt: new Date(NOW.getTime() - random.int(0, 10 * DAY)).toISOString() });
  }
  await api.context.db
    .insertInto('signatures')
    .values(signatures.map((s) => ({ petition_id: s.petitionId, user_id: s.userId, username: `u${s.userId}`, display_name: `U ${s.userId}`, signed_at: s.signedAt })))
    .execute();
  for (const petitionId of petitionIds) {
    await api.context.db
      .updateTable('petitions')
      .set({ signature_count: signatures.filter((s) => s.petitionId === petitionId).length })
      .where('id', '=', petitionId)
      .execute();
  }
});

afterAll(() => api.close());

const post = (url: string, payload: unknown) => api.request({ method: 'POST', url, cookie: admin, payload: payload as object });

/** The preview is a read: the criteria go in its query string, as the typed client writes them. */
function preview(criteria: Record<string, unknown>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(criteria)) {
    if (value === undefined || value === null) continue;
    query.set(key === 'petitionId' ? 'petition' : key, Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return api.request({ url: `/api/integrity/invalidations/preview?${query}`, cookie: admin });
}

describe('malformed criteria', () => {
  const random = generator(7);
  const junk = (): unknown =>
    random.pick<() => unknown>([
      () => null,
      () => true,
      () => -1,
      () => 0,
      () => 1.5,
      () => 1e300,
      () => '',
      () => '12',
      () => 'yesterday',
      () => '2026-13-45T99:00:00Z',
      () => '2026-11-01',
      () => '\u202e2026-11-01T00:00:00Z',
      () => 'x'.repeat(5000),
      () => [],
      () => ['1', 2],
      () => Array.from({ length: 600 }, (_, i) => String(i + 1)),
      () => ['007'],
      () => ({}),
      () => ({ nested: { deep: true } }),
    ])();
  const fields = ['petitionId', 'signedFrom', 'signedTo', 'accountYoungerThanDays', 'userIds', 'extra'] as const;

  it('answers 400 (415 for a body that is not JSON) Problem Details for every malformed body and never queues a job', async () => {
    for (let round = 0; round < 150; round += 1) {
      const criteria: Record<string, unknown> = { petitionId: petitionIds[0] };
      for (let n = random.int(1, 3); n > 0; n -= 1) criteria[random.pick(fields)] = junk();
      const shape = random.int(0, 3);
      const body = shape === 0 ? { criteria } : shape === 1 ? { criteria, reason: random.pick(['', ' ', '\u0007bell', 7, null]) } : shape === 2 ? junk() : { criteria: junk(), reason: 'x' };
      const asQuery = typeof body === 'object' && body !== null && 'criteria' in body && typeof body.criteria === 'object' && body.criteria !== null ? (body.criteria as Record<string, unknown>) : { petitionId: junk() };
      for (const url of ['/api/integrity/invalidations/preview', '/api/integrity/invalidations']) {
        const reply = url.endsWith('preview') ? await preview(asQuery) : await post(url, body);
        // 415: a bare string or number is not sent as JSON at all; also a Problem Details refusal.
        if (reply.statusCode !== 400 && reply.statusCode !== 415) {
          // A random mutation can land on a valid value (an extra-free body with a real id); it must then be a real answer.
          expect([200, 202], `${url} ${JSON.stringify(body).slice(0, 300)} → ${reply.statusCode} ${reply.body.slice(0, 300)}`).toContain(reply.statusCode);
          if (reply.statusCode === 202) await post(`/api/integrity/invalidations/${reply.json().id}/cancel`, {});
          continue;
        }
        expect(reply.headers['content-type']).toContain('application/problem+json');
        expect(reply.json().detail).toEqual(expect.any(String));
      }
    }
  });

  it('refuses a window that ends before it starts, and criteria that would touch every signature', async () => {
    const backwards = await preview({ signedFrom: '2026-11-20T00:00:00Z', signedTo: '2026-11-10T00:00:00Z' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().detail).toBe('The end of the time window must be after its start');
    const everything = await post('/api/integrity/invalidations', { criteria: { petitionId: null }, reason: 'All of it' });
    expect(everything.statusCode).toBe(400);
    expect(everything.json().detail).toContain('invalidating every signature of every petition is not offered');
  });
});

describe('well-formed criteria', () => {
  it('counts what the rule says, moves exactly that, and restores it', async () => {
    const random = generator(99);
    const original = await api.context.db.selectFrom('signatures').selectAll().orderBy('petition_id').orderBy('user_id').execute();
    for (let round = 0; round < 12; round += 1) {
      const petitionId = random.chance(0.6) ? random.pick(petitionIds) : null;
      const from = random.chance(0.5) ? NOW.getTime() - random.int(1, 10) * DAY : null;
      const to = random.chance(0.4) ? (from ?? NOW.getTime() - 10 * DAY) + random.int(1, 8) * DAY : null;
      const age = random.chance(0.6) ? random.int(1, 60) : null;
      const ids = random.chance(0.3) ? users.filter(() => random.chance(0.3)).map((u) => u.id) : null;
      if (petitionId === null && from === null && to === null && age === null && !ids?.length) continue;
      const criteria = {
        petitionId,
        signedFrom: from === null ? null : new Date(from).toISOString().replace('Z', '+00:00'),
        signedTo: to === null ? null : new Date(to).toISOString(),
        accountYoungerThanDays: age,
        userIds: ids,
      };
      const ageOf = new Map(users.map((u) => [u.id, u.createdAt]));
      const expected = signatures.filter(
        (s) =>
          (petitionId === null || s.petitionId === petitionId) &&
          (from === null || Date.parse(s.signedAt) >= from) &&
          (to === null || Date.parse(s.signedAt) < to) &&
          (ids === null || !ids.length || ids.includes(s.userId)) &&
          (age === null || (ageOf.get(s.userId) ?? null) !== null && Date.parse(ageOf.get(s.userId)!) > NOW.getTime() - age * DAY),
      );
      const shown = await preview(criteria);
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.json<InvalidationPreview>().matching, JSON.stringify(criteria)).toBe(expected.length);

      const requested = await post('/api/integrity/invalidations', { criteria, reason: `Fuzz round ${round}` });
      expect(requested.statusCode, requested.body).toBe(202);
      await api.context.integrity.runner.runUntilIdle();
      const done = (await api.request({ url: `/api/integrity/invalidations/${requested.json().id}`, cookie: admin })).json<InvalidationJob>();
      expect(done).toMatchObject({ state: 'finished', total: expected.length, processed: expected.length });
      const kept = await api.context.db.selectFrom('invalidated_signatures').select(['petition_id', 'user_id']).execute();
      expect(kept.map((k) => `${k.petition_id}:${k.user_id}`).sort()).toEqual(expected.map((s) => `${s.petitionId}:${s.userId}`).sort());
      for (const id of petitionIds) {
        const stored = await api.context.db.selectFrom('petitions').select('signature_count').where('id', '=', id).executeTakeFirstOrThrow();
        const rows = await api.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', id).execute();
        expect(stored.signature_count).toBe(rows.length);
      }

      const restore = await post(`/api/integrity/invalidations/${done.id}/restore`, { reason: 'Fuzz restore' });
      expect(restore.statusCode, restore.body).toBe(202);
      await api.context.integrity.runner.runUntilIdle();
      expect(await api.context.db.selectFrom('signatures').selectAll().orderBy('petition_id').orderBy('user_id').execute()).toEqual(original);
    }
  });
});
