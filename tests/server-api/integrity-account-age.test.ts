/**
 * The minimum account age (docs/integrity.md#minimum-account-age) over real HTTP: with
 * MIN_ACCOUNT_AGE_DAYS=7 a 2-day-old ROBLOX account may neither sign nor create (403 with the
 * rule and the date it qualifies, also shown on the petition and in the allowance before trying),
 * a 40-day-old one may; signatures made before the setting changed stay.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserProfile } from '../../src-server/users/user-repository.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { insertCurrentTerm, insertPetition, VALID_PETITION } from './public-test-data.ts';

const NOW = new Date('2026-11-28T12:00:00Z');
const YOUNG_REFUSAL = 'Your ROBLOX account must be at least 7 days old to sign petitions. You can sign from 3 December 2026.';
const YOUNG_CREATE_REFUSAL =
  'Your ROBLOX account must be at least 7 days old to create petitions. You can create petitions from 3 December 2026.';

const citizen = (id: string, accountCreatedAt: string | null): UserProfile => ({
  id,
  username: `citizen${id}`,
  displayName: `Citizen ${id}`,
  avatarUrl: null,
  citizenRank: 1,
  governmentRank: 0,
  accountCreatedAt,
});

let api: TestApi;
let young: string;
let old: string;
let unknown: string;

beforeAll(async () => {
  api = await startTestApi();
  api.setNow(NOW);
  young = await api.signIn(citizen('7002', '2026-11-26T09:30:00.000Z'));
  old = await api.signIn(citizen('7040', '2026-10-19T08:00:00.000Z'));
  unknown = await api.signIn(citizen('7099', null));
  await insertCurrentTerm(api.context.db, NOW);
});

afterAll(() => api.close());

beforeEach(async () => {
  api.context.config.integrity.minAccountAgeDays = 7;
  await api.context.db.deleteFrom('petitions').execute();
  await api.context.db.deleteFrom('petition_creations').execute();
});

const sign = (cookie: string, id: number) => api.request({ method: 'POST', url: `/api/petitions/${id}/sign`, cookie });
const detail = async (cookie: string, id: number) => (await api.request({ url: `/api/petitions/${id}`, cookie })).json();

describe('MIN_ACCOUNT_AGE_DAYS=7', () => {
  it('refuses a 2-day-old account with the rule and the date it qualifies, and says so on the petition first', async () => {
    const petition = await insertPetition(api.context.db);
    expect((await detail(young, petition.id)).viewer_signing_refusal).toBe(YOUNG_REFUSAL);
    const refused = await sign(young, petition.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json().detail).toBe(YOUNG_REFUSAL);
    const count = await api.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', petition.id).execute();
    expect(count).toEqual([]);
  });

  it('lets a 40-day-old account sign, and shows it nothing to refuse', async () => {
    const petition = await insertPetition(api.context.db);
    expect((await detail(old, petition.id)).viewer_signing_refusal).toBeNull();
    const signed = await sign(old, petition.id);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toEqual({ signatures: 1, signed: true });
  });

  it('refuses an account whose age the provider never gave, asking for a new sign-in', async () => {
    const petition = await insertPetition(api.context.db);
    const refused = await sign(unknown, petition.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('Your ROBLOX account must be at least 7 days old to sign petitions. Sign out and sign in again so that we can check its age.');
  });

  it('applies the same rule to creating, and the allowance says so before the form', async () => {
    const allowance = await api.request({ url: '/api/petitions/daily-allowance', cookie: young });
    expect(allowance.json()).toMatchObject({ accountAgeRefusal: YOUNG_CREATE_REFUSAL, remaining: 3 });
    const refused = await api.request({ method: 'POST', url: '/api/petitions', cookie: young, payload: VALID_PETITION });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(YOUNG_CREATE_REFUSAL);

    expect((await api.request({ url: '/api/petitions/daily-allowance', cookie: old })).json().accountAgeRefusal).toBeNull();
    const created = await api.request({ method: 'POST', url: '/api/petitions', cookie: old, payload: VALID_PETITION });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('qualifies the account from the start of the named UK day', async () => {
    const petition = await insertPetition(api.context.db);
    api.setNow(new Date('2026-12-02T23:59:00Z'));
    expect((await sign(young, petition.id)).statusCode).toBe(403);
    api.setNow(new Date('2026-12-03T00:00:00Z'));
    expect((await sign(young, petition.id)).statusCode).toBe(200);
    api.setNow(NOW);
  });

  it('leaves signatures made before the setting changed, and still lets their owner remove them', async () => {
    const petition = await insertPetition(api.context.db);
    api.context.config.integrity.minAccountAgeDays = 0;
    expect((await sign(young, petition.id)).statusCode).toBe(200);
    api.context.config.integrity.minAccountAgeDays = 7;
    const page = await detail(young, petition.id);
    expect(page).toMatchObject({ signatures: 1, signed_by_viewer: true, viewer_signing_refusal: null });
    const removed = await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/unsign`, cookie: young });
    expect(removed.json()).toEqual({ signatures: 0, signed: false });
    expect((await sign(young, petition.id)).json().detail).toBe(YOUNG_REFUSAL);
  });

  it('is off at 0: the young account signs', async () => {
    api.context.config.integrity.minAccountAgeDays = 0;
    const petition = await insertPetition(api.context.db);
    expect((await detail(young, petition.id)).viewer_signing_refusal).toBeNull();
    expect((await sign(young, petition.id)).statusCode).toBe(200);
  });
});
