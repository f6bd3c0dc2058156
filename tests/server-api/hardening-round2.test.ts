/**
 * Hardening, round 2 (issue #26), request level on the engine under test:
 * - a request is judged by its bearer token or by its cookie, never one falling back to the other;
 *   each session works only the way its client signed in (docs/limits.md#credentials);
 * - one Idempotency-Key on two items of a bulk call is 422 naming the item, and nothing is applied;
 * - the term preview refuses what the edit refuses (400 for days that do not exist, 409 for a taken name);
 * - switching maintenance while reads run: the switching node answers 503 as soon as the switch answered;
 * - credential-like URL parameters never reach the logs; TRUST_PROXY and rate-limit settings are checked at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_REUSED_TYPE } from '../../src-shared/console/outbox.ts';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { formatRateLimit, parseRateLimit, RATE_LIMITS } from '../../src-shared/rules/limits.ts';
import { loadConfig } from '../../src-server/config.ts';
import { parseTrustedProxies } from '../../src-server/http/client-address.ts';
import { redactUrlCredentials } from '../../src-server/http/log-redaction.ts';
import { MALFORMED_AUTHORIZATION } from '../../src-server/http/viewer.ts';
import { CALENDAR_DATE_ERROR } from '../../src-server/staff/calendar-date.ts';
import { BULK_STATUS_PATH, repeatedKeyDetail } from '../../src-server/staff/bulk-status-routes.ts';
import { ROLE_PROFILES, startTestApi, type TestApi } from '../support/api-harness.ts';
import { insertPetition, insertTerm } from './public-test-data.ts';

let api: TestApi;
let adminCookie = '';
let citizenCookie = '';
let adminWebToken = '';
let citizenConsoleToken = '';
let adminConsoleToken = '';

const tokenOf = (cookie: string) => cookie.split('=')[1]!;

beforeAll(async () => {
  api = await startTestApi();
  adminCookie = await api.signInAs('admin');
  citizenCookie = await api.signInAs('citizen');
  adminWebToken = tokenOf(adminCookie);
  citizenConsoleToken = (await api.context.sessions.create(ROLE_PROFILES.citizen.id, 'console')).token;
  adminConsoleToken = (await api.context.sessions.create(ROLE_PROFILES.admin.id, 'console')).token;
});

afterAll(async () => api?.close());

async function maintenanceIsOn(): Promise<boolean> {
  return api.context.siteSettings.readMaintenance();
}

describe('bearer token or cookie, never both', () => {
  it('refuses a malformed Authorization header with 401 instead of using the cookie (Bearer + non-breaking space)', async () => {
    const response = await api.app.inject({
      method: 'PUT',
      url: '/api/site-status',
      headers: { authorization: 'Bearer \u00a0', cookie: adminCookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: JSON.stringify({ maintenance: true }),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ detail: MALFORMED_AUTHORIZATION });
    expect(await maintenanceIsOn()).toBe(false);
    for (const authorization of ['Bearer', 'Basic YWRtaW46YWRtaW4=', `Bearer ${adminConsoleToken} extra`, `Bearer  ${adminConsoleToken}`, 'Bearer abc']) {
      const read = await api.app.inject({ method: 'GET', url: '/api/petitions', headers: { authorization, cookie: adminCookie } });
      expect(read.statusCode, authorization).toBe(401);
    }
  });

  it('judges a well-formed bearer token alone: the cookie beside it is never read', async () => {
    // A citizen's console token with the administrator's cookie: the citizen acts, and is refused.
    const refused = await api.app.inject({
      method: 'PUT',
      url: '/api/site-status',
      headers: { authorization: `Bearer ${citizenConsoleToken}`, cookie: adminCookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ maintenance: true }),
    });
    expect(refused.statusCode).toBe(403);
    expect(await maintenanceIsOn()).toBe(false);
    const who = await api.app.inject({ method: 'GET', url: '/api/auth/session', headers: { authorization: `Bearer ${citizenConsoleToken}`, cookie: adminCookie } });
    expect(who.json().user).toMatchObject({ id: ROLE_PROFILES.citizen.id });
  });

  it('takes a web session only as a cookie and a console session only as a bearer token', async () => {
    const webAsBearer = await api.app.inject({ method: 'GET', url: '/api/auth/session', headers: { authorization: `Bearer ${adminWebToken}` } });
    expect(webAsBearer.json().user).toBeNull();
    const protectedWithWebBearer = await api.app.inject({ method: 'GET', url: `/api/auth/roblox/user/${ROLE_PROFILES.admin.id}`, headers: { authorization: `Bearer ${adminWebToken}` } });
    expect(protectedWithWebBearer.statusCode).toBe(401);

    const consoleAsCookie = await api.request({ method: 'GET', url: '/api/auth/session', cookie: `${api.context.cookie.name}=${adminConsoleToken}` });
    expect(consoleAsCookie.json().user).toBeNull();
    const writeWithConsoleCookie = await api.request({ method: 'PUT', url: '/api/site-status', cookie: `${api.context.cookie.name}=${adminConsoleToken}`, payload: { maintenance: true } });
    expect(writeWithConsoleCookie.statusCode).toBe(401);
    expect(await maintenanceIsOn()).toBe(false);

    // Each the right way round works (the bearer call needs no CSRF header).
    const cookieSession = await api.request({ method: 'GET', url: '/api/auth/session', cookie: adminCookie });
    expect(cookieSession.json().user).toMatchObject({ id: ROLE_PROFILES.admin.id });
    const bearerRead = await api.app.inject({ method: 'GET', url: `/api/auth/roblox/user/${ROLE_PROFILES.admin.id}`, headers: { authorization: `bearer ${adminConsoleToken}` } });
    expect(bearerRead.statusCode).toBe(200);
  });

  it('still asks a cookie call for the CSRF header', async () => {
    const response = await api.app.inject({ method: 'PUT', url: '/api/site-status', headers: { cookie: adminCookie, 'content-type': 'application/json' }, payload: JSON.stringify({ maintenance: true }) });
    expect(response.statusCode).toBe(403);
    expect(response.json().detail).toBe(ERRORS.csrf);
  });
});

describe('bulk status: one key on two items', () => {
  it('answers 422 naming the second item, applies nothing, and a corrected call goes through', async () => {
    const first = await insertPetition(api.context.db);
    const second = await insertPetition(api.context.db);
    const items = [
      { petitionId: first.id, status: 'closed', idempotencyKey: 'same-key' },
      { petitionId: second.id, status: 'closed', idempotencyKey: 'same-key' },
    ];
    const response = await api.request({ method: 'POST', url: BULK_STATUS_PATH, cookie: adminCookie, payload: { items } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ type: IDEMPOTENCY_KEY_REUSED_TYPE, detail: repeatedKeyDetail(2, second.id, 1), item: 1, petitionId: second.id });
    expect(response.headers['retry-after']).toBeUndefined();
    for (const petition of [first, second]) {
      const row = await api.context.db.selectFrom('petitions').select('status').where('id', '=', petition.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('open');
    }
    // The same call again gets the same answer (never "in progress, retry").
    expect((await api.request({ method: 'POST', url: BULK_STATUS_PATH, cookie: adminCookie, payload: { items } })).statusCode).toBe(422);
    const fixed = await api.request({
      method: 'POST',
      url: BULK_STATUS_PATH,
      cookie: adminCookie,
      payload: { items: [items[0], { ...items[1], idempotencyKey: 'other-key' }] },
    });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().results.map((r: { result: string }) => r.result)).toEqual(['applied', 'applied']);
  });
});

describe('term preview runs the checks of the edit', () => {
  it('refuses days that do not exist (400) and a name another term has (409), as the PATCH does', async () => {
    const term = await insertTerm(api.context.db, { name: 'Preview term', startDate: '2030-01-01', endDate: '2030-12-31' });
    await insertTerm(api.context.db, { name: 'Taken name', startDate: '2031-01-01', endDate: '2031-12-31' });
    for (const [body, status, detail] of [
      [{ endDate: '2030-02-30' }, 400, CALENDAR_DATE_ERROR],
      [{ startDate: '2029-13-01' }, 400, CALENDAR_DATE_ERROR],
      [{ name: ' taken NAME ' }, 409, VALIDATION.termNameTaken],
      [{ startDate: '2031-01-01', endDate: '2030-06-01' }, 400, VALIDATION.termDatesOrder],
    ] as const) {
      const preview = await api.request({ method: 'POST', url: `/api/parliamentary-terms/${term}/preview`, cookie: adminCookie, payload: body });
      const edit = await api.request({ method: 'PATCH', url: `/api/parliamentary-terms/${term}`, cookie: adminCookie, payload: body });
      expect([preview.statusCode, edit.statusCode], JSON.stringify(body)).toEqual([status, status]);
      expect(preview.json().detail).toBe(detail);
      expect(edit.json().detail).toBe(detail);
    }
    const fine = await api.request({ method: 'POST', url: `/api/parliamentary-terms/${term}/preview`, cookie: adminCookie, payload: { name: 'Preview term renamed' } });
    expect(fine.statusCode).toBe(200);
  });
});

describe('maintenance switched while reads run', () => {
  it('answers 503 on the switching node as soon as the switch has answered (10 rounds on and off)', async () => {
    // Detail reads: not rate limited, and each asks whether maintenance is on.
    const petition = await insertPetition(api.context.db);
    const read = () => api.request({ method: 'GET', url: `/api/petitions/${petition.id}`, cookie: citizenCookie });
    let reading = true;
    const readers = Array.from({ length: 8 }, async () => {
      while (reading) {
        await read();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    });
    try {
      for (let round = 0; round < 10; round += 1) {
        const on = await api.request({ method: 'PUT', url: '/api/site-status', cookie: adminCookie, payload: { maintenance: true } });
        expect(on.statusCode).toBe(200);
        expect((await read()).statusCode, `round ${round}, on`).toBe(503);
        const off = await api.request({ method: 'PUT', url: '/api/site-status', cookie: adminCookie, payload: { maintenance: false } });
        expect(off.statusCode).toBe(200);
        expect((await read()).statusCode, `round ${round}, off`).toBe(200);
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
  }, 60_000);
});

describe('logged URLs and start-up settings', () => {
  it('redacts every credential-like query parameter, however its name is spelt', () => {
    const url =
      '/api/petitions?search=roads&access_token=AAA&token=B&code=C&state=D&session_token=E&refresh_token=F&id_token=G&client_secret=H&password=I&%61ccess_token=J&API-Key=K&page=2';
    const logged = redactUrlCredentials(url);
    for (const secret of ['AAA', '=B', '=C&', '=D', '=E', '=F', '=G', '=H', '=I', '=J', '=K']) expect(logged).not.toContain(secret);
    expect(logged).toContain('search=roads');
    expect(logged).toContain('page=2');
    expect(logged).toContain('access_token=[redacted]');
    expect(redactUrlCredentials('/auth/callback?code=abc&state=xyz&iss=http%3A%2F%2Fx')).toBe('/auth/callback?code=[redacted]&state=[redacted]&iss=[redacted]');
    expect(redactUrlCredentials('/api/petitions/3')).toBe('/api/petitions/3');
  });

  it('reads TRUST_PROXY as the proxies to believe, and refuses a hop count or "true"', () => {
    expect(parseTrustedProxies('10.0.0.5, 10.1.0.0/16,loopback, ::1')).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback', '::1']);
    expect(parseTrustedProxies(undefined)).toEqual([]);
    for (const wrong of ['true', '1', '*', '10.0.0.0/33', 'proxy.example']) expect(() => parseTrustedProxies(wrong)).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).limits.trustProxy).toEqual(['loopback']);
    // A public base URL no longer makes the server trust whoever connects.
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://petitions.example.org' }).limits.trustProxy).toEqual([]);
  });

  it('reads every rate limit from the environment, or switches it off, and refuses a typo', () => {
    expect(parseRateLimit('30/10s')).toEqual({ max: 30, windowMs: 10_000 });
    expect(formatRateLimit(RATE_LIMITS.signIn)).toBe('60/10m');
    const config = loadConfig({ RATE_LIMIT_SIGN_IN: '5/1m', RATE_LIMIT_SEARCH: 'off', RATE_LIMIT_LIST: '1000/1s', STREAMS_PER_CLIENT: '7' });
    expect(config.limits.rates).toEqual({ signIn: { max: 5, windowMs: 60_000 }, search: null, list: { max: 1000, windowMs: 1000 }, export: RATE_LIMITS.export });
    expect(config.limits.streamsPerClient).toBe(7);
    expect(() => loadConfig({ RATE_LIMIT_SEARCH: '30 per second' })).toThrow(/RATE_LIMIT_SEARCH/);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '30000' })).toThrow(/HEADERS_TIMEOUT_MS/);
  });
});
