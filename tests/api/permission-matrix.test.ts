/**
 * Role × endpoint matrix: every call of the API against every kind of caller, each on fresh fixtures.
 * A cell is either the exact refusal (401/403) or "allowed" (any status that is not a refusal).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_ALL_CONFIRMATION } from '../../src-shared/domain/constants.ts';
import { ROLE_PROFILES, startTestApi, type RoleName, type TestApi } from '../support/api-harness.ts';

type Caller = 'visitor' | RoleName;
const CALLERS: Caller[] = ['visitor', 'nonCitizen', 'citizen', 'rank6', 'rank7', 'rank8', 'admin', 'bannedCitizen'];
type Expect = 'ok' | 401 | 403;

interface Fixture {
  petitionId: number;
  termId: number;
}

interface Call {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: (f: Fixture, caller: Caller) => string;
  body?: (f: Fixture, caller: Caller) => unknown;
  expect: Record<Caller, Expect>;
}

const everyone = (value: Expect): Record<Caller, Expect> =>
  Object.fromEntries(CALLERS.map((c) => [c, value])) as Record<Caller, Expect>;
const signedIn = (): Record<Caller, Expect> => ({ ...everyone('ok'), visitor: 401 });
const adminOnly = (): Record<Caller, Expect> => ({ ...everyone(403), visitor: 401, admin: 'ok' });
const participants = (): Record<Caller, Expect> => ({ ...signedIn(), nonCitizen: 403 });
const ministers = (): Record<Caller, Expect> => ({ ...everyone(403), visitor: 401, rank6: 'ok', rank7: 'ok', rank8: 'ok', admin: 'ok' });
const seniorMinisters = (): Record<Caller, Expect> => ({ ...ministers(), rank6: 403 });

const ownId = (caller: Caller) => (caller === 'visitor' ? ROLE_PROFILES.citizen.id : ROLE_PROFILES[caller].id);
const validPetition = {
  title: 'Fund more public libraries',
  description: 'Public libraries are closing across the country and need stable funding now.',
  tags: ['Public Services'],
};
const response = { response_text: 'The government has considered this petition.', added_by_role: 'Prime Minister' };
const debate = { status: 'scheduled', date: '2026-12-01', location: '' };

const CALLS: Call[] = [
  { name: 'list petitions', method: 'GET', url: () => '/api/petitions', expect: everyone('ok') },
  { name: 'petition detail', method: 'GET', url: (f) => `/api/petitions/${f.petitionId}`, expect: everyone('ok') },
  { name: 'petition signers', method: 'GET', url: (f) => `/api/petitions/${f.petitionId}/signers`, expect: everyone('ok') },
  { name: 'petition count', method: 'GET', url: (f) => `/api/petitions/${f.petitionId}/count`, expect: everyone('ok') },
  { name: 'signatures by hour', method: 'GET', url: (f) => `/api/petitions/${f.petitionId}/signatures-by-hour`, expect: everyone('ok') },
  { name: 'CSV export', method: 'GET', url: () => '/api/petitions.csv', expect: everyone('ok') },
  { name: 'home stats', method: 'GET', url: () => '/api/stats', expect: everyone('ok') },
  { name: 'list terms', method: 'GET', url: () => '/api/parliamentary-terms', expect: everyone('ok') },
  { name: 'site status', method: 'GET', url: () => '/api/site-status', expect: everyone('ok') },
  { name: 'check expired', method: 'POST', url: () => '/api/petitions/check-expired', expect: everyone('ok') },
  { name: 'session', method: 'GET', url: () => '/api/auth/session', expect: everyone('ok') },
  { name: 'daily allowance', method: 'GET', url: () => '/api/petitions/daily-allowance', expect: signedIn() },
  { name: 'own user', method: 'GET', url: (_f, c) => `/api/auth/roblox/user/${ownId(c)}`, expect: signedIn() },
  { name: 'create petition', method: 'POST', url: () => '/api/petitions', body: () => validPetition, expect: { ...participants(), bannedCitizen: 403 } },
  { name: 'sign', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/sign`, body: () => ({}), expect: participants() },
  { name: 'unsign', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/unsign`, body: () => ({}), expect: participants() },
  { name: 'add response', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/government-response`, body: () => response, expect: ministers() },
  { name: 'remove response', method: 'DELETE', url: (f) => `/api/petitions/${f.petitionId}/government-response`, expect: ministers() },
  { name: 'add debate', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/debate-info`, body: () => debate, expect: seniorMinisters() },
  { name: 'remove debate', method: 'DELETE', url: (f) => `/api/petitions/${f.petitionId}/debate-info`, expect: seniorMinisters() },
  { name: 'delete petition', method: 'DELETE', url: (f) => `/api/petitions/${f.petitionId}`, expect: seniorMinisters() },
  { name: 'chat notification', method: 'POST', url: () => '/api/notifications/discord', body: () => ({ embeds: [{ title: 'Hello', description: 'Test', color: 1 }] }), expect: ministers() },
  { name: 'assign petition', method: 'PATCH', url: (f) => `/api/petitions/${f.petitionId}`, body: (f) => ({ termId: f.termId }), expect: adminOnly() },
  { name: 'status override', method: 'PATCH', url: (f) => `/api/petitions/${f.petitionId}/status`, body: () => ({ status: 'closed' }), expect: adminOnly() },
  { name: 'delete all petitions', method: 'POST', url: () => '/api/petitions/delete-all', body: () => ({ confirmation: DELETE_ALL_CONFIRMATION }), expect: adminOnly() },
  { name: 'create term', method: 'POST', url: () => '/api/parliamentary-terms', body: () => ({ name: 'Term 99', startDate: '2030-01-01', endDate: '2030-06-01' }), expect: adminOnly() },
  { name: 'edit term', method: 'PATCH', url: (f) => `/api/parliamentary-terms/${f.termId}`, body: () => ({ name: 'Renamed term' }), expect: adminOnly() },
  { name: 'preview term change', method: 'POST', url: (f) => `/api/parliamentary-terms/${f.termId}/preview`, body: () => ({ status: 'completed' }), expect: adminOnly() },
  { name: 'delete term', method: 'DELETE', url: (f) => `/api/parliamentary-terms/${f.termId}`, expect: adminOnly() },
  { name: 'maintenance toggle', method: 'PUT', url: () => '/api/site-status', body: () => ({ maintenance: false }), expect: adminOnly() },
  { name: 'ban stats', method: 'GET', url: () => '/api/ban-stats', expect: adminOnly() },
  { name: 'list bans', method: 'GET', url: () => '/api/bans', expect: adminOnly() },
  { name: 'ban user', method: 'PUT', url: () => '/api/bans/12345', body: () => ({ reason: 'Spam' }), expect: adminOnly() },
  { name: 'unban user', method: 'DELETE', url: () => '/api/bans/12345', expect: adminOnly() },
  { name: 'audit log', method: 'GET', url: () => '/api/audit-log', expect: adminOnly() },
];

describe('role × endpoint matrix', () => {
  let api: TestApi;
  const cookies = new Map<Caller, string | undefined>();

  beforeAll(async () => {
    api = await startTestApi();
    cookies.set('visitor', undefined);
    for (const caller of CALLERS) if (caller !== 'visitor') cookies.set(caller, await api.signInAs(caller));
  });
  afterAll(() => api.close());

  /** Fresh term and petition per cell, so one cell's change (delete, close) never leaks into another. */
  async function fixture(): Promise<Fixture> {
    const now = new Date().toISOString();
    const term = await api.context.db
      .insertInto('terms')
      .values({ name: 'Current term', start_date: '2020-01-01', end_date: '2099-12-31', status: 'current', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const petition = await api.context.db
      .insertInto('petitions')
      .values({
        title: 'Matrix petition',
        description: 'A petition used to check who may call which endpoint.',
        creator_name: 'Someone',
        creator_id: '1',
        tags: JSON.stringify(['Rights']),
        category: 'General',
        term_id: term.id,
        status: 'open',
        signature_count: 0,
        government_response: 'Existing response',
        government_response_meta: JSON.stringify({ addedBy: 'x', addedByRole: 'Prime Minister', addedAt: now, editedBy: null, editedByRole: null, editedAt: null }),
        debate_info: JSON.stringify({ status: 'scheduled', date: '2026-12-01', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null }),
        debate_info_meta: JSON.stringify({ addedBy: 'x', addedByRole: 'Government Official', addedAt: now, editedBy: null, editedByRole: null, editedAt: null }),
        version: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Bans are only the banned citizen's; the matrix's own ban/unban cell must not leak.
    await api.context.db.deleteFrom('bans').where('user_id', '!=', ROLE_PROFILES.bannedCitizen.id).execute();
    await api.context.db.insertInto('bans').values({ user_id: '12345', reason: 'Spam', banned_by: 'test', banned_at: now }).execute();
    return { petitionId: petition.id, termId: term.id };
  }

  for (const call of CALLS) {
    for (const caller of CALLERS) {
      const expected = call.expect[caller];
      it(`${call.name} as ${caller} → ${expected}`, async () => {
        const f = await fixture();
        // Creation is limited per day (deleted petitions still count): clear earlier cells' creations by this caller.
        await api.context.db.deleteFrom('petitions').where('creator_id', '=', ownId(caller)).execute();
        await api.context.db.deleteFrom('petition_creations').where('creator_id', '=', ownId(caller)).execute();
        const res = await api.request({
          method: call.method,
          url: call.url(f, caller),
          ...(call.body ? { payload: call.body(f, caller) as object } : {}),
          cookie: cookies.get(caller),
        });
        if (expected === 'ok') {
          expect([401, 403], `${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
          expect(res.statusCode, res.body).toBeLessThan(500);
          expect(res.statusCode, res.body).not.toBe(404);
        } else {
          expect(res.statusCode, res.body).toBe(expected);
          expect(res.json().detail).toEqual(expect.any(String));
        }
      });
    }
  }
});
