import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import type { DailyAllowance, Petition } from '../../src-shared/domain/schemas.ts';
import { TERM_NOT_CURRENT } from '../../src-server/petitions/create-petition.ts';
import { ROLE_PROFILES, startTestApi, type TestApi } from '../support/api-harness.ts';
import { countRows } from '../support/fixtures.ts';
import { insertTerm, VALID_PETITION } from './public-test-data.ts';

let api: TestApi;
let termId: number;
let citizen: string;

beforeAll(async () => {
  api = await startTestApi();
  termId = await insertTerm(api.context.db, { name: 'Term 87', startDate: '2020-01-01', endDate: '2035-12-31' });
  citizen = await api.signInAs('citizen');
});

afterAll(async () => {
  await api.close();
});

beforeEach(async () => {
  await api.context.db.deleteFrom('petitions').execute();
  // Deleting petitions gives no creation back (daily-limit-deletion.test.ts): each test starts afresh.
  await api.context.db.deleteFrom('petition_creations').execute();
  api.setNow(null);
});

afterEach(() => {
  api.setNow(null);
});

/** `null` sends no session cookie. */
function create(payload: unknown, cookie: string | null = citizen) {
  return api.request({ method: 'POST', url: '/api/petitions', payload: payload as object, cookie: cookie ?? undefined });
}

async function expectNothingWritten(): Promise<void> {
  expect(await countRows(api.context.db, 'petitions')).toBe(0);
  expect(await countRows(api.context.db, 'signatures')).toBe(0);
  expect(await countRows(api.context.db, 'petition_tags')).toBe(0);
}

