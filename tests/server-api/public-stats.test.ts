import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeStats } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { insertPetition, insertTerm } from './public-test-data.ts';

let api: TestApi;

const debate = (status: string) =>
  JSON.stringify({ status, date: '2026-05-01', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null });

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

async function stats(): Promise<HomeStats> {
  const response = await api.request({ url: '/api/stats' });
  expect(response.statusCode).toBe(200);
  return response.json<HomeStats>();
}

describe('GET /api/stats', () => {
  it('answers zeros and nulls when Parliament is not in session', async () => {
    await insertPetition(api.context.db, { government_response: 'Yes.' });
    expect(await stats()).toEqual({ termId: null, termName: null, created: 0, responded: 0, debated: 0 });
  });

  it('counts petitions created since the current term began, with responses and debates', async () => {
    const db = api.context.db;
    await db.deleteFrom('petitions').execute();
    const termId = await insertTerm(db, { name: 'Term 87', startDate: '2026-04-01', endDate: '2026-12-31' });
    api.setNow(new Date('2026-06-01T12:00:00Z'));
    // The term starts at UK midnight, 23:00 UTC on 31 March (summer time). Before it: not counted.
    await insertPetition(db, { created_at: '2026-03-31T22:59:59.000Z', government_response: 'Old.', status: 'debated_in_parliament' });
    await insertPetition(db, { created_at: '2026-03-31T23:30:00.000Z' });
    await insertPetition(db, { created_at: '2026-04-01T10:00:00.000Z', government_response: 'We agree.' });
    await insertPetition(db, { created_at: '2026-04-02T10:00:00.000Z', status: 'government_response' });
    await insertPetition(db, { created_at: '2026-04-03T10:00:00.000Z', government_response: '' });
    await insertPetition(db, { created_at: '2026-04-04T10:00:00.000Z', status: 'debated_in_parliament' });
    await insertPetition(db, { created_at: '2026-04-05T10:00:00.000Z', debate_info: debate('debated'), government_response: 'Debated and answered.' });
    await insertPetition(db, { created_at: '2026-04-06T10:00:00.000Z', debate_info: debate('scheduled') });
    await insertPetition(db, { created_at: '2026-04-07T10:00:00.000Z', debate_info: debate('not_debated') });
    expect(await stats()).toEqual({ termId, termName: 'Term 87', created: 8, responded: 3, debated: 2 });
    api.setNow(null);
  });
});
