/**
 * Ids have one spelling (src-shared's strict id): every route that takes an id in its path, query or
 * body refuses the others with 400 and changes nothing, even when they would read as an existing id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { isCanonicalId } from '../../src-shared/domain/schemas.ts';
import { RESPONSE_BODY, seedStaffPetition, seedStaffTerm, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

/** Path spellings that z.coerce.number() reads as 31, 29, 30, 22, 22, 1 …; all must be refused. */
const BAD_PATH_IDS = ['0x1f', '%2029', '30.0', '+22', '00022', '1%0a', '1%20', '0', '-1', '1e1', '0b11', '%20', '9007199254740993', '%D9%A3', '22%00'];
/** The same inside JSON bodies (strings from older clients, and numbers no id can be). */
const BAD_BODY_IDS: unknown[] = ['0x1f', ' 29', '30.0', '+22', '00022', '1\n', '', '0', 0, -1, 1.5, 2 ** 53 + 2, true, [1], { id: 1 }];

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
  // Ids 1…31 exist, so a misread id would act on something real.
  for (let i = 0; i < 31; i += 1) {
    await seedStaffTerm(api, { name: `Term ${i + 1}`, startDate: '2020-01-01', endDate: '2099-12-31' });
    await seedStaffPetition(api, { governmentResponse: 'A response', debateInfo: { status: 'scheduled', date: '2026-05-01', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null } });
  }
});
afterAll(async () => api.close());

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: (id: string) => string;
  payload?: unknown;
  /** User ids are digit strings of up to 20 digits, not numbers: only the safe-integer bound differs. */
  badIds?: string[];
}

const BAD_USER_IDS = [...BAD_PATH_IDS.filter((id) => id !== '9007199254740993'), '123456789012345678901'];
const DEBATE = { status: 'scheduled', date: '2026-06-01' };
const PATH_ID_CALLS: Call[] = [
  { method: 'GET', url: (id) => `/api/petitions/${id}` },
  { method: 'GET', url: (id) => `/api/petitions/${id}/signers` },
  { method: 'GET', url: (id) => `/api/petitions/${id}/count` },
  { method: 'GET', url: (id) => `/api/petitions/${id}/signatures-by-hour` },
  { method: 'POST', url: (id) => `/api/petitions/${id}/sign`, payload: {} },
  { method: 'POST', url: (id) => `/api/petitions/${id}/unsign`, payload: {} },
  { method: 'PATCH', url: (id) => `/api/petitions/${id}`, payload: { termId: 2 } },
  { method: 'PATCH', url: (id) => `/api/petitions/${id}/status`, payload: { status: 'closed' } },
  { method: 'DELETE', url: (id) => `/api/petitions/${id}` },
  { method: 'POST', url: (id) => `/api/petitions/${id}/government-response`, payload: RESPONSE_BODY },
  { method: 'DELETE', url: (id) => `/api/petitions/${id}/government-response` },
  { method: 'POST', url: (id) => `/api/petitions/${id}/debate-info`, payload: DEBATE },
  { method: 'DELETE', url: (id) => `/api/petitions/${id}/debate-info` },
  { method: 'PATCH', url: (id) => `/api/parliamentary-terms/${id}`, payload: { name: 'Renamed' } },
  { method: 'DELETE', url: (id) => `/api/parliamentary-terms/${id}` },
  { method: 'GET', url: (id) => `/api/petitions?term=${id}` },
  { method: 'GET', url: (id) => `/api/petitions.csv?term=${id}` },
  { method: 'GET', url: (id) => `/api/audit-log?before=${id}` },
  { method: 'POST', url: (id) => `/api/petitions/${id}/reports`, payload: { reason: 'spam' } },
  { method: 'POST', url: (id) => `/api/petitions/${id}/moderation`, payload: { decision: 'hide', reason: 'Checking' } },
  { method: 'GET', url: (id) => `/api/moderation/petitions/${id}` },
  { method: 'GET', url: (id) => `/api/moderation/queue?page=${id}` },
  { method: 'PUT', url: (id) => `/api/bans/${id}`, payload: { reason: 'Spam' }, badIds: BAD_USER_IDS },
  { method: 'DELETE', url: (id) => `/api/bans/${id}`, badIds: BAD_USER_IDS },
];