describe('POST /api/petitions', () => {
  it('creates an open petition in the current term, signed by its creator', async () => {
    const response = await create({
      title: '  Plant more trees in city parks  ',
      description: VALID_PETITION.description,
      tags: ['Public Services', 'Rights', 'Rights'],
    });
    expect(response.statusCode, response.body).toBe(201);
    const petition = response.json<Petition>();
    expect(petition).toMatchObject({
      title: 'Plant more trees in city parks',
      description: VALID_PETITION.description,
      creator: ROLE_PROFILES.citizen.displayName,
      creator_id: ROLE_PROFILES.citizen.id,
      tags: ['Public Services', 'Rights'],
      category: 'General',
      termId,
      status: 'open',
      signatures: 1,
      closureReason: null,
      governmentResponse: null,
      debateInfo: null,
      version: 1,
    });
    const db = api.context.db;
    const signature = await db.selectFrom('signatures').selectAll().where('petition_id', '=', petition.id).execute();
    expect(signature).toEqual([
      expect.objectContaining({ user_id: ROLE_PROFILES.citizen.id, username: 'citizen', display_name: 'Citizen Kane', signed_at: petition.created }),
    ]);
    const tags = await db.selectFrom('petition_tags').select('tag').where('petition_id', '=', petition.id).orderBy('tag').execute();
    expect(tags.map((t) => t.tag)).toEqual(['Public Services', 'Rights']);

    const detail = await api.request({ url: `/api/petitions/${petition.id}`, cookie: citizen });
    expect(detail.json()).toMatchObject({ signatures: 1, signed_by_viewer: true });
  });

  it('accepts legacy fields that name the signed-in user, and a category', async () => {
    const response = await create({
      ...VALID_PETITION,
      creator: 'citizen',
      creator_id: Number(ROLE_PROFILES.citizen.id),
      termId,
      category: 'Environment',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ creator: 'Citizen Kane', category: 'Environment' });
  });

  it('lets staff and the administrator create too', async () => {
    for (const role of ['rank6', 'admin'] as const) {
      const response = await create(VALID_PETITION, await api.signInAs(role));
      expect(response.statusCode, role).toBe(201);
    }
  });

  describe('refusals', () => {
    it('answers 401 without a session, before looking at the body', async () => {
      const response = await create({ title: '' }, null);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ detail: ERRORS.loginRequired });
      await expectNothingWritten();
    });

    it('answers 403 to a signed-in non-citizen', async () => {
      const response = await create(VALID_PETITION, await api.signInAs('nonCitizen'));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ detail: ERRORS.createPermission });
      await expectNothingWritten();
    });

    it('answers 403 to a banned citizen', async () => {
      const response = await create(VALID_PETITION, await api.signInAs('bannedCitizen'));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ detail: ERRORS.banned });
      await expectNothingWritten();
    });

    it('answers 403 when the legacy fields name someone else', async () => {
      for (const claim of [{ creator_id: '1234' }, { creator_id: 1234 }, { creator: 'SomebodyElse' }]) {
        const response = await create({ ...VALID_PETITION, ...claim });
        expect(response.statusCode, JSON.stringify(claim)).toBe(403);
        expect(response.json()).toMatchObject({ detail: ERRORS.otherUser });
      }
      await expectNothingWritten();
    });

    it('answers 400 when Parliament is not in session', async () => {
      api.setNow(new Date('2040-01-01T12:00:00Z'));
      const response = await create(VALID_PETITION);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ detail: ERRORS.notInSession });
      await expectNothingWritten();
    });

    it('answers 400 when the body names a term that is not the current one', async () => {
      const old = await insertTerm(api.context.db, { name: 'Old', startDate: '2010-01-01', endDate: '2011-01-01' });
      try {
        const response = await create({ ...VALID_PETITION, termId: old });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ detail: TERM_NOT_CURRENT });
        await expectNothingWritten();
      } finally {
        await api.context.db.deleteFrom('terms').where('id', '=', old).execute();
      }
    });
  });

  describe('validation with the texts of docs/rules.md#petition-fields', () => {
    it.each([
      [{ title: '' }, VALIDATION.titleRequired],
      [{ title: '    ' }, VALIDATION.titleRequired],
      [{ title: 'Tree' }, VALIDATION.titleTooShort],
      [{ title: 'x'.repeat(151) }, VALIDATION.titleTooLong],
      [{ description: '' }, VALIDATION.descriptionRequired],
      [{ description: 'Too short to explain anything' }, VALIDATION.descriptionTooShort],
      [{ description: 'x'.repeat(1001) }, VALIDATION.descriptionTooLong],
      [{ tags: [] }, VALIDATION.tagsRequired],
      [{ tags: ['Budget', 'Business', 'Civil Service', 'Defence', 'Democracy', 'Laws'] }, VALIDATION.tagsTooMany],
      [{ tags: ['Budget', 'Gardening'] }, VALIDATION.tagUnknown],
    ])('refuses %j with its message', async (change, message) => {
      const response = await create({ ...VALID_PETITION, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ detail: string }>().detail).toBe(message);
      await expectNothingWritten();
    });

    it('counts an emoji as one character', async () => {
      const response = await create({ ...VALID_PETITION, title: `${'🌳'.repeat(150)}` });
      expect(response.statusCode, response.body).toBe(201);
    });

    it.each([
      ['an unknown field', { ...VALID_PETITION, status: 'debated_in_parliament' }, 'status'],
      ['a title of the wrong type', { ...VALID_PETITION, title: 12345 }, 'title'],
      ['tags of the wrong type', { ...VALID_PETITION, tags: 'Budget' }, 'tags'],
      ['a body that is not an object', [VALID_PETITION], 'body'],
      ['a term id that is not a number', { ...VALID_PETITION, termId: 'current' }, 'termId'],
    ])('refuses %s with 400', async (_label, payload, field) => {
      const response = await create(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ detail: string }>().detail).toContain(field);
      await expectNothingWritten();
    });

    it('refuses malformed JSON, text bodies and oversized bodies', async () => {
      const malformed = await api.request({
        method: 'POST',
        url: '/api/petitions',
        cookie: citizen,
        headers: { 'content-type': 'application/json' },
        payload: '{"title": "Broken',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ detail: 'The request body is not valid JSON' });

      const text = await api.request({
        method: 'POST',
        url: '/api/petitions',
        cookie: citizen,
        headers: { 'content-type': 'text/plain' },
        payload: 'title=hello',
      });
      expect(text.statusCode).toBe(400);
      expect(text.json<{ detail: string }>().detail).toContain('expected object');

      const huge = await create({ ...VALID_PETITION, description: 'x'.repeat(100_000) });
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toMatchObject({ detail: 'The request body is too large' });
      await expectNothingWritten();
    });
  });

  describe('daily limit: three per Europe/London calendar day', () => {
    it('refuses the fourth petition of the day with 429', async () => {
      for (let i = 0; i < 3; i += 1) expect((await create(VALID_PETITION)).statusCode).toBe(201);
      const fourth = await create(VALID_PETITION);
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toMatchObject({ detail: ERRORS.dailyLimit });
      expect(await countRows(api.context.db, 'petitions')).toBe(3);
      // Another user still has their own allowance.
      expect((await create(VALID_PETITION, await api.signInAs('rank7'))).statusCode).toBe(201);
    });

    it('lets exactly three of ten parallel creations through', async () => {
      const responses = await Promise.all(Array.from({ length: 10 }, () => create(VALID_PETITION)));
      const codes = responses.map((r) => r.statusCode).sort();
      expect(codes).toEqual([201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
      const rows = await api.context.db.selectFrom('petitions').select('creator_id').execute();
      expect(rows).toHaveLength(3);
      expect(await countRows(api.context.db, 'signatures')).toBe(3);
    });

    it('resets at UK midnight, not UTC midnight (summer time)', async () => {
      // 23:30 in London on 1 July is 22:30 UTC.
      api.setNow(new Date('2026-07-01T22:30:00Z'));
      for (let i = 0; i < 3; i += 1) expect((await create(VALID_PETITION)).statusCode).toBe(201);
      api.setNow(new Date('2026-07-01T22:59:59Z'));
      expect((await create(VALID_PETITION)).statusCode).toBe(429);
      // 00:00 in London on 2 July, though still 1 July in UTC.
      api.setNow(new Date('2026-07-01T23:00:00Z'));
      expect((await create(VALID_PETITION)).statusCode).toBe(201);
    });

    it('uses GMT in winter', async () => {
      api.setNow(new Date('2026-01-15T23:59:00Z'));
      for (let i = 0; i < 3; i += 1) expect((await create(VALID_PETITION)).statusCode).toBe(201);
      api.setNow(new Date('2026-01-16T00:00:00Z'));
      expect((await create(VALID_PETITION)).statusCode).toBe(201);
    });
  });
});

