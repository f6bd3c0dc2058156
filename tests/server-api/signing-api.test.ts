import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { PetitionRow } from '../../src-server/db/schema.ts';
import { ROLE_PROFILES, startTestApi, type TestApi } from '../support/api-harness.ts';
import { countRows } from '../support/fixtures.ts';
import { addSignatures, insertPetition } from './public-test-data.ts';

let api: TestApi;
let citizen: string;

beforeAll(async () => {
  api = await startTestApi();
  citizen = await api.signInAs('citizen');
});

afterAll(async () => {
  await api.close();
});

beforeEach(async () => {
  await api.context.db.deleteFrom('petitions').execute();
  api.setNow(null);
});

function post(path: string, options: { cookie?: string | null; payload?: unknown; headers?: Record<string, string> } = {}) {
  return api.request({
    method: 'POST',
    url: path,
    cookie: options.cookie === null ? undefined : (options.cookie ?? citizen),
    ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

async function stored(id: number): Promise<PetitionRow> {
  return api.context.db.selectFrom('petitions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function signatureRows(id: number): Promise<number> {
  const row = await api.context.db
    .selectFrom('signatures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('petition_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST /api/petitions/:id/sign and /unsign', () => {
  it('signs, refuses a second signature, unsigns and refuses a second removal', async () => {
    const petition = await insertPetition(api.context.db);
    await addSignatures(api.context.db, petition.id, 3);
    api.setNow(new Date('2026-04-01T12:34:56.000Z'));

    const signed = await post(`/api/petitions/${petition.id}/sign`, { payload: {} });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toEqual({ signatures: 4, signed: true });
    const row = await api.context.db
      .selectFrom('signatures')
      .selectAll()
      .where('petition_id', '=', petition.id)
      .where('user_id', '=', ROLE_PROFILES.citizen.id)
      .executeTakeFirst();
    expect(row).toMatchObject({ username: 'citizen', display_name: 'Citizen Kane', signed_at: '2026-04-01T12:34:56.000Z' });

    const again = await post(`/api/petitions/${petition.id}/sign`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: ERRORS.alreadySigned });
    expect((await stored(petition.id)).signature_count).toBe(4);

    const unsigned = await post(`/api/petitions/${petition.id}/unsign`);
    expect(unsigned.statusCode).toBe(200);
    expect(unsigned.json()).toEqual({ signatures: 3, signed: false });

    const unsignedAgain = await post(`/api/petitions/${petition.id}/unsign`);
    expect(unsignedAgain.statusCode).toBe(409);
    expect(unsignedAgain.json()).toMatchObject({ detail: ERRORS.notSigned });
    expect((await stored(petition.id)).signature_count).toBe(3);
    expect(await signatureRows(petition.id)).toBe(3);
  });

  it('accepts a body without a content type, and legacy fields naming the signed-in user', async () => {
    const petition = await insertPetition(api.context.db);
    expect((await post(`/api/petitions/${petition.id}/sign`)).statusCode).toBe(200);
    const byNumber = await post(`/api/petitions/${petition.id}/unsign`, {
      payload: { user_id: Number(ROLE_PROFILES.citizen.id), username: 'CITIZEN' },
    });
    expect(byNumber.statusCode, byNumber.body).toBe(200);
    const byString = await post(`/api/petitions/${petition.id}/sign`, {
      payload: { user_id: ROLE_PROFILES.citizen.id, username: 'Citizen Kane' },
    });
    expect(byString.statusCode, byString.body).toBe(200);
  });

  it('lets staff, the administrator and a citizen banned from creating still sign', async () => {
    const petition = await insertPetition(api.context.db);
    for (const role of ['rank6', 'rank8', 'admin', 'bannedCitizen'] as const) {
      const response = await post(`/api/petitions/${petition.id}/sign`, { cookie: await api.signInAs(role) });
      expect(response.statusCode, role).toBe(200);
    }
    expect((await stored(petition.id)).signature_count).toBe(4);
  });

  describe('refusals, with nothing written', () => {
    let petition: PetitionRow;
    beforeEach(async () => {
      petition = await insertPetition(api.context.db, { signature_count: 0 });
    });

    async function expectUntouched(): Promise<void> {
      expect(await signatureRows(petition.id)).toBe(0);
      expect(await stored(petition.id)).toEqual(petition);
    }

    it.each(['sign', 'unsign'])('%s: 401 with the sign-in text without a session, before the body is read', async (action) => {
      const response = await post(`/api/petitions/${petition.id}/${action}`, { cookie: null, payload: { nonsense: true } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ detail: ERRORS.signLoginRequired });
      await expectUntouched();
    });

    it.each(['sign', 'unsign'])('%s: 403 for a user who is not a British Citizen', async (action) => {
      const response = await post(`/api/petitions/${petition.id}/${action}`, { cookie: await api.signInAs('nonCitizen') });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ detail: ERRORS.signUnauthorized });
      await expectUntouched();
    });

    it.each(['sign', 'unsign'])('%s: 404 for a missing petition', async (action) => {
      const response = await post(`/api/petitions/${petition.id + 1000}/${action}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ detail: ERRORS.petitionNotFound });
      await expectUntouched();
    });

    it.each([
      ['another user id', { user_id: '424242' }],
      ['another numeric user id', { user_id: 424242 }],
      ['another username', { username: 'someone_else' }],
    ])('403 when the body names %s', async (_label, payload) => {
      const response = await post(`/api/petitions/${petition.id}/sign`, { payload });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ detail: ERRORS.otherUser });
      await expectUntouched();
    });

    it.each([
      ['an unknown field', { user_id: ROLE_PROFILES.citizen.id, petition: 3 }, 'petition'],
      ['a user id that is not digits', { user_id: 'abc' }, 'user id'],
      ['a username of the wrong type', { username: 42 }, 'username'],
      ['an array body', [1, 2], 'body'],
    ])('400 for %s', async (_label, payload, fragment) => {
      const response = await post(`/api/petitions/${petition.id}/sign`, { payload });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ detail: string }>().detail).toContain(fragment);
      await expectUntouched();
    });

    it('400 for malformed JSON and 413 for an oversized body', async () => {
      const malformed = await post(`/api/petitions/${petition.id}/sign`, {
        payload: '{"user_id":',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ detail: 'The request body is not valid JSON' });
      const huge = await post(`/api/petitions/${petition.id}/sign`, { payload: { username: 'x'.repeat(70_000) } });
      expect(huge.statusCode).toBe(413);
      await expectUntouched();
    });

    it.each(['abc', '0', '-3', '2.5', '123456789012345678901'])('400 for the petition id %j', async (id) => {
      const response = await post(`/api/petitions/${id}/sign`);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ detail: string }>().detail).toContain('A petition id is a positive whole number');
      await expectUntouched();
    });
  });

  it('409 on a closed petition, for signing and for removing a signature', async () => {
    const petition = await insertPetition(api.context.db, { status: 'closed', closure_reason: 'term_ended' });
    await addSignatures(api.context.db, petition.id, 1, { prefix: '8' });
    const outsider = await api.signInAs('rank7');
    const sign = await post(`/api/petitions/${petition.id}/sign`, { cookie: outsider });
    expect(sign.statusCode).toBe(409);
    expect(sign.json()).toMatchObject({ detail: ERRORS.petitionClosed });

    await api.context.db
      .insertInto('signatures')
      .values({ petition_id: petition.id, user_id: ROLE_PROFILES.citizen.id, username: 'citizen', display_name: 'Citizen Kane', signed_at: '2026-01-01T00:00:00.000Z' })
      .execute();
    const unsign = await post(`/api/petitions/${petition.id}/unsign`);
    expect(unsign.statusCode).toBe(409);
    expect(unsign.json()).toMatchObject({ detail: ERRORS.petitionClosed });
    expect(await signatureRows(petition.id)).toBe(2);
    expect((await stored(petition.id)).status).toBe('closed');
  });
});

describe('site-wide guards', () => {
  it('refuses a sign without the CSRF header, and answers 503 during maintenance except to the administrator', async () => {
    const petition = await insertPetition(api.context.db);
    const forged = await api.app.inject({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, headers: { cookie: citizen } });
    expect(forged.statusCode).toBe(403);
    await api.context.siteSettings.setMaintenance(true);
    try {
      const during = await post(`/api/petitions/${petition.id}/sign`);
      expect(during.statusCode).toBe(503);
      expect((await api.request({ url: '/api/petitions' })).statusCode).toBe(503);
      expect((await post(`/api/petitions/${petition.id}/sign`, { cookie: await api.signInAs('admin') })).statusCode).toBe(200);
    } finally {
      await api.context.siteSettings.setMaintenance(false);
    }
    expect((await stored(petition.id)).signature_count).toBe(1);
  });
});

describe('status follows the thresholds (automaticStatus)', () => {
  it('moves open → awaiting response at 10 → awaiting debate at 20, and back when signatures go', async () => {
    const petition = await insertPetition(api.context.db, { version: 3 });
    await addSignatures(api.context.db, petition.id, 9);

    expect((await post(`/api/petitions/${petition.id}/sign`)).json()).toEqual({ signatures: 10, signed: true });
    expect(await stored(petition.id)).toMatchObject({ status: 'awaiting_government_response', version: 4 });

    // A plain count change does not bump the version.
    const second = await api.signInAs('rank6');
    await post(`/api/petitions/${petition.id}/sign`, { cookie: second });
    expect(await stored(petition.id)).toMatchObject({ signature_count: 11, status: 'awaiting_government_response', version: 4 });

    await post(`/api/petitions/${petition.id}/unsign`, { cookie: second });
    await post(`/api/petitions/${petition.id}/unsign`);
    expect(await stored(petition.id)).toMatchObject({ signature_count: 9, status: 'open', version: 5 });

    await addSignatures(api.context.db, petition.id, 10, { prefix: '7' });
    await post(`/api/petitions/${petition.id}/sign`);
    expect(await stored(petition.id)).toMatchObject({ signature_count: 20, status: 'awaiting_debate_in_parliament', version: 6 });
  });

  it('keeps a government response and a scheduled debate in the status', async () => {
    const responded = await insertPetition(api.context.db, { government_response: 'We agree.' });
    await addSignatures(api.context.db, responded.id, 9);
    await post(`/api/petitions/${responded.id}/sign`);
    expect((await stored(responded.id)).status).toBe('government_response');

    const debated = await insertPetition(api.context.db, {
      debate_info: JSON.stringify({ status: 'debated', date: '2026-03-01', location: 'Westminster Hall', hansardLink: 'https://hansard.example/x', notDebatedReason: null }),
      status: 'debated_in_parliament',
      version: 2,
    });
    await post(`/api/petitions/${debated.id}/sign`);
    expect(await stored(debated.id)).toMatchObject({ status: 'debated_in_parliament', version: 2, signature_count: 1 });
  });

  it('leaves other petitions alone', async () => {
    const a = await insertPetition(api.context.db);
    const b = await insertPetition(api.context.db);
    await post(`/api/petitions/${a.id}/sign`);
    expect(await stored(b.id)).toEqual(b);
    expect(await countRows(api.context.db, 'signatures')).toBe(1);
  });
});
