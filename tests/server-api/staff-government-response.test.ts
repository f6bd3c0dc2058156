import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { PETITION_ID_MISMATCH } from '../../src-server/staff/contribution-edits.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import {
  auditRows,
  body,
  chatMessageRows,
  petitionRow,
  RESPONSE_BODY,
  seedStaffPetition,
  signInEveryone,
  writeSnapshot,
  type Role,
} from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());

function saveResponse(id: number | string, payload: object, cookie: string | null = cookies.rank6) {
  return api.request({ method: 'POST', url: `/api/petitions/${id}/government-response`, payload, ...(cookie === null ? {} : { cookie }) });
}
function removeResponse(id: number, cookie = cookies.rank6) {
  return api.request({ method: 'DELETE', url: `/api/petitions/${id}/government-response`, cookie });
}

describe('POST /api/petitions/:id/government-response', () => {
  it('records the response under the signed-in minister, whatever added_by says', async () => {
    const id = await seedStaffPetition(api, { signatures: 11, status: 'awaiting_government_response' });
    api.setNow(new Date('2026-06-01T12:00:00Z'));
    const response = await saveResponse(id, { ...RESPONSE_BODY, added_by: 'Someone Else', petition_id: id });
    api.setNow(null);
    expect(response.statusCode).toBe(200);
    const petition = body<Petition>(response);
    expect(petition.governmentResponse).toBe(RESPONSE_BODY.response_text);
    expect(petition.governmentResponseMeta).toEqual({
      addedBy: 'Cabinet Minister',
      addedByRole: 'Chancellor of the Exchequer',
      addedAt: '2026-06-01T12:00:00.000Z',
      editedBy: null,
      editedByRole: null,
      editedAt: null,
    });
    expect(petition.status).toBe('government_response');
    expect(petition.version).toBe(2);
    expect(response.headers.etag).toBe('"2"');
  });

  it('keeps who added it and records who edited it on a later save', async () => {
    const id = await seedStaffPetition(api);
    api.setNow(new Date('2026-06-01T12:00:00Z'));
    await saveResponse(id, RESPONSE_BODY);
    api.setNow(new Date('2026-06-03T08:30:00Z'));
    const edited = await saveResponse(id, { response_text: '  A revised answer.  ', added_by_role: 'Prime Minister' }, cookies.rank8);
    api.setNow(null);
    const petition = body<Petition>(edited);
    expect(petition.governmentResponse).toBe('A revised answer.');
    expect(petition.governmentResponseMeta).toEqual({
      addedBy: 'Cabinet Minister',
      addedByRole: 'Chancellor of the Exchequer',
      addedAt: '2026-06-01T12:00:00.000Z',
      editedBy: 'Prime Minister',
      editedByRole: 'Prime Minister',
      editedAt: '2026-06-03T08:30:00.000Z',
    });
    expect(petition.version).toBe(3);
    const actions = (await auditRows(api)).filter((a) => a.target_id === String(id)).map((a) => a.action);
    expect(actions).toEqual(['government_response.add', 'government_response.edit']);
    const events = (await chatMessageRows(api)).slice(-2).map((o) => o.event);
    expect(events).toEqual(['government_response.added', 'government_response.edited']);
  });

  it('leaves a later stage in place: 20+ signatures stay awaiting debate, a debate outcome stays', async () => {
    const popular = await seedStaffPetition(api, { signatures: 21, status: 'awaiting_debate_in_parliament' });
    expect(body<Petition>(await saveResponse(popular, RESPONSE_BODY)).status).toBe('awaiting_debate_in_parliament');
    const debated = await seedStaffPetition(api, {
      status: 'debated_in_parliament',
      debateInfo: { status: 'debated', date: '2026-02-01', location: 'Westminster Hall', hansardLink: 'https://hansard.parliament.uk/x', notDebatedReason: null },
    });
    expect(body<Petition>(await saveResponse(debated, RESPONSE_BODY)).status).toBe('debated_in_parliament');
    const closed = await seedStaffPetition(api, { status: 'closed', closureReason: 'term_ended' });
    expect(body<Petition>(await saveResponse(closed, RESPONSE_BODY)).status).toBe('closed');
  });

  it('queues a chat message with the response text and audits before and after', async () => {
    const id = await seedStaffPetition(api, { title: 'Lower the voting age' });
    await saveResponse(id, RESPONSE_BODY, cookies.admin);
    const message = JSON.parse((await chatMessageRows(api)).at(-1)?.payload ?? '{}');
    expect(message.embeds[0].title).toBe('Government response added: Lower the voting age');
    expect(message.embeds[0].description).toContain(RESPONSE_BODY.response_text);
    expect(message.allowed_mentions).toEqual({ parse: [] });
    const audit = (await auditRows(api)).at(-1);
    expect(audit?.actor_role).toBe('System Administrator');
    expect(JSON.parse(audit?.before ?? '{}').governmentResponse).toBeNull();
    expect(JSON.parse(audit?.after ?? '{}').governmentResponse).toBe(RESPONSE_BODY.response_text);
  });

  it.each([
    [{ ...RESPONSE_BODY, response_text: '' }, VALIDATION.responseRequired],
    [{ ...RESPONSE_BODY, response_text: '   \n ' }, VALIDATION.responseRequired],
    [{ ...RESPONSE_BODY, added_by_role: '' }, VALIDATION.responseRoleRequired],
    [{ ...RESPONSE_BODY, added_by_role: 'Minister for Silly Walks' }, VALIDATION.responseRoleRequired],
  ])('refuses %j with the spec message and writes nothing', async (payload, detail) => {
    const id = await seedStaffPetition(api);
    const before = await writeSnapshot(api);
    const response = await saveResponse(id, payload);
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(detail);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('refuses a body naming another petition', async () => {
    const id = await seedStaffPetition(api);
    const response = await saveResponse(id, { ...RESPONSE_BODY, petition_id: id + 1000 });
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(PETITION_ID_MISMATCH);
    expect((await petitionRow(api, id))?.government_response).toBeNull();
  });

  it.each(['citizen', 'nonCitizen', 'bannedCitizen'] as const)('is refused to %s (403)', async (role) => {
    const id = await seedStaffPetition(api);
    const response = await saveResponse(id, RESPONSE_BODY, cookies[role]);
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.responseForbidden);
    expect((await petitionRow(api, id))?.government_response).toBeNull();
  });

  it.each(['rank6', 'rank7', 'rank8', 'admin'] as const)('is allowed to %s', async (role) => {
    const id = await seedStaffPetition(api);
    expect((await saveResponse(id, RESPONSE_BODY, cookies[role])).statusCode).toBe(200);
  });

  it('needs a session (401) and a petition (404)', async () => {
    const id = await seedStaffPetition(api);
    expect((await saveResponse(id, RESPONSE_BODY, null)).statusCode).toBe(401);
    const missing = await saveResponse(919191, RESPONSE_BODY);
    expect(missing.statusCode).toBe(404);
    expect(body(missing).detail).toBe(ERRORS.petitionNotFound);
  });
});

describe('DELETE /api/petitions/:id/government-response', () => {
  it('removes the response and its meta, and the status follows', async () => {
    const id = await seedStaffPetition(api, { signatures: 12 });
    await saveResponse(id, RESPONSE_BODY);
    const response = await removeResponse(id);
    expect(response.statusCode).toBe(200);
    const petition = body<Petition>(response);
    expect(petition).toMatchObject({ governmentResponse: null, governmentResponseMeta: null, status: 'awaiting_government_response', version: 3 });
    expect(response.headers.etag).toBe('"3"');
    expect((await auditRows(api)).at(-1)?.action).toBe('government_response.remove');
    const queued = (await chatMessageRows(api)).at(-1);
    expect(queued?.event).toBe('government_response.removed');
  });

  it('answers 409 when there is no response', async () => {
    const id = await seedStaffPetition(api);
    const before = await writeSnapshot(api);
    const response = await removeResponse(id);
    expect(response.statusCode).toBe(409);
    expect(body(response).detail).toBe(ERRORS.noGovernmentResponse);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('is refused to citizens and needs a session', async () => {
    const id = await seedStaffPetition(api, { governmentResponse: 'An old answer', status: 'government_response' });
    const forbidden = await removeResponse(id, cookies.citizen);
    expect(forbidden.statusCode).toBe(403);
    expect(body(forbidden).detail).toBe(ERRORS.responseForbidden);
    const anonymous = await api.request({ method: 'DELETE', url: `/api/petitions/${id}/government-response` });
    expect(anonymous.statusCode).toBe(401);
    expect((await petitionRow(api, id))?.government_response).toBe('An old answer');
  });
});
