import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PETITION_STATUSES } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { auditRows, body, petitionRow, rolesExcept, seedStaffPetition, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());

function setStatus(id: number | string, status: unknown, cookie = cookies.admin) {
  return api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status }, cookie });
}

describe('PATCH /api/petitions/:id/status', () => {
  it.each(PETITION_STATUSES)('sets %s and bumps the version', async (status) => {
    const id = await seedStaffPetition(api, { status: status === 'open' ? 'closed' : 'open' });
    const response = await setStatus(id, status);
    expect(response.statusCode).toBe(200);
    const petition = body<Petition>(response);
    expect(petition).toMatchObject({ id, status, version: 2 });
    expect(response.headers.etag).toBe('"2"');
  });

  it('closing records closed_at; closing again keeps the first closure', async () => {
    const id = await seedStaffPetition(api);
    api.setNow(new Date('2026-05-01T09:00:00Z'));
    const closed = body<Petition>(await setStatus(id, 'closed'));
    expect(closed.closedAt).toBe('2026-05-01T09:00:00.000Z');
    expect(closed.closureReason).toBeNull();
    api.setNow(new Date('2026-05-02T09:00:00Z'));
    const again = body<Petition>(await setStatus(id, 'closed'));
    expect(again.closedAt).toBe('2026-05-01T09:00:00.000Z');
    expect(again.version).toBe(3);
    api.setNow(null);
  });

  it('reopening clears the closure reason and time', async () => {
    const id = await seedStaffPetition(api, {
      status: 'closed',
      closureReason: 'three_weeks_insufficient_signatures',
      closedAt: '2026-04-01T00:00:00.000Z',
    });
    const reopened = body<Petition>(await setStatus(id, 'awaiting_government_response'));
    expect(reopened).toMatchObject({ status: 'awaiting_government_response', closureReason: null, closedAt: null });
    const row = await petitionRow(api, id);
    expect(row?.closure_reason).toBeNull();
    expect(row?.closed_at).toBeNull();
  });

  it('audits the change with the petition before and after', async () => {
    const id = await seedStaffPetition(api, { status: 'open' });
    await setStatus(id, 'debated_in_parliament');
    const audit = (await auditRows(api)).at(-1);
    expect(audit).toMatchObject({ action: 'petition.set_status', target_type: 'petition', target_id: String(id), actor_id: '9000' });
    expect(JSON.parse(audit?.before ?? '{}')).toMatchObject({ status: 'open', version: 1 });
    expect(JSON.parse(audit?.after ?? '{}')).toMatchObject({ status: 'debated_in_parliament', version: 2 });
  });

  it.each([['archived'], [''], [7], [null]])('refuses status %j with 400 and writes nothing', async (status) => {
    const id = await seedStaffPetition(api);
    const before = await writeSnapshot(api);
    const response = await setStatus(id, status);
    expect(response.statusCode).toBe(400);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('answers 404 for an unknown petition', async () => {
    const response = await setStatus(424242, 'closed');
    expect(response.statusCode).toBe(404);
    expect(body(response).detail).toBe(ERRORS.petitionNotFound);
  });

  it.each(rolesExcept('admin'))('is refused to %s (403)', async (role) => {
    const id = await seedStaffPetition(api);
    const response = await setStatus(id, 'closed', cookies[role]);
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.adminOnly);
    expect((await petitionRow(api, id))?.status).toBe('open');
  });

  it('needs a session (401)', async () => {
    const id = await seedStaffPetition(api);
    const response = await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'closed' } });
    expect(response.statusCode).toBe(401);
  });
});
