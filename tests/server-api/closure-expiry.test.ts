import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { buildApp } from '../../src-server/app.ts';
import { closeExpiredPetitions } from '../../src-server/closure/closure-service.ts';
import { createAppContext } from '../../src-server/context.ts';
import type { PetitionRow } from '../../src-server/db/schema.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { addSignatures, daysFrom, insertPetition, insertTerm } from './public-test-data.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');

let api: TestApi;
let currentTerm: number;

beforeAll(async () => {
  api = await startTestApi();
  currentTerm = await insertTerm(api.context.db, { name: 'Term 87', startDate: '2026-01-01', endDate: '2026-12-31' });
});

afterAll(async () => {
  await api.close();
});

beforeEach(async () => {
  await api.context.db.deleteFrom('petitions').execute();
  await api.context.db.deleteFrom('terms').where('id', '<>', currentTerm).execute();
  api.setNow(NOW);
});

async function stored(id: number): Promise<PetitionRow> {
  return api.context.db.selectFrom('petitions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function checkExpired() {
  return api.request({ method: 'POST', url: '/api/petitions/check-expired' });
}

async function petitionAged(days: number, signatures: number, values: Parameters<typeof insertPetition>[1] = {}): Promise<PetitionRow> {
  const row = await insertPetition(api.context.db, { created_at: daysFrom(NOW, -days).toISOString(), term_id: currentTerm, ...values });
  await addSignatures(api.context.db, row.id, signatures);
  return stored(row.id);
}

describe('three weeks with fewer than 10 signatures', () => {
  it('closes an open petition older than 21 days with fewer than 10 signatures, once', async () => {
    const petition = await petitionAged(22, 9);
    const first = await checkExpired();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ closed: 1 });
    expect(await stored(petition.id)).toMatchObject({
      status: 'closed',
      closure_reason: 'three_weeks_insufficient_signatures',
      closed_at: NOW.toISOString(),
      version: petition.version + 1,
      signature_count: 9,
    });
    expect((await checkExpired()).json()).toEqual({ closed: 0 });
    expect((await stored(petition.id)).version).toBe(petition.version + 1);
  });

  it('waits until the three weeks are over (time travel)', async () => {
    const petition = await petitionAged(20, 5);
    expect((await checkExpired()).json()).toEqual({ closed: 0 });
    // Exactly 21 days old is not yet "older than 21 days".
    api.setNow(daysFrom(NOW, 1));
    expect((await checkExpired()).json()).toEqual({ closed: 0 });
    api.setNow(new Date(daysFrom(NOW, 1).getTime() + 60_000));
    expect((await checkExpired()).json()).toEqual({ closed: 1 });
    expect((await stored(petition.id)).status).toBe('closed');
  });

  it('leaves petitions with 10 or more signatures, and petitions staff have acted on', async () => {
    const popular = await petitionAged(40, 10, { status: 'awaiting_government_response' });
    const answered = await petitionAged(40, 3, { status: 'government_response', government_response: 'We will look at this.' });
    const scheduled = await petitionAged(40, 2, { status: 'awaiting_debate_in_parliament' });
    expect((await checkExpired()).json()).toEqual({ closed: 0 });
    for (const petition of [popular, answered, scheduled]) expect(await stored(petition.id)).toEqual(petition);
  });

  it('stops signing on a closed petition', async () => {
    const petition = await petitionAged(30, 1);
    await checkExpired();
    const response = await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie: await api.signInAs('citizen') });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ detail: ERRORS.petitionClosed });
  });
});

