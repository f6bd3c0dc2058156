import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { AuditEntry } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { body, rolesExcept, seedPetition, signInEveryone, type Role } from './staff-fixtures.ts';

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
      actor_role: 'System Administrator',
      action: 'ban.create',
      target_type: 'ban',
      target_id: '800004',
      before: null,
      after: { user_id: '800004', reason: 'Reason 4', banned_by: '9000', banned_at: '2026-05-01T10:00:04.000Z' },
      at: '2026-05-01T10:00:04.000Z',
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
    const id = await seedPetition(api);
    await api.request({ method: 'DELETE', url: `/api/petitions/${id}`, cookie: cookies.rank7 });
    const [latest] = body<{ items: AuditEntry[] }>(await readLog('?limit=1')).items;
    expect(latest).toMatchObject({ actor_id: '9007', actor_role: 'Leader of the House of Commons', action: 'petition.delete', target_id: String(id) });
  });

  it('a refused action leaves no audit entry', async () => {
    const id = await seedPetition(api, { version: 3 });
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