describe('GET /api/petitions/daily-allowance', () => {
  it('needs a session', async () => {
    const response = await api.request({ url: '/api/petitions/daily-allowance' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ detail: ERRORS.loginRequired });
  });

  it("counts today's petitions and says when the allowance resets", async () => {
    api.setNow(new Date('2026-07-01T10:00:00Z'));
    const before = (await api.request({ url: '/api/petitions/daily-allowance', cookie: citizen })).json<DailyAllowance>();
    expect(before).toEqual({ limit: 3, used: 0, remaining: 3, resetsAt: '2026-07-01T23:00:00.000Z', banned: false, banReason: null, accountAgeRefusal: null });
    await create(VALID_PETITION);
    await create(VALID_PETITION);
    const after = (await api.request({ url: '/api/petitions/daily-allowance', cookie: citizen })).json<DailyAllowance>();
    expect(after).toMatchObject({ used: 2, remaining: 1 });
    api.setNow(new Date('2026-07-02T10:00:00Z'));
    const tomorrow = (await api.request({ url: '/api/petitions/daily-allowance', cookie: citizen })).json<DailyAllowance>();
    expect(tomorrow).toEqual({ limit: 3, used: 0, remaining: 3, resetsAt: '2026-07-02T23:00:00.000Z', banned: false, banReason: null, accountAgeRefusal: null });
  });

  it('tells a banned user before they type, with the reason, and follows the ban being lifted', async () => {
    const banned = await api.signInAs('bannedCitizen');
    const allowance = (await api.request({ url: '/api/petitions/daily-allowance', cookie: banned })).json<DailyAllowance>();
    expect(allowance).toMatchObject({ banned: true, banReason: 'Spam', remaining: 3 });
    // What the allowance announces is what creating answers.
    const refused = await create(VALID_PETITION, banned);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ detail: ERRORS.banned });
    await api.context.db.deleteFrom('bans').where('user_id', '=', ROLE_PROFILES.bannedCitizen.id).execute();
    const lifted = (await api.request({ url: '/api/petitions/daily-allowance', cookie: banned })).json<DailyAllowance>();
    expect(lifted).toMatchObject({ banned: false, banReason: null, accountAgeRefusal: null });
  });
});
