/**
 * Offices tied to a rank: Prime Minister (rank 8) and Leader of the House of Commons (rank 7) are
 * offered only to that rank and the administrator, and the server refuses anyone else with 400.
 * GET /api/me/last-office gives the office a member chose for their latest response.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINISTERIAL_OFFICES } from '../../src-shared/domain/constants.ts';
import { mayUseOffice, officesFor, preselectedOffice, rankOffice } from '../../src-shared/rules/offices.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { body, petitionRow, seedStaffPetition, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());

const respond = async (role: Role, office: string) => {
  const id = await seedStaffPetition(api, { signatures: 12, status: 'awaiting_government_response' });
  const response = await api.request({
    method: 'POST',
    url: `/api/petitions/${id}/government-response`,
    payload: { response_text: 'The Government agrees.', added_by_role: office },
    cookie: cookies[role],
  });
  return { id, response };
};

describe('offices tied to a rank', () => {
  it.each([
    ['rank6', 'Prime Minister'],
    ['rank6', 'Leader of the House of Commons'],
    ['rank7', 'Prime Minister'],
    ['rank8', 'Leader of the House of Commons'],
  ] as const)('refuses %s responding as %s with 400, naming the office, and writes nothing', async (role, office) => {
    const before = await writeSnapshot(api);
    const { id, response } = await respond(role, office);
    expect(response.statusCode).toBe(400);
    const problem = body<{ detail: string; errors: { field: string; message: string }[] }>(response);
    expect(problem.detail).toBe(`Only the ${office} (rank ${office === 'Prime Minister' ? 8 : 7}) or the System Administrator can respond as ${office}. Choose your own office.`);
    expect(problem.errors).toEqual([{ field: 'added_by_role', message: problem.detail }]);
    expect((await petitionRow(api, id))?.government_response).toBeNull();
    // Only the seeded petition differs.
    const after = await writeSnapshot(api);
    expect(after.audit_log).toBe(before.audit_log);
  });

  it.each([
    ['rank8', 'Prime Minister'],
    ['rank7', 'Leader of the House of Commons'],
    ['admin', 'Prime Minister'],
    ['admin', 'Leader of the House of Commons'],
    ['rank6', 'Home Secretary'],
    ['rank8', 'Foreign Secretary'],
  ] as const)('lets %s respond as %s', async (role, office) => {
    const { id, response } = await respond(role, office);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse((await petitionRow(api, id))!.government_response_meta!)).toMatchObject({ addedByRole: office });
  });

  it('offers each rank its list, in the list’s order, and preselects the rank’s own office', () => {
    const rank = (government_rank: number) => ({ rank: government_rank, government_rank, can_sign: true });
    const admin = { rank: 9, government_rank: 0, can_sign: true };
    expect(officesFor(rank(6))).toEqual(MINISTERIAL_OFFICES.filter((o) => o !== 'Prime Minister' && o !== 'Leader of the House of Commons'));
    expect(officesFor(rank(7))).toEqual(MINISTERIAL_OFFICES.filter((o) => o !== 'Prime Minister'));
    expect(officesFor(rank(8))).toEqual(MINISTERIAL_OFFICES.filter((o) => o !== 'Leader of the House of Commons'));
    expect(officesFor(admin)).toEqual([...MINISTERIAL_OFFICES]);
    expect([rankOffice(rank(6)), rankOffice(rank(7)), rankOffice(rank(8)), rankOffice(admin)]).toEqual([null, 'Leader of the House of Commons', 'Prime Minister', null]);
    expect(preselectedOffice(rank(8), null)).toBe('Prime Minister');
    expect(preselectedOffice(rank(8), 'Foreign Secretary')).toBe('Foreign Secretary');
    // A remembered office the member may no longer use (a rank lost) gives way.
    expect(preselectedOffice(rank(6), 'Prime Minister')).toBe('');
    expect(preselectedOffice(rank(7), 'Prime Minister')).toBe('Leader of the House of Commons');
    expect(mayUseOffice(rank(6), 'Not an office')).toBe(false);
    expect(mayUseOffice(null, 'Home Secretary')).toBe(false);
  });
});

describe('GET /api/me/last-office', () => {
  it('is the office of the member’s latest response, added or edited', async () => {
    const fresh = await api.signIn({ id: '9200', username: 'newminister', displayName: 'New Minister', avatarUrl: null, citizenRank: 1, governmentRank: 6 });
    const last = () => api.request({ method: 'GET', url: '/api/me/last-office', cookie: fresh });
    expect(body(await last())).toEqual({ office: null });
    const id = await seedStaffPetition(api, { signatures: 12, status: 'awaiting_government_response' });
    const save = (office: string) =>
      api.request({ method: 'POST', url: `/api/petitions/${id}/government-response`, payload: { response_text: 'Yes.', added_by_role: office }, cookie: fresh });
    expect((await save('Home Secretary')).statusCode).toBe(200);
    expect(body(await last())).toEqual({ office: 'Home Secretary' });
    expect((await save('Attorney General')).statusCode).toBe(200);
    expect(body(await last())).toEqual({ office: 'Attorney General' });
    // A refused save changes nothing; someone else's response is theirs.
    expect((await save('Prime Minister')).statusCode).toBe(400);
    await respond('rank8', 'Prime Minister');
    expect(body(await last())).toEqual({ office: 'Attorney General' });
  });

  it.each(['nonCitizen', 'citizen', 'bannedCitizen'] as const)('is refused to %s (403)', async (role) => {
    expect((await api.request({ method: 'GET', url: '/api/me/last-office', cookie: cookies[role] })).statusCode).toBe(403);
  });

  it('needs a session (401)', async () => {
    expect((await api.request({ method: 'GET', url: '/api/me/last-office' })).statusCode).toBe(401);
  });
});
