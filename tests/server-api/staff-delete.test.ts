import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_ALL_CONFIRMATION } from '../../src-shared/domain/constants.ts';
import { ERRORS, SUCCESS } from '../../src-shared/domain/messages.ts';
import { parseSearchTerms } from '../../src-server/petitions/search-terms.ts';
import { fullTextMatch } from '../../src-server/petitions/sql-dialect.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { countRows } from '../support/fixtures.ts';
import {
  auditRows,
  body,
  chatMessageRows,
  petitionRow,
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

async function rowsOf(table: 'signatures' | 'petition_tags', petitionId: number): Promise<number> {
  const rows = await api.context.db.selectFrom(table).select('petition_id').where('petition_id', '=', petitionId).execute();
  return rows.length;
}

describe('DELETE /api/petitions/:id', () => {
  it.each(['rank7', 'rank8', 'admin'] as const)('lets %s delete a petition with its signatures and tags', async (role) => {
    const id = await seedStaffPetition(api, { signatures: 3, tags: ['Budget', 'Rights'] });
    expect(await rowsOf('signatures', id)).toBe(3);
    const response = await api.request({ method: 'DELETE', url: `/api/petitions/${id}`, cookie: cookies[role] });
    expect(response.statusCode).toBe(200);
    expect(body(response)).toEqual({ message: SUCCESS.petitionDeleted });
    expect(await petitionRow(api, id)).toBeUndefined();
    expect(await rowsOf('signatures', id)).toBe(0);
    expect(await rowsOf('petition_tags', id)).toBe(0);
  });

  it('removes the petition from the full-text index too', async () => {
    const id = await seedStaffPetition(api, { title: 'Zanzibarian flamingo sanctuary' });
    const terms = parseSearchTerms('flamingo')!;
    const search = () => api.context.db.selectFrom('petitions').select('id').where(fullTextMatch(api.context.dialect, terms)).execute();
    expect((await search()).map((r) => r.id)).toEqual([id]);
    await api.request({ method: 'DELETE', url: `/api/petitions/${id}`, cookie: cookies.admin });
    expect(await search()).toEqual([]);
  });

  it('audits the deleted petition and queues the chat message with the reason', async () => {
    const id = await seedStaffPetition(api, { title: 'Plant more oak trees', signatures: 4 });
    await api.request({ method: 'DELETE', url: `/api/petitions/${id}`, cookie: cookies.rank8 });
    const audit = (await auditRows(api)).at(-1);
    expect(audit).toMatchObject({ action: 'petition.delete', actor_id: '9008', actor_role: 'Prime Minister', target_id: String(id), after: null });
    expect(JSON.parse(audit?.before ?? '{}')).toMatchObject({ id, title: 'Plant more oak trees', signatures: 4 });
    const queued = (await chatMessageRows(api)).at(-1);
    expect(queued?.event).toBe('petition.deleted');
    expect(queued?.state).toBe('pending');
    const payload = JSON.parse(queued?.payload ?? '{}');
    expect(payload.embeds[0].title).toBe('Petition deleted: Plant more oak trees');
    expect(payload.embeds[0].description).toContain('Reason: Administrative action');
    expect(payload.embeds[0].footer.text).toContain('Prime Minister');
  });

  it.each(['rank6', 'citizen', 'nonCitizen', 'bannedCitizen'] as const)('refuses %s with the spec message', async (role) => {
    const id = await seedStaffPetition(api);
    const before = await writeSnapshot(api);
    const response = await api.request({ method: 'DELETE', url: `/api/petitions/${id}`, cookie: cookies[role] });
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.deleteForbidden);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('needs a session (401) and a petition (404)', async () => {
    const id = await seedStaffPetition(api);
    const anonymous = await api.request({ method: 'DELETE', url: `/api/petitions/${id}` });
    expect(anonymous.statusCode).toBe(401);
    const missing = await api.request({ method: 'DELETE', url: '/api/petitions/777777', cookie: cookies.admin });
    expect(missing.statusCode).toBe(404);
    expect(body(missing).detail).toBe('Petition not found');
    expect(await petitionRow(api, id)).toBeDefined();
  });
});

describe('POST /api/petitions/delete-all', () => {
  it('refuses a wrong confirmation and deletes nothing', async () => {
    await seedStaffPetition(api);
    const before = await writeSnapshot(api);
    for (const confirmation of ['', 'delete all petitions', 'DELETE ALL']) {
      const response = await api.request({ method: 'POST', url: '/api/petitions/delete-all', payload: { confirmation }, cookie: cookies.admin });
      expect(response.statusCode).toBe(400);
      expect(body(response).detail).toBe(ERRORS.deleteAllConfirmation);
    }
    const missing = await api.request({ method: 'POST', url: '/api/petitions/delete-all', payload: {}, cookie: cookies.admin });
    expect(missing.statusCode).toBe(400);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('is for the administrator only', async () => {
    await seedStaffPetition(api);
    for (const role of ['rank8', 'rank7', 'citizen'] as const) {
      const response = await api.request({ method: 'POST', url: '/api/petitions/delete-all', payload: { confirmation: DELETE_ALL_CONFIRMATION }, cookie: cookies[role] });
      expect(response.statusCode).toBe(403);
      expect(body(response).detail).toBe(ERRORS.adminOnly);
    }
    expect(await countRows(api, 'petitions')).toBeGreaterThan(0);
  });

  it('deletes every petition, signature and tag, audits the counts and queues one message', async () => {
    await seedStaffPetition(api, { signatures: 2 });
    await seedStaffPetition(api, { signatures: 5 });
    const petitions = await countRows(api, 'petitions');
    const signatures = await countRows(api, 'signatures');
    const queuedBefore = (await chatMessageRows(api)).length;
    const response = await api.request({ method: 'POST', url: '/api/petitions/delete-all', payload: { confirmation: DELETE_ALL_CONFIRMATION }, cookie: cookies.admin });
    expect(response.statusCode).toBe(200);
    expect(body(response)).toEqual({ deleted: petitions });
    expect(await countRows(api, 'petitions')).toBe(0);
    expect(await countRows(api, 'signatures')).toBe(0);
    expect(await countRows(api, 'petition_tags')).toBe(0);
    const audit = (await auditRows(api)).at(-1);
    expect(audit?.action).toBe('petition.delete_all');
    expect(JSON.parse(audit?.before ?? '{}')).toEqual({ petitions, signatures });
    const queued = await chatMessageRows(api);
    expect(queued.length).toBe(queuedBefore + 1);
    expect(queued.at(-1)?.event).toBe('petition.deleted_all');

    const empty = await api.request({ method: 'POST', url: '/api/petitions/delete-all', payload: { confirmation: DELETE_ALL_CONFIRMATION }, cookie: cookies.admin });
    expect(body(empty)).toEqual({ deleted: 0 });
    expect((await chatMessageRows(api)).length).toBe(queuedBefore + 1);
  });
});
