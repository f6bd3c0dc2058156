import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { AuditEntry, AuditLogPage } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { body, RESPONSE_BODY, rolesExcept, seedStaffPetition, signInEveryone, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
  // Five audited actions, a second apart.
  for (let i = 0; i < 5; i += 1) {
    api.setNow(new Date(Date.UTC(2026, 4, 1, 10, 0, i)));
    await api.request({ method: 'PUT', url: `/api/bans/80000${i}`, payload: { reason: `Reason ${i}` }, cookie: cookies.admin });
  }
  api.setNow(null);
});
afterAll(async () => api.close());

function readLog(query = '', cookie = cookies.admin) {
  return api.request({ method: 'GET', url: `/api/audit-log${query}`, cookie });
}

describe('GET /api/audit-log', () => {
  it('lists entries newest first with actor, role, target, before, after and time', async () => {
    const response = await readLog();
    expect(response.statusCode).toBe(200);
    const { items } = body<{ items: AuditEntry[] }>(response);
    expect(items.map((e) => e.target_id)).toEqual(['800004', '800003', '800002', '800001', '800000']);
    expect(items[0]).toEqual({
      id: expect.any(Number),
      actor_id: '9000',
      actor_name: 'System Administrator',
      actor_role: 'System Administrator',
      action: 'ban.create',
      target_type: 'ban',
      target_id: '800004',
      before: null,
      after: { user_id: '800004', reason: 'Reason 4', banned_by: '9000', banned_at: '2026-05-01T10:00:04.000Z' },
      at: '2026-05-01T10:00:04.000Z',
      made_at: null,
    });
  });

  it('pages with limit and before', async () => {
    const first = body<{ items: AuditEntry[] }>(await readLog('?limit=2')).items;
    expect(first.map((e) => e.target_id)).toEqual(['800004', '800003']);
    const next = body<{ items: AuditEntry[] }>(await readLog(`?limit=2&before=${first.at(-1)?.id}`)).items;
    expect(next.map((e) => e.target_id)).toEqual(['800002', '800001']);
    const last = body<{ items: AuditEntry[] }>(await readLog(`?limit=2&before=${next.at(-1)?.id}`)).items;
    expect(last.map((e) => e.target_id)).toEqual(['800000']);
  });

  it('records the role the actor held, not the administrator’s', async () => {
    const id = await seedStaffPetition(api);
    await api.request({ method: 'DELETE', url: `/api/petitions/${id}`, cookie: cookies.rank7 });
    const [latest] = body<{ items: AuditEntry[] }>(await readLog('?limit=1')).items;
    expect(latest).toMatchObject({ actor_id: '9007', actor_role: 'Leader of the House of Commons', action: 'petition.delete', target_id: String(id) });
  });

  it('a refused action leaves no audit entry', async () => {
    const id = await seedStaffPetition(api, { version: 3 });
    const before = body<{ items: AuditEntry[] }>(await readLog('?limit=1')).items[0]?.id;
    const refused = await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'closed' }, headers: { 'if-match': '"2"' }, cookie: cookies.admin });
    expect(refused.statusCode).toBe(412);
    expect(body<{ items: AuditEntry[] }>(await readLog('?limit=1')).items[0]?.id).toBe(before);
  });

  it.each(['?limit=0', '?limit=1000', '?limit=abc', '?before=-1', '?before=x', '?sort=asc'])('refuses the query %s with 400', async (query) => {
    const response = await readLog(query);
    expect(response.statusCode).toBe(400);
    expect(typeof body(response).detail).toBe('string');
  });

  it.each(rolesExcept('admin'))('is refused to %s (403)', async (role) => {
    const response = await readLog('', cookies[role]);
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.adminOnly);
  });

  it('needs a session (401)', async () => {
    expect((await api.request({ method: 'GET', url: '/api/audit-log' })).statusCode).toBe(401);
  });
});

