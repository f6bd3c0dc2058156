/**
 * GET /api/statistics (docs/console-team.md#statistics) against a term seeded with known figures:
 * petitions and signatures per UK day, answer times from the threshold (median, 90th percentile),
 * the backlog and overdue petitions at the end of each day, which term it reports, and who may ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { Statistics } from '../../src-shared/domain/team-schemas.ts';
import { queueTargets } from '../../src-shared/rules/queue-ageing.ts';
import { STATISTICS_PATH } from '../../src-server/statistics/statistics-routes.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { body } from './staff-fixtures.ts';

let api: TestApi;
let admin = '';
let termId = 0;
let olderTermId = 0;

/** March 2026, before the clocks change: UK days are UTC days. */
const t = (text: string) => new Date(`2026-03-${text}Z`);
const meta = (addedAt: string, editedAt: string | null = null) =>
  JSON.stringify({ addedBy: 'Seed', addedByRole: 'Prime Minister', addedAt, editedBy: editedAt ? 'Seed' : null, editedByRole: editedAt ? 'Prime Minister' : null, editedAt });

beforeAll(async () => {
  // Targets short enough that the seeded waits become overdue: 3 days for a response, 1 for a debate.
  api = await startTestApi({ queueTargets: queueTargets(3, 1) });
  admin = await api.signInAs('admin');
  api.setNow(t('20T12:00:00.000'));
  olderTermId = (await seedTerm(api, { name: 'Winter 2025', startDate: '2025-12-01', endDate: '2025-12-31' })).id;
  termId = (await seedTerm(api, { name: 'Early March 2026', startDate: '2026-03-01', endDate: '2026-03-10' })).id;
  const inTerm = { termId, tags: ['Budget'] };
  const a = await seedPetition(api, { ...inTerm, createdAt: t('01T10:00:00.000'), signatures: 12, status: 'government_response', governmentResponse: 'Yes.', responseThresholdReachedAt: t('02T00:00:00.000') });
  const b = await seedPetition(api, { ...inTerm, createdAt: t('02T10:00:00.000'), signatures: 12, status: 'government_response', governmentResponse: 'Yes.', responseThresholdReachedAt: t('03T00:00:00.000') });
  await seedPetition(api, { ...inTerm, createdAt: t('03T10:00:00.000'), signatures: 11, status: 'awaiting_government_response', responseThresholdReachedAt: t('04T00:00:00.000') });
  const d = await seedPetition(api, {
    ...inTerm,
    createdAt: t('05T10:00:00.000'),
    signatures: 25,
    status: 'debated_in_parliament',
    governmentResponse: 'Yes.',
    debateInfo: { status: 'debated', date: '2026-03-07', location: 'Westminster Hall', hansardLink: 'https://hansard.parliament.uk/x', notDebatedReason: null },
    responseThresholdReachedAt: t('05T12:00:00.000'),
    debateThresholdReachedAt: t('05T18:00:00.000'),
  });
  await seedPetition(api, { ...inTerm, createdAt: t('09T10:00:00.000'), signatures: 3 });
  // Another term's and no term's petitions stay out.
  await seedPetition(api, { termId: null, createdAt: t('05T10:00:00.000'), signatures: 30, status: 'awaiting_debate_in_parliament', responseThresholdReachedAt: t('05T11:00:00.000') });
  const db = api.context.db;
  // When each answer was recorded: A after 2 days, B after 6, D's response after 1 day, its debate outcome after 2.25.
  await db.updateTable('petitions').set({ government_response_meta: meta('2026-03-04T00:00:00.000Z') }).where('id', '=', a.id).execute();
  await db.updateTable('petitions').set({ government_response_meta: meta('2026-03-09T00:00:00.000Z') }).where('id', '=', b.id).execute();
  await db
    .updateTable('petitions')
    .set({ government_response_meta: meta('2026-03-06T12:00:00.000Z'), debate_info_meta: meta('2026-03-07T00:00:00.000Z', '2026-03-08T00:00:00.000Z') })
    .where('id', '=', d.id)
    .execute();
});
afterAll(async () => api.close());

async function statistics(query = '', cookie = admin) {
  return api.request({ method: 'GET', url: `${STATISTICS_PATH}${query}`, cookie });
}

