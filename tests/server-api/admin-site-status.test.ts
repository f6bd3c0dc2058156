import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { SiteStatus } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { auditRows, body, rolesExcept, seedStaffPetition, seedStaffTerm, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());
afterEach(async () => {
  await api.context.siteSettings.setMaintenance(false);
  await api.context.db.deleteFrom('terms').execute();
  api.setNow(null);
});

function setMaintenance(maintenance: unknown, cookie = cookies.admin) {
  return api.request({ method: 'PUT', url: '/api/site-status', payload: { maintenance }, cookie });
}

describe('GET /api/site-status', () => {
  it('is public; with no current term Parliament is not in session', async () => {
    const response = await api.request({ method: 'GET', url: '/api/site-status' });
    expect(response.statusCode).toBe(200);
    expect(body<SiteStatus>(response)).toEqual({ maintenance: false, inSession: false });
  });

  it('is in session while a term is current by its dates, evaluated at the server clock', async () => {
    await seedStaffTerm(api, { startDate: '2026-01-01', endDate: '2026-12-31', status: null });
    api.setNow(new Date('2026-06-01T12:00:00Z'));
    expect(body<SiteStatus>(await api.request({ method: 'GET', url: '/api/site-status' })).inSession).toBe(true);
    api.setNow(new Date('2027-01-01T12:00:00Z'));
    expect(body<SiteStatus>(await api.request({ method: 'GET', url: '/api/site-status' })).inSession).toBe(false);
  });

  it('a stored status wins over the dates', async () => {
    await seedStaffTerm(api, { startDate: '2026-01-01', endDate: '2026-12-31', status: 'upcoming' });
    api.setNow(new Date('2026-06-01T12:00:00Z'));
    expect(body<SiteStatus>(await api.request({ method: 'GET', url: '/api/site-status' })).inSession).toBe(false);
    await seedStaffTerm(api, { startDate: '2020-01-01', endDate: '2020-12-31', status: 'current' });
    expect(body<SiteStatus>(await api.request({ method: 'GET', url: '/api/site-status' })).inSession).toBe(true);
  });
});

describe('PUT /api/site-status', () => {
  it('switches maintenance on and off, audited', async () => {
    const on = await setMaintenance(true);
    expect(on.statusCode).toBe(200);
    expect(body<SiteStatus>(on)).toEqual({ maintenance: true, inSession: false });
    expect(body<SiteStatus>(await api.request({ method: 'GET', url: '/api/site-status' })).maintenance).toBe(true);
    const audit = (await auditRows(api)).at(-1);
    expect(audit).toMatchObject({ action: 'site.maintenance', target_type: 'site', actor_id: '9000' });
    expect(JSON.parse(audit?.before ?? '{}')).toEqual({ maintenance: false });
    expect(JSON.parse(audit?.after ?? '{}')).toEqual({ maintenance: true });
    const off = await setMaintenance(false);
    expect(body<SiteStatus>(off).maintenance).toBe(false);
  });

  it.each(rolesExcept('admin'))('is refused to %s (403)', async (role) => {
    const response = await setMaintenance(true, cookies[role]);
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.adminOnly);
    expect(await api.context.siteSettings.readMaintenance()).toBe(false);
  });

  it('needs a session and a boolean', async () => {
    expect((await api.request({ method: 'PUT', url: '/api/site-status', payload: { maintenance: true } })).statusCode).toBe(401);
    const before = await writeSnapshot(api);
    for (const payload of [{ maintenance: 'yes' }, { maintenance: 1 }, {}, { maintenance: true, reason: 'x' }]) {
      const response = await api.request({ method: 'PUT', url: '/api/site-status', payload, cookie: cookies.admin });
      expect(response.statusCode).toBe(400);
    }
    expect(await writeSnapshot(api)).toEqual(before);
  });
});

describe('the maintenance gate', () => {
  it.each([...rolesExcept('admin'), 'visitor' as const])('answers 503 to %s while on', async (role) => {
    await setMaintenance(true);
    const cookie = role === 'visitor' ? undefined : cookies[role];
    const response = await api.request({ method: 'GET', url: '/api/parliamentary-terms', ...(cookie ? { cookie } : {}) });
    expect(response.statusCode).toBe(503);
    expect(body(response).detail).toBe(ERRORS.maintenance);
    expect(response.headers['retry-after']).toBeDefined();
  });

  it('refuses staff writes with 503 and writes nothing', async () => {
    const id = await seedStaffPetition(api);
    await setMaintenance(true);
    const before = await writeSnapshot(api);
    const response = await api.request({ method: 'DELETE', url: `/api/petitions/${id}`, cookie: cookies.rank8 });
    expect(response.statusCode).toBe(503);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('lets the administrator through, and keeps site status and sign-in reachable for everyone', async () => {
    await setMaintenance(true);
    expect((await api.request({ method: 'GET', url: '/api/parliamentary-terms', cookie: cookies.admin })).statusCode).toBe(200);
    expect((await api.request({ method: 'GET', url: '/api/ban-stats', cookie: cookies.admin })).statusCode).toBe(200);
    for (const cookie of [undefined, cookies.citizen, cookies.rank8]) {
      const status = await api.request({ method: 'GET', url: '/api/site-status', ...(cookie ? { cookie } : {}) });
      expect(status.statusCode).toBe(200);
      expect(body<SiteStatus>(status).maintenance).toBe(true);
      const session = await api.request({ method: 'GET', url: '/api/auth/session', ...(cookie ? { cookie } : {}) });
      expect(session.statusCode).not.toBe(503);
    }
  });

  it('opens again for everyone when switched off', async () => {
    await setMaintenance(true);
    expect((await api.request({ method: 'GET', url: '/api/parliamentary-terms', cookie: cookies.citizen })).statusCode).toBe(503);
    await setMaintenance(false);
    expect((await api.request({ method: 'GET', url: '/api/parliamentary-terms', cookie: cookies.citizen })).statusCode).toBe(200);
  });
});
