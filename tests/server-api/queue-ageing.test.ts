/**
 * Queue ageing (docs/console-team.md#queue-ageing): the crossing times recorded whatever writes the
 * count or the status, the Petition shape carrying them, the queue summary's due-soon and overdue
 * counts against seeded crossing times, and the targets' configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src-server/config.ts';
import { QUEUE_SUMMARY_PATH } from '../../src-server/presence/presence-routes.ts';
import type { Petition, PetitionList } from '../../src-shared/domain/schemas.ts';
import type { QueueSummary } from '../../src-shared/domain/team-schemas.ts';
import { DAY_MS, queueTargets } from '../../src-shared/rules/queue-ageing.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { body, petitionRow, seedStaffPetition, signInEveryone, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());

async function signAs(n: number, petitionId: number, action: 'sign' | 'unsign' = 'sign') {
  const cookie = await api.signIn({ id: String(700_000 + n), username: `ager${n}`, displayName: `Ager ${n}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
  const response = await api.request({ method: 'POST', url: `/api/petitions/${petitionId}/${action}`, cookie });
  expect(response.statusCode, response.body).toBe(200);
}

const near = (text: string | null | undefined, instant: number) => {
  expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(Math.abs(Date.parse(text!) - instant)).toBeLessThan(60_000);
};

describe('when a petition crossed its thresholds', () => {
  it('is recorded by the signature that reaches 10, then 20, and kept when signatures are removed', async () => {
    const petitionId = await seedStaffPetition(api, { signatures: 9 });
    expect((await petitionRow(api, petitionId))?.response_threshold_reached_at).toBeNull();

    await signAs(1, petitionId);
    const afterTen = await petitionRow(api, petitionId);
    expect(afterTen?.status).toBe('awaiting_government_response');
    near(afterTen?.response_threshold_reached_at, Date.now());
    expect(afterTen?.debate_threshold_reached_at).toBeNull();

    for (let n = 2; n <= 11; n++) await signAs(n, petitionId);
    const afterTwenty = await petitionRow(api, petitionId);
    near(afterTwenty?.debate_threshold_reached_at, Date.now());
    expect(afterTwenty?.response_threshold_reached_at).toBe(afterTen?.response_threshold_reached_at);

    await signAs(11, petitionId, 'unsign');
    await signAs(10, petitionId, 'unsign');
    const after = await petitionRow(api, petitionId);
    expect(after?.signature_count).toBe(18);
    expect(after?.response_threshold_reached_at).toBe(afterTen?.response_threshold_reached_at);
    expect(after?.debate_threshold_reached_at).toBe(afterTwenty?.debate_threshold_reached_at);

    // The API's Petition carries both, on the list the console reads its queues from too.
    const detail = body<Petition>(await api.request({ method: 'GET', url: `/api/petitions/${petitionId}` }));
    expect(detail).toMatchObject({ responseThresholdReachedAt: afterTen?.response_threshold_reached_at, debateThresholdReachedAt: afterTwenty?.debate_threshold_reached_at });
    // Back under 20 it waits for a response again (and keeps when it first reached 20).
    const queue = body<PetitionList>(await api.request({ method: 'GET', url: '/api/petitions?status=awaiting_response&pageSize=100' }));
    expect(queue.items.find((p) => p.id === petitionId)).toMatchObject({
      responseThresholdReachedAt: afterTen?.response_threshold_reached_at,
      debateThresholdReachedAt: afterTwenty?.debate_threshold_reached_at,
    });
  });

  it('is recorded when the administrator puts a petition in a queue by status, and never moved by later writes', async () => {
    const petitionId = await seedStaffPetition(api, { signatures: 2 });
    const response = await api.request({ method: 'PATCH', url: `/api/petitions/${petitionId}/status`, cookie: cookies.admin, payload: { status: 'awaiting_government_response' } });
    expect(response.statusCode, response.body).toBe(200);
    const first = (await petitionRow(api, petitionId))?.response_threshold_reached_at;
    near(first, Date.now());
    await api.request({ method: 'PATCH', url: `/api/petitions/${petitionId}/status`, cookie: cookies.admin, payload: { status: 'open' } });
    await api.request({ method: 'PATCH', url: `/api/petitions/${petitionId}/status`, cookie: cookies.admin, payload: { status: 'awaiting_government_response' } });
    expect((await petitionRow(api, petitionId))?.response_threshold_reached_at).toBe(first);
    expect((await petitionRow(api, petitionId))?.debate_threshold_reached_at).toBeNull();
  });
});

describe('GET /api/staff/queue-summary', () => {
  it('counts each queue, and how many are due soon and overdue against seeded crossing times', async () => {
    const own = await startTestApi();
    try {
      const minister = await own.signInAs('rank6');
      const now = Date.now();
      own.setNow(new Date(now));
      const ago = (days: number) => new Date(now - days * DAY_MS);
      const response = { signatures: 12, status: 'awaiting_government_response' as const };
      const debate = { signatures: 25, status: 'awaiting_debate_in_parliament' as const };
      await seedStaffPetition(own, { ...response, responseThresholdReachedAt: ago(2) }); // 2 of 14 days: on time
      await seedStaffPetition(own, { ...response, responseThresholdReachedAt: ago(11.5) }); // in the last 3 days: due soon
      await seedStaffPetition(own, { ...response, responseThresholdReachedAt: ago(14.01) }); // past 14: overdue
      // Answered: out of the queue however long it waited.
      await seedStaffPetition(own, { signatures: 12, status: 'government_response', governmentResponse: 'Done.', responseThresholdReachedAt: ago(40) });
      // The debate queue (answered in the response queue, so only here), on its own clock.
      await seedStaffPetition(own, { ...debate, governmentResponse: 'Answered.', responseThresholdReachedAt: ago(30), debateThresholdReachedAt: ago(5) });
      await seedStaffPetition(own, { ...debate, governmentResponse: 'Answered.', responseThresholdReachedAt: ago(30), debateThresholdReachedAt: ago(23) });
      await seedStaffPetition(own, { ...debate, governmentResponse: 'Answered.', responseThresholdReachedAt: ago(30), debateThresholdReachedAt: ago(29) });

      const read = await own.request({ method: 'GET', url: QUEUE_SUMMARY_PATH, cookie: minister });
      expect(read.statusCode, read.body).toBe(200);
      expect(body<QueueSummary>(read)).toEqual({
        targets: { response: { targetDays: 14, dueSoonDays: 3 }, debate: { targetDays: 28, dueSoonDays: 6 } },
        queues: { response: { total: 3, dueSoon: 1, overdue: 1 }, debate: { total: 3, dueSoon: 1, overdue: 1 } },
      });

      // Three days later the due-soon response is overdue; in the debate queue 8, 26 and 32 days keep their marks.
      own.setNow(new Date(now + 3 * DAY_MS));
      expect(body<QueueSummary>(await own.request({ method: 'GET', url: QUEUE_SUMMARY_PATH, cookie: minister })).queues).toEqual({
        response: { total: 3, dueSoon: 0, overdue: 2 },
        debate: { total: 3, dueSoon: 1, overdue: 1 },
      });

      const citizen = await own.signInAs('citizen');
      expect((await own.request({ method: 'GET', url: QUEUE_SUMMARY_PATH, cookie: citizen })).statusCode).toBe(403);
      expect((await own.request({ method: 'GET', url: QUEUE_SUMMARY_PATH })).statusCode).toBe(401);
    } finally {
      await own.close();
    }
  });

  it('uses the configured targets', async () => {
    const own = await startTestApi({ queueTargets: queueTargets(3, 5) });
    try {
      const minister = await own.signInAs('rank6');
      own.setNow(new Date());
      await seedStaffPetition(own, { signatures: 12, status: 'awaiting_government_response', responseThresholdReachedAt: new Date(Date.now() - 2.5 * DAY_MS) });
      const summary = body<QueueSummary>(await own.request({ method: 'GET', url: QUEUE_SUMMARY_PATH, cookie: minister }));
      expect(summary.targets).toEqual({ response: { targetDays: 3, dueSoonDays: 1 }, debate: { targetDays: 5, dueSoonDays: 1 } });
      expect(summary.queues.response).toEqual({ total: 1, dueSoon: 1, overdue: 0 });
    } finally {
      await own.close();
    }
  });
});

describe('RESPONSE_TARGET_DAYS and DEBATE_TARGET_DAYS', () => {
  it('default to 14 and 28 days and take whole days from 1 to 365', () => {
    expect(loadConfig({}).queueTargets).toEqual({ response: { targetDays: 14, dueSoonDays: 3 }, debate: { targetDays: 28, dueSoonDays: 6 } });
    expect(loadConfig({ RESPONSE_TARGET_DAYS: '7', DEBATE_TARGET_DAYS: '60' }).queueTargets).toEqual({
      response: { targetDays: 7, dueSoonDays: 2 },
      debate: { targetDays: 60, dueSoonDays: 12 },
    });
    for (const bad of ['0', '-3', '2.5', '366', 'soon']) {
      expect(() => loadConfig({ RESPONSE_TARGET_DAYS: bad }), bad).toThrow();
      expect(() => loadConfig({ DEBATE_TARGET_DAYS: bad }), bad).toThrow();
    }
  });
});