const day = (n: number) => `2026-03-${String(n).padStart(2, '0')}`;

describe('GET /api/statistics', () => {
  it("reports the term's known figures", async () => {
    const response = await statistics(`?term=${termId}`);
    expect(response.statusCode, response.body).toBe(200);
    const stats = body<Statistics>(response);
    expect(stats).toMatchObject({
      term: { id: termId, name: 'Early March 2026', startDate: '2026-03-01', endDate: '2026-03-10' },
      from: '2026-03-01',
      to: '2026-03-10',
      targets: { response: { targetDays: 3, dueSoonDays: 1 }, debate: { targetDays: 1, dueSoonDays: 1 } },
      petitionsCreated: 5,
      signatures: 12 + 12 + 11 + 25 + 3,
      // 1, 2 and 6 days: the median is 2, the 90th percentile (nearest rank of three) 6. One still waits.
      responseTimes: { handled: 3, medianDays: 2, p90Days: 6, waiting: 1 },
      debateTimes: { handled: 1, medianDays: 2.25, p90Days: 2.25, waiting: 0 },
    });
    const columns = (key: keyof Statistics['days'][number]) => stats.days.map((row) => row[key]);
    expect(columns('day')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(day));
    expect(columns('petitionsCreated')).toEqual([1, 1, 1, 0, 1, 0, 0, 0, 1, 0]);
    expect(columns('signatures')).toEqual([12, 12, 11, 0, 25, 0, 0, 0, 3, 0]);
    // At each day's end: A waits 2 → 4 March, B 3 → 9 March, C from 4 March on, D 5 March noon → 6 March noon.
    expect(columns('responseBacklog')).toEqual([0, 1, 1, 2, 3, 2, 2, 1, 1, 1]);
    // Over 3 days: B from the end of 6 March, C from the end of 7 March.
    expect(columns('responseOverdue')).toEqual([0, 0, 0, 0, 0, 1, 2, 1, 1, 1]);
    expect(columns('debateBacklog')).toEqual([0, 0, 0, 0, 1, 1, 0, 0, 0, 0]);
    expect(columns('debateOverdue')).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0]);
  });

  it('reports the current term by default, else the latest, and an older term on request', async () => {
    expect(body<Statistics>(await statistics()).term.id).toBe(termId);
    const older = body<Statistics>(await statistics(`?term=${olderTermId}`));
    expect(older).toMatchObject({ term: { name: 'Winter 2025' }, petitionsCreated: 0, signatures: 0, responseTimes: { handled: 0, medianDays: null, p90Days: null, waiting: 0 } });
    expect(older.days).toHaveLength(31);
    // While a term runs, its days end today.
    api.setNow(t('04T12:00:00.000'));
    try {
      const running = body<Statistics>(await statistics());
      expect(running).toMatchObject({ term: { id: termId }, to: '2026-03-04' });
      expect(running.days.at(-1)).toMatchObject({ day: '2026-03-04', responseBacklog: 2 });
    } finally {
      api.setNow(t('20T12:00:00.000'));
    }
  });

  it('is for the administrator only, and refuses bad or unknown terms', async () => {
    for (const role of ['rank8', 'rank7', 'rank6', 'citizen'] as const) {
      const refused = await statistics('', await api.signInAs(role));
      expect(refused.statusCode).toBe(403);
      expect(body(refused).detail).toBe(ERRORS.statisticsForbidden);
    }
    expect((await api.request({ method: 'GET', url: STATISTICS_PATH })).statusCode).toBe(401);
    for (const bad of ['?term=abc', '?term=0', '?term=-1', '?term=1&extra=1']) expect((await statistics(bad)).statusCode, bad).toBe(400);
    const unknown = await statistics('?term=987654');
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown).detail).toBe(ERRORS.termNotFound);
  });

  it('says so when there is no term at all', async () => {
    const empty = await startTestApi();
    try {
      const response = await empty.request({ method: 'GET', url: STATISTICS_PATH, cookie: await empty.signInAs('admin') });
      expect(response.statusCode).toBe(404);
      expect(body(response).detail).toBe(ERRORS.noTermForStatistics);
    } finally {
      await empty.close();
    }
  });
});
