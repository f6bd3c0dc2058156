/** Bad input on every staff endpoint: always a 4xx Problem with a clear detail, never a 500, never a write. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { RESPONSE_BODY, seedStaffPetition, seedStaffTerm, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;
let petitionId: number;
let termId: number;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
  termId = await seedStaffTerm(api);
  petitionId = await seedStaffPetition(api, { governmentResponse: 'An answer', debateInfo: { status: 'scheduled', date: '2026-05-12', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null } });
  await api.request({ method: 'PUT', url: '/api/bans/600001', payload: { reason: 'Spam' }, cookie: cookies.admin });
});
afterAll(async () => api.close());

interface Endpoint {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: () => string;
  /** A body that would be accepted, to build wrong-typed and extended variants from. */
  valid?: () => Record<string, unknown>;
  /** The same route with a bad path id. */
  withId?: (id: string) => string;
}

const ENDPOINTS: Record<string, Endpoint> = {
  'create term': { method: 'POST', url: () => '/api/parliamentary-terms', valid: () => ({ name: 'T', startDate: '2027-01-01', endDate: '2027-02-01' }) },
  'patch term': { method: 'PATCH', url: () => `/api/parliamentary-terms/${termId}`, valid: () => ({ name: 'T2' }), withId: (id) => `/api/parliamentary-terms/${id}` },
  'delete term': { method: 'DELETE', url: () => `/api/parliamentary-terms/${termId}`, withId: (id) => `/api/parliamentary-terms/${id}` },
  'assign petition': { method: 'PATCH', url: () => `/api/petitions/${petitionId}`, valid: () => ({ termId }), withId: (id) => `/api/petitions/${id}` },
  'set status': { method: 'PATCH', url: () => `/api/petitions/${petitionId}/status`, valid: () => ({ status: 'closed' }), withId: (id) => `/api/petitions/${id}/status` },
  'delete petition': { method: 'DELETE', url: () => `/api/petitions/${petitionId}`, withId: (id) => `/api/petitions/${id}` },
  'delete all': { method: 'POST', url: () => '/api/petitions/delete-all', valid: () => ({ confirmation: 'DELETE ALL PETITIONS' }) },
  'save response': { method: 'POST', url: () => `/api/petitions/${petitionId}/government-response`, valid: () => ({ ...RESPONSE_BODY }), withId: (id) => `/api/petitions/${id}/government-response` },
  'remove response': { method: 'DELETE', url: () => `/api/petitions/${petitionId}/government-response`, withId: (id) => `/api/petitions/${id}/government-response` },
  'save debate': { method: 'POST', url: () => `/api/petitions/${petitionId}/debate-info`, valid: () => ({ status: 'scheduled', date: '2026-05-12' }), withId: (id) => `/api/petitions/${id}/debate-info` },
  'remove debate': { method: 'DELETE', url: () => `/api/petitions/${petitionId}/debate-info`, withId: (id) => `/api/petitions/${id}/debate-info` },
  maintenance: { method: 'PUT', url: () => '/api/site-status', valid: () => ({ maintenance: true }) },
  ban: { method: 'PUT', url: () => '/api/bans/600002', valid: () => ({ reason: 'Spam' }), withId: (id) => `/api/bans/${id}` },
  unban: { method: 'DELETE', url: () => '/api/bans/600001', withId: (id) => `/api/bans/${id}` },
  notify: { method: 'POST', url: () => '/api/notifications/discord', valid: () => ({ embeds: [{ title: 'Hello' }] }) },
};

const WITH_BODY = Object.entries(ENDPOINTS).filter(([, e]) => e.valid);
const WITH_ID = Object.entries(ENDPOINTS).filter(([, e]) => e.withId);
const BAD_IDS = ['abc', '-1', '0', '1.5', '99999999999999999999', '%20', 'null'];
/** Roblox user ids are 1 to 20 digits, so 0 and twenty nines are valid ones. */
const BAD_USER_IDS = ['abc', '-1', '1.5', '123456789012345678901', '%20', 'null', '1e5'];

async function expectRefusedWithoutWrites(
  request: Parameters<TestApi['request']>[0],
  expected?: number,
): Promise<void> {
  const before = await writeSnapshot(api);
  const response = await api.request({ cookie: cookies.admin, ...request });
  expect(response.statusCode).toBeGreaterThanOrEqual(400);
  expect(response.statusCode).toBeLessThan(500);
  if (expected) expect(response.statusCode).toBe(expected);
  expect(response.headers['content-type']).toContain('application/problem+json');
  const detail = response.json<{ detail: unknown }>().detail;
  expect(typeof detail).toBe('string');
  expect(String(detail).length).toBeGreaterThan(3);
  expect(await writeSnapshot(api)).toEqual(before);
}

describe.each(WITH_BODY)('%s', (_name, endpoint) => {
  it('refuses malformed JSON', async () => {
    await expectRefusedWithoutWrites({ method: endpoint.method, url: endpoint.url(), payload: '{"broken":', headers: { 'content-type': 'application/json' } }, 400);
  });

  it('refuses an empty JSON body, null, an array and a string', async () => {
    await expectRefusedWithoutWrites({ method: endpoint.method, url: endpoint.url(), payload: '', headers: { 'content-type': 'application/json' } }, 400);
    for (const payload of ['null', '[]', '"text"', '42']) {
      await expectRefusedWithoutWrites({ method: endpoint.method, url: endpoint.url(), payload, headers: { 'content-type': 'application/json' } }, 400);
    }
  });

  it('refuses a body that is not JSON', async () => {
    await expectRefusedWithoutWrites({ method: endpoint.method, url: endpoint.url(), payload: 'maintenance=true', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415);
  });

  it('refuses unknown fields', async () => {
    await expectRefusedWithoutWrites({ method: endpoint.method, url: endpoint.url(), payload: { ...endpoint.valid?.(), isAdmin: true } }, 400);
  });

  it('refuses wrong types in every field', async () => {
    const valid = endpoint.valid?.() ?? {};
    for (const field of Object.keys(valid)) {
      for (const wrong of [{ nested: true }, [1, 2], 12345, true]) {
        if (typeof valid[field] === typeof wrong) continue;
        await expectRefusedWithoutWrites({ method: endpoint.method, url: endpoint.url(), payload: { ...valid, [field]: wrong } }, 400);
      }
    }
  });

  it('refuses an oversized body', async () => {
    const valid = endpoint.valid?.() ?? {};
    await expectRefusedWithoutWrites({ method: endpoint.method, url: endpoint.url(), payload: { ...valid, padding: 'x'.repeat(70 * 1024) } }, 413);
  });
});

describe.each(WITH_ID)('%s', (_name, endpoint) => {
  it.each(endpoint.withId?.('1').startsWith('/api/bans/') ? BAD_USER_IDS : BAD_IDS)('refuses the id %j with 400', async (id) => {
    await expectRefusedWithoutWrites({ method: endpoint.method, url: endpoint.withId?.(id) ?? '', ...(endpoint.valid ? { payload: endpoint.valid() } : {}) }, 400);
  });
});

describe('the fixture petition survived every bad request', () => {
  it('is unchanged', async () => {
    const row = await api.context.db.selectFrom('petitions').selectAll().where('id', '=', petitionId).executeTakeFirstOrThrow();
    expect(row.version).toBe(1);
    expect(row.status).toBe('open');
    expect(row.government_response).toBe('An answer');
  });
});