const BODY_ID_CALLS: { method: Call['method']; url: string; payload: (id: unknown) => unknown }[] = [
  { method: 'PATCH', url: '/api/petitions/5', payload: (id) => ({ termId: id }) },
  { method: 'POST', url: '/api/petitions', payload: (id) => ({ title: 'Fund the libraries', description: 'Every town should keep its library open for five days.', tags: ['Budget'], termId: id }) },
  { method: 'POST', url: '/api/petitions/1/government-response', payload: (id) => ({ ...RESPONSE_BODY, petition_id: id }) },
  { method: 'POST', url: '/api/petitions/1/debate-info', payload: (id) => ({ ...DEBATE, petition_id: id }) },
  { method: 'POST', url: '/api/petitions/2/reports', payload: (id) => ({ reason: 'duplicate', duplicateOf: id }) },
  { method: 'POST', url: '/api/petitions/bulk-moderation', payload: (id) => ({ items: [{ petitionId: id, action: { decision: 'keep' } }] }) },
];

describe('ids in the path or the query', () => {
  it.each(PATH_ID_CALLS.map((call) => [`${call.method} ${call.url(':id')}`, call] as const))('%s refuses every other spelling with 400, changing nothing', async (_name, call) => {
    const before = await writeSnapshot(api);
    for (const id of call.badIds ?? BAD_PATH_IDS) {
      const response = await api.request({ method: call.method, url: call.url(id), payload: call.payload as object, cookie: cookies.admin });
      expect(response.statusCode, `${call.method} ${call.url(id)}: ${response.body}`).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect(await writeSnapshot(api)).toEqual(before);
  });
});

describe('ids in a JSON body', () => {
  it.each(BODY_ID_CALLS.map((call) => [`${call.method} ${call.url}`, call] as const))('%s refuses every other spelling with 400, changing nothing', async (_name, call) => {
    const before = await writeSnapshot(api);
    for (const id of BAD_BODY_IDS) {
      const response = await api.request({ method: call.method, url: call.url, payload: call.payload(id) as object, cookie: cookies.admin });
      expect(response.statusCode, `${call.method} ${call.url} ${JSON.stringify(id)}: ${response.body}`).toBe(400);
    }
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('still accepts a canonical id as a number or as digits', async () => {
    expect((await api.request({ method: 'PATCH', url: '/api/petitions/5', payload: { termId: 3 }, cookie: cookies.admin })).statusCode).toBe(200);
    const asText = await api.request({ method: 'PATCH', url: '/api/petitions/5', payload: { termId: '4' }, cookie: cookies.admin });
    expect(asText.statusCode).toBe(200);
    expect(asText.json<{ termId: number }>().termId).toBe(4);
  });
});

describe('counts in the query', () => {
  it('take canonical digits only too', async () => {
    const calls = ['/api/petitions?page=', '/api/petitions?pageSize=', '/api/petitions/1/signers?offset=', '/api/petitions/1/signers?limit=', '/api/audit-log?limit='];
    for (const call of calls) {
      for (const bad of ['0x2', '+2', '02', '2.0', '%202', '1e1']) {
        const response = await api.request({ method: 'GET', url: `${call}${bad}`, cookie: cookies.admin });
        expect(response.statusCode, `${call}${bad}`).toBe(400);
      }
      expect((await api.request({ method: 'GET', url: `${call}2`, cookie: cookies.admin })).statusCode, `${call}2`).toBe(200);
    }
    expect((await api.request({ method: 'GET', url: '/api/petitions/1/signers?offset=0' })).statusCode).toBe(200);
  });
});

describe('the rule', () => {
  it('accepts digits without sign, leading zero or spaces, up to the largest safe integer', () => {
    for (const good of ['1', '22', '9007199254740991']) expect(isCanonicalId(good), good).toBe(true);
    for (const bad of ['0', '01', '+1', '-1', ' 1', '1 ', '1\n', '1.0', '1e3', '0x1f', '9007199254740992', '١']) expect(isCanonicalId(bad), bad).toBe(false);
  });
});
