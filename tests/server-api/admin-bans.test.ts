import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import type { Ban, BanStats } from '../../src-shared/domain/schemas.ts';
import { ADMINISTRATOR_NOT_BANNABLE, USER_UNBANNED } from '../../src-server/staff/ban-routes.ts';
import { isBanned } from '../../src-server/bans/bans-repository.ts';
import { ADMIN_ID, ROLE_PROFILES, startTestApi, type TestApi } from '../support/api-harness.ts';
import { auditRows, body, rolesExcept, seedStaffTerm, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());

function ban(userId: string, reason: unknown, cookie = cookies.admin) {
  return api.request({ method: 'PUT', url: `/api/bans/${userId}`, payload: { reason }, cookie });
}

describe('bans', () => {
  it('bans a user (201), then re-banning only changes the reason (200); both audited', async () => {
    api.setNow(new Date('2026-04-01T10:00:00Z'));
    const first = await ban('700001', 'Spam petitions');
    api.setNow(new Date('2026-04-02T10:00:00Z'));
    const second = await ban('700001', 'Repeated spam');
    api.setNow(null);
    expect(first.statusCode).toBe(201);
    expect(body<Ban>(first)).toEqual({ user_id: '700001', reason: 'Spam petitions', banned_by: ADMIN_ID, banned_at: '2026-04-01T10:00:00.000Z' });
    expect(second.statusCode).toBe(200);
    expect(body<Ban>(second)).toEqual({ user_id: '700001', reason: 'Repeated spam', banned_by: ADMIN_ID, banned_at: '2026-04-01T10:00:00.000Z' });
    const [created, updated] = (await auditRows(api)).filter((a) => a.target_id === '700001');
    expect(created).toMatchObject({ action: 'ban.create', target_type: 'ban', before: null });
    expect(updated?.action).toBe('ban.update');
    expect(JSON.parse(updated?.before ?? '{}').reason).toBe('Spam petitions');
    expect(JSON.parse(updated?.after ?? '{}').reason).toBe('Repeated spam');
    expect(await isBanned(api.context.db, '700001')).toBe(true);
  });

  it('lists bans newest first and counts them', async () => {
    api.setNow(new Date('2026-04-10T10:00:00Z'));
    await ban('700010', 'Older');
    api.setNow(new Date('2026-04-11T10:00:00Z'));
    await ban('700011', 'Newer');
    const list = body<Ban[]>(await api.request({ method: 'GET', url: '/api/bans', cookie: cookies.admin }));
    const ids = list.map((b) => b.user_id);
    expect(ids.indexOf('700011')).toBeLessThan(ids.indexOf('700010'));
    const stats = await api.request({ method: 'GET', url: '/api/ban-stats', cookie: cookies.admin });
    api.setNow(null);
    expect(stats.statusCode).toBe(200);
    expect(body<BanStats>(stats)).toEqual({
      total_banned_users: list.length,
      service_available: true,
      cache_info: { source: 'database', generated_at: '2026-04-11T10:00:00.000Z' },
      error: null,
    });
  });

  it('lifts a ban; lifting it again is 404', async () => {
    await ban('700020', 'Abuse');
    const lifted = await api.request({ method: 'DELETE', url: '/api/bans/700020', cookie: cookies.admin });
    expect(lifted.statusCode).toBe(200);
    expect(body(lifted)).toEqual({ message: USER_UNBANNED });
    expect(await isBanned(api.context.db, '700020')).toBe(false);
    const audit = (await auditRows(api)).at(-1);
    expect(audit).toMatchObject({ action: 'ban.remove', target_id: '700020', after: null });
    const again = await api.request({ method: 'DELETE', url: '/api/bans/700020', cookie: cookies.admin });
    expect(again.statusCode).toBe(404);
    expect(body(again).detail).toBe(ERRORS.notBanned);
  });

  it.each([
    ['', VALIDATION.banReasonRequired],
    ['    ', VALIDATION.banReasonRequired],
  ])('refuses the reason %j with the message', async (reason, detail) => {
    const before = await writeSnapshot(api);
    const response = await ban('700030', reason);
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(detail);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('refuses bad user ids, a missing reason and banning the administrator', async () => {
    const before = await writeSnapshot(api);
    for (const url of ['/api/bans/abc', '/api/bans/-5', '/api/bans/123456789012345678901']) {
      expect((await api.request({ method: 'PUT', url, payload: { reason: 'x' }, cookie: cookies.admin })).statusCode).toBe(400);
    }
    expect((await api.request({ method: 'PUT', url: '/api/bans/700031', payload: {}, cookie: cookies.admin })).statusCode).toBe(400);
    expect((await ban('700031', 12)).statusCode).toBe(400);
    const self = await ban(ADMIN_ID, 'Oops');
    expect(self.statusCode).toBe(400);
    expect(body(self).detail).toBe(ADMINISTRATOR_NOT_BANNABLE);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it.each(rolesExcept('admin'))('every ban call is refused to %s (403)', async (role) => {
    const cookie = cookies[role];
    const calls = [
      api.request({ method: 'GET', url: '/api/ban-stats', cookie }),
      api.request({ method: 'GET', url: '/api/bans', cookie }),
      api.request({ method: 'PUT', url: '/api/bans/700040', payload: { reason: 'x' }, cookie }),
      api.request({ method: 'DELETE', url: `/api/bans/${ROLE_PROFILES.bannedCitizen.id}`, cookie }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(403);
      expect(body(response).detail).toBe(ERRORS.adminOnly);
    }
    expect(await isBanned(api.context.db, '700040')).toBe(false);
    expect(await isBanned(api.context.db, ROLE_PROFILES.bannedCitizen.id)).toBe(true);
  });

  it('every ban call needs a session (401)', async () => {
    for (const [method, url] of [['GET', '/api/ban-stats'], ['GET', '/api/bans'], ['PUT', '/api/bans/1'], ['DELETE', '/api/bans/1']] as const) {
      const response = await api.request({ method, url, ...(method === 'PUT' ? { payload: { reason: 'x' } } : {}) });
      expect(response.statusCode).toBe(401);
    }
  });

  it('a user banned through the API cannot create petitions', async () => {
    await seedStaffTerm(api, { name: 'Current', startDate: '2000-01-01', endDate: '2999-12-31', status: 'current' });
    const citizen = await api.signIn({ ...ROLE_PROFILES.citizen, id: '700050', username: 'soon-banned' });
    await ban('700050', 'Spam');
    const response = await api.request({
      method: 'POST',
      url: '/api/petitions',
      payload: { title: 'A fair petition title', description: 'A description that is long enough to pass validation.', tags: ['Budget'] },
      cookie: citizen,
    });
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.banned);
  });
});