describe('the audit log screen’s reads: filters, cursor, people and CSV', () => {
  let filterApi: TestApi;
  let admin: string;
  let rank6: string;
  let rank7: string;
  let answered: number;
  let deleted: number;

  const page = (query: string) => filterApi.request({ method: 'GET', url: `/api/audit-log${query}`, cookie: admin });
  const ids = async (query: string) => body<AuditLogPage>(await page(query)).items.map((e) => e.action);

  beforeAll(async () => {
    filterApi = await startTestApi();
    admin = await filterApi.signInAs('admin');
    rank6 = await filterApi.signInAs('rank6');
    rank7 = await filterApi.signInAs('rank7');
    answered = await seedStaffPetition(filterApi, { signatures: 12, status: 'awaiting_government_response' });
    deleted = await seedStaffPetition(filterApi);
    // 1 May 2026 11:00 in London (BST): a ban by the administrator.
    filterApi.setNow(new Date('2026-05-01T10:00:00Z'));
    await filterApi.request({ method: 'PUT', url: '/api/bans/700001', payload: { reason: 'Spam' }, cookie: admin });
    // 2 May 2026 00:30 in London, still 1 May in UTC: the minister answers.
    filterApi.setNow(new Date('2026-05-01T23:30:00Z'));
    await filterApi.request({ method: 'POST', url: `/api/petitions/${answered}/government-response`, payload: RESPONSE_BODY, cookie: rank6 });
    // 3 May: the Leader deletes a petition.
    filterApi.setNow(new Date('2026-05-03T09:00:00Z'));
    await filterApi.request({ method: 'DELETE', url: `/api/petitions/${deleted}`, cookie: rank7 });
    filterApi.setNow(null);
  });
  afterAll(async () => filterApi.close());

  it('names each actor with the role they held', async () => {
    const { items } = body<AuditLogPage>(await page(''));
    expect(items.map((e) => [e.actor_name, e.actor_role])).toEqual([
      ['Leader of the House', 'Leader of the House of Commons'],
      ['Cabinet Minister', 'Cabinet Minister'],
      ['System Administrator', 'System Administrator'],
    ]);
  });

  it('filters by who, what, petition and UK calendar day, and combines them', async () => {
    expect(await ids('?actor=9006')).toEqual(['government_response.add']);
    expect(await ids('?action=petition.delete')).toEqual(['petition.delete']);
    expect(await ids(`?petition=${answered}`)).toEqual(['government_response.add']);
    expect(await ids(`?petition=${deleted}&actor=9006`)).toEqual([]);
    // 23:30 UTC on 1 May is 2 May in London.
    expect(await ids('?from=2026-05-02&to=2026-05-02')).toEqual(['government_response.add']);
    expect(await ids('?to=2026-05-01')).toEqual(['ban.create']);
    expect(await ids('?from=2026-05-02')).toEqual(['petition.delete', 'government_response.add']);
    expect(await ids('?actor=system')).toEqual([]);
  });

  it('pages through everything with nextCursor, then says there is no more', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const answer: AuditLogPage = body<AuditLogPage>(await page(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`));
      seen.push(...answer.items.map((e) => e.action));
      cursor = answer.nextCursor;
      pages += 1;
    }
    expect(seen).toEqual(['petition.delete', 'government_response.add', 'ban.create']);
    expect(pages).toBe(3);
    expect(body<AuditLogPage>(await page('?limit=3')).nextCursor).toBeNull();
  });

  it('lists the people in the log for its filter, by name', async () => {
    const response = await filterApi.request({ method: 'GET', url: '/api/audit-log/actors', cookie: admin });
    expect(response.statusCode).toBe(200);
    expect(body<{ items: unknown[] }>(response).items).toEqual([
      { id: '9006', name: 'Cabinet Minister', role: 'Cabinet Minister' },
      { id: '9007', name: 'Leader of the House', role: 'Leader of the House of Commons' },
      { id: '9000', name: 'System Administrator', role: 'System Administrator' },
    ]);
    expect((await filterApi.request({ method: 'GET', url: '/api/audit-log/actors', cookie: rank7 })).statusCode).toBe(403);
  });

  it('exports every matching entry as CSV, with formula-looking cells defused', async () => {
    // A name a spreadsheet would run as a formula.
    const sneaky = await filterApi.signIn({ id: '9100', username: 'sneaky', displayName: '=HYPERLINK("http://x")', avatarUrl: null, citizenRank: 1, governmentRank: 6 });
    await filterApi.request({ method: 'POST', url: `/api/petitions/${answered}/government-response`, payload: RESPONSE_BODY, cookie: sneaky });
    const response = await filterApi.request({ method: 'GET', url: '/api/audit-log.csv?action=government_response.edit', cookie: admin });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit-log.csv"');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,applied_at,made_at,actor_id,actor_name,actor_role,action,action_label,target_type,target_id,before,after');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,9100,"'=HYPERLINK(""http://x"")",Cabinet Minister,government_response.edit,Government response edited,petition,${answered},`);
    const all = await filterApi.request({ method: 'GET', url: '/api/audit-log.csv', cookie: admin });
    expect(all.body.trimEnd().split('\r\n')).toHaveLength(1 + 4);
    const none = await filterApi.request({ method: 'GET', url: '/api/audit-log.csv?actor=system', cookie: admin });
    expect(none.body).toBe(`${lines[0]}\r\n`);
    expect((await filterApi.request({ method: 'GET', url: '/api/audit-log.csv', cookie: rank6 })).statusCode).toBe(403);
    expect((await filterApi.request({ method: 'GET', url: '/api/audit-log.csv' })).statusCode).toBe(401);
  });

  it.each([
    ['?action=petition.explode', 'action'],
    ['?actor=alice', 'actor'],
    ['?petition=0', 'petition'],
    ['?from=2026-02-30', 'from'],
    ['?from=2026-5-1', 'from'],
    ['?from=2026-05-03&to=2026-05-01', 'The end date must not be before the start date'],
    ['?cursor=5&before=5', 'cursor or before'],
    ['?cursor=abc', 'cursor'],
  ])('refuses %s with a clear 400', async (query, words) => {
    const response = await page(query);
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(body(response))).toContain(words);
    // The export takes the same filters (and no paging).
    if (!/cursor/.test(query)) {
      const csv = await filterApi.request({ method: 'GET', url: `/api/audit-log.csv${query}`, cookie: admin });
      expect(csv.statusCode).toBe(400);
      expect(csv.headers['content-type']).toContain('application/problem+json');
    }
  });
});
