import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { CALENDAR_DATE_ERROR } from '../../src-server/staff/calendar-date.ts';
import { PETITION_ID_MISMATCH } from '../../src-server/staff/contribution-edits.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { auditRows, body, chatMessageRows, petitionRow, seedStaffPetition, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());

const HANSARD = 'https://hansard.parliament.uk/commons/2026-05-12/debates/1';

function saveDebate(id: number | string, payload: object, cookie: string | null = cookies.rank7) {
  return api.request({ method: 'POST', url: `/api/petitions/${id}/debate-info`, payload, ...(cookie === null ? {} : { cookie }) });
}
function removeDebate(id: number, cookie: string | null = cookies.rank7) {
  return api.request({ method: 'DELETE', url: `/api/petitions/${id}/debate-info`, ...(cookie === null ? {} : { cookie }) });
}

describe('POST /api/petitions/:id/debate-info', () => {
  it('schedules a debate in Westminster Hall when no location is given', async () => {
    const id = await seedStaffPetition(api, { signatures: 22 });
    api.setNow(new Date('2026-05-01T10:00:00Z'));
    const response = await saveDebate(id, {
      petition_id: id,
      status: 'scheduled',
      date: '2026-05-12',
      location: '   ',
      hansard_url: HANSARD,
      not_debated_reason: 'ignored',
      added_by: 'Not Me',
      added_by_role: 'Made up',
    });
    api.setNow(null);
    expect(response.statusCode).toBe(200);
    const petition = body<Petition>(response);
    expect(petition.debateInfo).toEqual({ status: 'scheduled', date: '2026-05-12', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null });
    expect(petition.debateInfoMeta).toEqual({
      addedBy: 'Leader of the House',
      // The office the header shows, not the generic user type.
      addedByRole: 'Leader of the House of Commons',
      addedAt: '2026-05-01T10:00:00.000Z',
      editedBy: null,
      editedByRole: null,
      editedAt: null,
    });
    expect(petition.status).toBe('awaiting_debate_in_parliament');
    expect(petition.version).toBe(2);
    expect(response.headers.etag).toBe('"2"');
  });

  it('records a held debate with its Hansard link and edits keep the first author', async () => {
    const id = await seedStaffPetition(api, { signatures: 25 });
    await saveDebate(id, { status: 'scheduled', date: '2026-05-12' });
    const response = await saveDebate(id, { status: 'debated', date: '2026-05-12', location: 'Main Chamber', hansard_url: HANSARD }, cookies.admin);
    const petition = body<Petition>(response);
    expect(petition.debateInfo).toEqual({ status: 'debated', date: '2026-05-12', location: 'Main Chamber', hansardLink: HANSARD, notDebatedReason: null });
    expect(petition.status).toBe('debated_in_parliament');
    expect(petition.debateInfoMeta).toMatchObject({ addedBy: 'Leader of the House', editedBy: 'System Administrator', editedByRole: 'System Administrator' });
    const actions = (await auditRows(api)).filter((a) => a.target_id === String(id)).map((a) => a.action);
    expect(actions).toEqual(['debate.add', 'debate.edit']);
    const events = (await chatMessageRows(api)).slice(-2).map((o) => o.event);
    expect(events).toEqual(['debate.added', 'debate.edited']);
    const message = JSON.parse((await chatMessageRows(api)).at(-1)?.payload ?? '{}');
    expect(message.embeds[0].description).toContain('This petition was debated on 12 May 2026');
    expect(message.embeds[0].description).toContain(HANSARD);
  });

  it('stores the reason for not_debated and for cancelled (sent in not_debated_reason)', async () => {
    const notDebated = await seedStaffPetition(api, { signatures: 30 });
    const a = body<Petition>(await saveDebate(notDebated, { status: 'not_debated', not_debated_reason: '  Already debated last month  ', hansard_url: HANSARD }, cookies.rank8));
    expect(a.debateInfo).toEqual({ status: 'not_debated', date: null, location: 'Westminster Hall', hansardLink: null, notDebatedReason: 'Already debated last month' });
    expect(a.status).toBe('not_debated_in_parliament');

    const cancelled = await seedStaffPetition(api, { signatures: 30 });
    const b = body<Petition>(await saveDebate(cancelled, { status: 'cancelled', date: '2026-07-01', not_debated_reason: 'Parliament was prorogued' }));
    expect(b.debateInfo).toEqual({ status: 'cancelled', date: '2026-07-01', location: 'Westminster Hall', hansardLink: null, notDebatedReason: 'Parliament was prorogued' });
    expect(b.status).toBe('not_debated_in_parliament');
  });

  it('a closed petition stays closed', async () => {
    const id = await seedStaffPetition(api, { status: 'closed', closureReason: 'term_ended', signatures: 25 });
    const petition = body<Petition>(await saveDebate(id, { status: 'scheduled', date: '2026-09-01' }));
    expect(petition.status).toBe('closed');
    expect(petition.debateInfo?.status).toBe('scheduled');
  });

  it.each([
    [{ status: 'scheduled' }, VALIDATION.debateDateRequired],
    [{ status: 'scheduled', date: '' }, VALIDATION.debateDateRequired],
    [{ status: 'debated', date: '2026-05-12' }, VALIDATION.hansardRequired],
    [{ status: 'debated', date: '2026-05-12', hansard_url: 'http://hansard.parliament.uk/x' }, VALIDATION.hansardHttps],
    [{ status: 'debated', date: '2026-05-12', hansard_url: 'javascript:alert(1)' }, VALIDATION.hansardHttps],
    [{ status: 'not_debated' }, VALIDATION.notDebatedReasonRequired],
    [{ status: 'not_debated', not_debated_reason: '   ' }, VALIDATION.notDebatedReasonRequired],
    [{ status: 'cancelled', date: '2026-05-12' }, VALIDATION.cancelledReasonRequired],
    [{ status: 'scheduled', date: '2026-02-30' }, CALENDAR_DATE_ERROR],
  ])('refuses %j with the spec message and writes nothing', async (payload, detail) => {
    const id = await seedStaffPetition(api);
    const before = await writeSnapshot(api);
    const response = await saveDebate(id, payload);
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(detail);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it.each([[{ status: 'postponed', date: '2026-05-12' }], [{ status: 'scheduled', date: '12/05/2026' }], [{ status: 'scheduled', date: '2026-05-12', venue: 'x' }]])(
    'refuses malformed body %j with 400',
    async (payload) => {
      const id = await seedStaffPetition(api);
      const response = await saveDebate(id, payload);
      expect(response.statusCode).toBe(400);
      expect((await petitionRow(api, id))?.debate_info).toBeNull();
    },
  );

  it('refuses a body naming another petition', async () => {
    const id = await seedStaffPetition(api);
    const response = await saveDebate(id, { petition_id: id + 1, status: 'scheduled', date: '2026-05-12' });
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(PETITION_ID_MISMATCH);
  });

  it.each(['rank6', 'citizen', 'nonCitizen'] as const)('is refused to %s (403)', async (role) => {
    const id = await seedStaffPetition(api);
    const response = await saveDebate(id, { status: 'scheduled', date: '2026-05-12' }, cookies[role]);
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.debateForbidden);
    expect((await petitionRow(api, id))?.debate_info).toBeNull();
  });

  it('needs a session (401) and a petition (404)', async () => {
    const id = await seedStaffPetition(api);
    expect((await saveDebate(id, { status: 'scheduled', date: '2026-05-12' }, null)).statusCode).toBe(401);
    const missing = await saveDebate(818181, { status: 'scheduled', date: '2026-05-12' });
    expect(missing.statusCode).toBe(404);
    expect(body(missing).detail).toBe(ERRORS.petitionNotFound);
  });
});

describe('DELETE /api/petitions/:id/debate-info', () => {
  it('removes the debate; the status falls back to what signatures and response say', async () => {
    const id = await seedStaffPetition(api, { signatures: 12, governmentResponse: 'We agree.', status: 'government_response' });
    await saveDebate(id, { status: 'scheduled', date: '2026-05-12' });
    const response = await removeDebate(id, cookies.rank8);
    expect(response.statusCode).toBe(200);
    const petition = body<Petition>(response);
    expect(petition).toMatchObject({ debateInfo: null, debateInfoMeta: null, status: 'government_response', version: 3 });
    expect((await auditRows(api)).at(-1)?.action).toBe('debate.remove');
    expect((await chatMessageRows(api)).at(-1)?.event).toBe('debate.removed');
  });

  it('answers 409 when there is no debate information', async () => {
    const id = await seedStaffPetition(api);
    const response = await removeDebate(id);
    expect(response.statusCode).toBe(409);
    expect(body(response).detail).toBe(ERRORS.noDebateInfo);
  });

  it('is refused to a Cabinet Minister and needs a session', async () => {
    const info = { status: 'scheduled', date: '2026-05-12', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null };
    const id = await seedStaffPetition(api, { debateInfo: info, status: 'awaiting_debate_in_parliament' });
    const forbidden = await removeDebate(id, cookies.rank6);
    expect(forbidden.statusCode).toBe(403);
    expect(body(forbidden).detail).toBe(ERRORS.debateForbidden);
    expect((await removeDebate(id, null)).statusCode).toBe(401);
    expect((await petitionRow(api, id))?.debate_info).not.toBeNull();
  });
});
