/**
 * The daily limit counts petitions CREATED that UK day: deleting one (by staff, or all of them)
 * gives no creation back; the next UK day does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_ALL_CONFIRMATION } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { DailyAllowance, Petition } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { insertTerm, VALID_PETITION } from './public-test-data.ts';

let api: TestApi;
let citizen: string;
let leader: string;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  await insertTerm(api.context.db, { name: 'Term 87', startDate: '2020-01-01', endDate: '2035-12-31' });
  [citizen, leader, admin] = await Promise.all([api.signInAs('citizen'), api.signInAs('rank7'), api.signInAs('admin')]);
});
afterAll(async () => api.close());

const create = () => api.request({ method: 'POST', url: '/api/petitions', payload: VALID_PETITION, cookie: citizen });
const allowance = async () => (await api.request({ url: '/api/petitions/daily-allowance', cookie: citizen })).json<DailyAllowance>();

describe('the daily limit after deletions', () => {
  it('counts a deleted petition as created today, and the fourth creation is still refused', async () => {
    api.setNow(new Date('2026-07-01T09:00:00Z'));
    const created: Petition[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await create();
      expect(response.statusCode).toBe(201);
      created.push(response.json<Petition>());
    }
    const deleted = await api.request({ method: 'DELETE', url: `/api/petitions/${created[0]!.id}`, cookie: leader });
    expect(deleted.statusCode).toBe(200);
    expect(await allowance()).toMatchObject({ used: 3, remaining: 0 });
    const fourth = await create();
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ detail: ERRORS.dailyLimit });

    const all = await api.request({ method: 'POST', url: '/api/petitions/delete-all', payload: { confirmation: DELETE_ALL_CONFIRMATION }, cookie: admin });
    expect(all.statusCode).toBe(200);
    expect(await allowance()).toMatchObject({ used: 3, remaining: 0 });
    expect((await create()).statusCode).toBe(429);
  });

  it('gives the allowance back at UK midnight, and forgets the earlier day', async () => {
    api.setNow(new Date('2026-07-01T23:00:00Z'));
    expect(await allowance()).toMatchObject({ used: 0, remaining: 3 });
    expect((await create()).statusCode).toBe(201);
    expect(await allowance()).toMatchObject({ used: 1, remaining: 2 });
    const kept = await api.context.db.selectFrom('petition_creations').select('created_at').execute();
    expect(kept).toEqual([{ created_at: '2026-07-01T23:00:00.000Z' }]);
  });
});