describe('the term has ended', () => {
  it('closes every petition of a term whose dates are over, whatever its signatures or status', async () => {
    const ended = await insertTerm(api.context.db, { name: 'Term 86', startDate: '2025-01-01', endDate: '2026-06-14' });
    const big = await petitionAged(100, 25, { term_id: ended, status: 'awaiting_debate_in_parliament' });
    const small = await petitionAged(2, 1, { term_id: ended });
    const alreadyClosed = await petitionAged(200, 2, { term_id: ended, status: 'closed', closure_reason: 'three_weeks_insufficient_signatures', closed_at: '2025-03-01T00:00:00.000Z' });
    const current = await petitionAged(2, 1);
    const unassigned = await petitionAged(2, 1, { term_id: null });

    expect((await checkExpired()).json()).toEqual({ closed: 2 });
    expect(await stored(big.id)).toMatchObject({ status: 'closed', closure_reason: 'term_ended', closed_at: NOW.toISOString(), version: big.version + 1 });
    expect(await stored(small.id)).toMatchObject({ status: 'closed', closure_reason: 'term_ended' });
    expect(await stored(alreadyClosed.id)).toEqual(alreadyClosed);
    expect((await stored(current.id)).status).toBe('open');
    expect((await stored(unassigned.id)).status).toBe('open');
  });

  it('counts the last day of a term as inside it (UK calendar)', async () => {
    const ending = await insertTerm(api.context.db, { name: 'Ending', startDate: '2026-01-01', endDate: '2026-06-15' });
    const petition = await petitionAged(1, 30, { term_id: ending, status: 'awaiting_debate_in_parliament' });
    // 23:30 UTC on 15 June is already 16 June in London (summer time).
    api.setNow(new Date('2026-06-15T22:59:00.000Z'));
    expect((await checkExpired()).json()).toEqual({ closed: 0 });
    api.setNow(new Date('2026-06-15T23:30:00.000Z'));
    expect((await checkExpired()).json()).toEqual({ closed: 1 });
    expect((await stored(petition.id)).closure_reason).toBe('term_ended');
  });

  it('lets a stored term status win over the dates', async () => {
    const markedCompleted = await insertTerm(api.context.db, { name: 'Marked completed', startDate: '2026-01-01', endDate: '2026-12-31', status: 'completed' });
    const keptCurrent = await insertTerm(api.context.db, { name: 'Kept current', startDate: '2025-01-01', endDate: '2025-12-31', status: 'current' });
    const a = await petitionAged(1, 12, { term_id: markedCompleted, status: 'awaiting_government_response' });
    const b = await petitionAged(1, 12, { term_id: keptCurrent, status: 'awaiting_government_response' });
    expect((await checkExpired()).json()).toEqual({ closed: 1 });
    expect((await stored(a.id)).closure_reason).toBe('term_ended');
    expect((await stored(b.id)).status).toBe('awaiting_government_response');
  });

  it('gives the three-week reason when both rules apply', async () => {
    const ended = await insertTerm(api.context.db, { name: 'Term 86', startDate: '2025-01-01', endDate: '2026-06-01' });
    const petition = await petitionAged(30, 2, { term_id: ended });
    expect((await closeExpiredPetitions(api.context.db, NOW))).toEqual({ insufficientSignatures: 1, termEnded: 0 });
    expect((await stored(petition.id)).closure_reason).toBe('three_weeks_insufficient_signatures');
  });
});

describe('POST /api/petitions/check-expired', () => {
  it('is public: no session needed', async () => {
    await petitionAged(25, 0);
    const response = await api.request({ method: 'POST', url: '/api/petitions/check-expired' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ closed: 1 });
  });

  it('shares one run between simultaneous calls', async () => {
    for (let i = 0; i < 5; i += 1) await petitionAged(25, 1);
    const results = await Promise.all(Array.from({ length: 4 }, () => checkExpired()));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const closed = await api.context.db.selectFrom('petitions').select('id').where('status', '=', 'closed').execute();
    expect(closed).toHaveLength(5);
  });
});

describe('the closure scheduler', () => {
  it('closes expired petitions on its own when background jobs run, and stops with the app', async () => {
    let now = NOW;
    const context = createAppContext({
      config: { ...api.context.config, closureIntervalMs: 20 },
      db: api.context.db,
      dialect: api.context.dialect,
      runBackgroundJobs: true,
      now: () => now,
    });
    const app = await buildApp(context, { logger: false });
    const petition = await petitionAged(20, 1);
    await app.ready();
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect((await stored(petition.id)).status).toBe('open');
      now = daysFrom(NOW, 2);
      await expect.poll(async () => (await stored(petition.id)).status, { timeout: 2000, interval: 20 }).toBe('closed');
    } finally {
      await app.close();
    }
    // After close the timer is gone: a petition that becomes due stays open.
    const later = await petitionAged(30, 1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await stored(later.id)).status).toBe('open');
  });

  it('does not run in request-level tests (runBackgroundJobs off)', async () => {
    const petition = await petitionAged(30, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await stored(petition.id)).status).toBe('open');
  });
});
